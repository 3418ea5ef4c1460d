/**
 * Ajv setup of the validators generator: one Ajv (draft-07, formats from ajv-formats) holding every
 * schema of the version and the variants, with a linear-time `uniqueItems` keyword, compiled to
 * standalone ES module code. Also {@link findDuplicateItem}, the function that keyword calls, whose
 * source is copied into the generated validators.
 *
 * @module
 */
import { _ as ajvCode, Ajv, type AnySchemaObject, type KeywordCxt } from "ajv";
import standaloneModule from "ajv/dist/standalone/index.js";
import ajvFormatsModule, { type FormatsPlugin } from "ajv-formats";
import { createRequire } from "node:module";
import { ScriptError } from "../_cli.ts";

// Both packages are CommonJS whose `module.exports` is also their `default`; Deno's default import
// is `module.exports`.
const standaloneCode = (standaloneModule as unknown as { default: typeof standaloneModule.default })
  .default;
const addFormats = (ajvFormatsModule as unknown as { default: FormatsPlugin }).default;

const require = createRequire(import.meta.url);

function packageVersion(name: string): string {
  return (require(`${name}/package.json`) as { version: string }).version;
}

/** The versions of Ajv and ajv-formats that compile the validators, for the generated headers. */
export const AJV_VERSIONS: { ajv: string; ajvFormats: string } = {
  ajv: packageVersion("ajv"),
  ajvFormats: packageVersion("ajv-formats"),
};

/**
 * The first pair of equal items of an array, as `[earlier, later]` indices, or `undefined`. Items
 * are equal when their canonical JSON (object keys sorted; `-0` is `0`) is, which is JSON Schema's
 * equality for JSON data. One pass with a map: O(total size), where Ajv's own `uniqueItems`
 * compares every pair of object or array items (O(n²): 32,000 distinct small objects, 500 KB of
 * JSON, took 20 s), a denial of service on untrusted input.
 *
 * Runs inside the generated validators: its source is copied there (`Function.prototype.toString`),
 * so it must reference nothing outside itself.
 *
 * @param items The array.
 * @returns The indices of the first duplicate found.
 */
export function findDuplicateItem(items: readonly unknown[]): [number, number] | undefined {
  // Iterative, with an explicit stack: callers may raise the depth limit far past what recursion
  // survives (a recursive version overflowed the call stack between 1,000 and 3,000 levels).
  const canonical = (root: unknown): string => {
    const parts: string[] = [];
    const stack: unknown[] = [root];
    // Whether the stack entry at the same index is text to emit as is.
    const isText: boolean[] = [false];
    while (stack.length > 0) {
      const value = stack.pop();
      if (isText.pop() === true) {
        parts.push(value as string);
      } else if (typeof value === "number") {
        parts.push(value === 0 ? "0" : String(value));
      } else if (value === null || typeof value !== "object") {
        parts.push(JSON.stringify(value) ?? "undefined");
      } else if (Array.isArray(value)) {
        // Pushed in reverse, popped as "[", item 0, ",", item 1, ..., "]".
        stack.push("]"), isText.push(true);
        for (let index = value.length - 1; index >= 0; index--) {
          stack.push(value[index]), isText.push(false);
          if (index > 0) stack.push(","), isText.push(true);
        }
        stack.push("["), isText.push(true);
      } else {
        const object = value as Record<string, unknown>;
        const keys = Object.keys(object).sort();
        stack.push("}"), isText.push(true);
        for (let index = keys.length - 1; index >= 0; index--) {
          const key = keys[index] as string;
          stack.push(object[key]), isText.push(false);
          stack.push(`${JSON.stringify(key)}:`), isText.push(true);
          if (index > 0) stack.push(","), isText.push(true);
        }
        stack.push("{"), isText.push(true);
      }
    }
    return parts.join("");
  };
  // Scalars are their own keys (a Map compares them by SameValueZero, so "1" is not 1 and -0 is
  // 0); containers are keyed by their canonical text in a second map, so the string "{}" is not
  // the object {}.
  const scalars = new Map<unknown, number>();
  const containers = new Map<string, number>();
  for (let index = 0; index < items.length; index++) {
    const item = items[index];
    const isContainer = item !== null && typeof item === "object";
    const key = isContainer ? canonical(item) : item;
    const seen = isContainer ? containers.get(key as string) : scalars.get(key);
    if (seen !== undefined) return [seen, index];
    if (isContainer) containers.set(key as string, index);
    else scalars.set(key, index);
  }
  return undefined;
}

