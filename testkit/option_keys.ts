// What the unknown-option-key tables of every package share: an options object naming every key of
// an interface, what a call threw, and the Options and Limits types an entry point exports.

/**
 * An options object naming every key of `T`, each `undefined`: the type checker refuses a missing
 * or an extra key, so a table built with it follows the interface.
 *
 * @param keys Every key of `T`, each `undefined`.
 * @returns The same object, as `T`.
 */
export function everyKey<T>(keys: { readonly [K in keyof Required<T> & string]: undefined }): T {
  return keys as T;
}

/**
 * What `call` threw or rejected with, or `undefined` when it returned or resolved.
 *
 * @param call The call.
 * @returns The error, or `undefined`.
 */
export async function outcome(call: () => unknown): Promise<unknown> {
  try {
    await call();
    return undefined;
  } catch (error) {
    return error;
  }
}

/** The parts of `deno doc --json` output that {@link exportedOptionTypes} reads. */
interface DocJson {
  readonly nodes: Record<string, {
    readonly symbols: readonly {
      readonly name: string;
      readonly declarations: readonly { readonly kind: string; readonly declarationKind: string }[];
    }[];
  }>;
}

/**
 * The names of the interfaces and type aliases ending in `Options` or `Limits` that the entry
 * points export, as `deno doc --json` lists them (each name once, sorted).
 *
 * @param entries The entry points (`new URL("./mod.ts", import.meta.url)`).
 * @returns Their exported options and limits types.
 * @throws {Error} When `deno doc` fails.
 */
export async function exportedOptionTypes(...entries: readonly URL[]): Promise<string[]> {
  const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["doc", "--json", "--no-lock", ...entries.map((entry) => entry.pathname)],
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (code !== 0) throw new Error(`deno doc failed: ${new TextDecoder().decode(stderr)}`);
  const doc = JSON.parse(new TextDecoder().decode(stdout)) as DocJson;
  const names = Object.values(doc.nodes).flatMap((module) => module.symbols)
    .filter((symbol) => /(Options|Limits)$/.test(symbol.name))
    .filter((symbol) =>
      symbol.declarations.some((declaration) =>
        declaration.declarationKind === "export" &&
        (declaration.kind === "interface" || declaration.kind === "typeAlias")
      )
    )
    .map((symbol) => symbol.name);
  return [...new Set(names)].sort();
}

/**
 * Asserts that `call` throws or rejects with a `TypeError` whose message is `message` exactly.
 *
 * @param call The call.
 * @param message The message expected.
 * @throws {Error} Otherwise.
 */
export async function assertRefused(call: () => unknown, message: string): Promise<void> {
  const error = await outcome(call);
  if (!(error instanceof TypeError)) throw new Error(`expected a TypeError, got ${error}`);
  if (error.message !== message) {
    throw new Error(
      `expected the message ${JSON.stringify(message)}, got ` +
        JSON.stringify(error.message),
    );
  }
}

/**
 * Asserts that `call` is not refused for an unknown option key (it may fail for another reason,
 * such as a fake fetch that answers nothing useful).
 *
 * @param call The call.
 * @throws {Error} When it was refused for a key.
 */
export async function assertNotRefusedForKey(call: () => unknown): Promise<void> {
  const error = await outcome(call);
  if (error instanceof Error && error.message.includes("must be a known option")) {
    throw new Error(`refused a known key: ${error.message}`);
  }
}