/** The specifier of the virtual module that carries {@link findDuplicateItem} into the output. */
export const UNIQUE_ITEMS_SPECIFIER = "adcp:runtime/unique_items";

/** The source of the virtual module {@link UNIQUE_ITEMS_SPECIFIER}. */
export const UNIQUE_ITEMS_MODULE =
  `export const findDuplicateItem = ${findDuplicateItem.toString()};\n`;

/**
 * Replaces Ajv's `uniqueItems` by one that calls {@link findDuplicateItem}: same keyword, same
 * `{ i, j }` params (`j` the earlier index, `i` the later), linear time.
 */
function linearUniqueItems(ajv: Ajv): void {
  ajv.removeKeyword("uniqueItems");
  ajv.addKeyword({
    keyword: "uniqueItems",
    type: "array",
    schemaType: "boolean",
    error: {
      message: "must NOT have duplicate items",
      params: ({ params }) => ajvCode`{i: ${params.i}, j: ${params.j}}`,
    },
    code(context: KeywordCxt) {
      if (context.schema !== true) return;
      const { gen: generator, data } = context;
      const find = generator.scopeValue("func", {
        ref: findDuplicateItem,
        code: ajvCode`require(${UNIQUE_ITEMS_SPECIFIER}).findDuplicateItem`,
      });
      const duplicate = generator.const("dup", ajvCode`${find}(${data})`);
      context.setParams({ i: ajvCode`${duplicate}[1]`, j: ajvCode`${duplicate}[0]` });
      context.fail(ajvCode`${duplicate} !== undefined`);
    },
  });
}

/**
 * One Ajv holding every schema of the version and the variants. `strict: false` because upstream
 * uses vocabulary Ajv does not know (`enumDescriptions`, `enumMetadata`, `x-status`, `x-entity`…).
 * `allErrors` stays off: on untrusted input validation stops at the first failure (Ajv's security
 * advice), which also keeps the code smaller. `messages: false`: `@adcp-wire/validation` writes its
 * own messages from `keyword` and `params`. `uniqueItems` runs in linear time (see
 * {@link findDuplicateItem}).
 *
 * @param schemas The schemas to add.
 * @param warnings Collects Ajv's warnings (the caller fails on any).
 * @returns The Ajv.
 */
export function makeAjv(schemas: Iterable<AnySchemaObject>, warnings: string[]): Ajv {
  const ajv = new Ajv({
    strict: false,
    allErrors: false,
    messages: false,
    inlineRefs: false,
    code: {
      source: true,
      esm: true,
      lines: true,
      formats: ajvCode`require("ajv-formats/dist/formats").fullFormats`,
    },
    logger: {
      log: () => {},
      warn: (...args: unknown[]) => void warnings.push(args.map(String).join(" ")),
      error: (...args: unknown[]) => {
        throw new ScriptError(`Ajv: ${args.map(String).join(" ")}`);
      },
    },
  });
  addFormats(ajv);
  linearUniqueItems(ajv);
  for (const schema of schemas) ajv.addSchema(schema);
  return ajv;
}

/**
 * Ajv's standalone ES module code exporting one validation function per entry of `exports`.
 *
 * @param ajv The Ajv of {@link makeAjv}.
 * @param exports Export name → the `$id` of the schema it validates.
 * @returns The module's source.
 */
export function compileStandalone(ajv: Ajv, exports: Record<string, string>): string {
  return standaloneCode(ajv, exports);
}
