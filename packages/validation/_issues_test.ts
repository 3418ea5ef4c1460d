import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import fc from "fast-check";
import type { CompiledValidatorError } from "@adcp-wire/schemas/validators";
import { escapeToken, toIssues } from "./_issues.ts";
import { ISSUE_MESSAGE_MAX_LENGTH, ISSUE_POINTER_MAX_LENGTH } from "./validation_result.ts";

function err(
  keyword: string,
  params: Record<string, unknown>,
  instancePath = "/a",
): CompiledValidatorError {
  return { instancePath, schemaPath: "#/x", keyword, params };
}

Deno.test(
  "toIssues() points at the property a required, dependencies or additionalProperties names",
  () => {
    deepStrictEqual(
      toIssues([
        err("required", { missingProperty: "x/y" }),
        err("dependencies", { property: "p", missingProperty: "q~", depsCount: 1, deps: "q~" }),
        err("additionalProperties", { additionalProperty: "extra" }, ""),
        err("propertyNames", { propertyName: "bad key" }, "/m"),
        err("type", { type: "string" }, "/a/0"),
      ], 20),
      [
        { pointer: "/a/x~1y", message: 'Missing required property "x/y"', keyword: "required" },
        {
          pointer: "/a/q~0",
          message: 'Missing property "q~", required when "p" is present',
          keyword: "dependencies",
        },
        {
          pointer: "/extra",
          message: "Expected no property the schema does not name",
          keyword: "additionalProperties",
        },
        {
          pointer: "/m/bad key",
          message: "Expected a property name the schema allows",
          keyword: "propertyNames",
        },
        { pointer: "/a/0", message: "Expected type string", keyword: "type" },
      ],
    );
  },
);

Deno.test("toIssues() writes messages from schema values only", () => {
  const msgs = toIssues([
    err("enum", { allowedValues: ["a", "b"] }),
    err("enum", { allowedValues: ["a", "b", "c", "d", "e", "f"] }),
    err("const", { allowedValue: "agent" }),
    err("pattern", { pattern: "^[A-Z]{3}$" }),
    err("format", { format: "date-time" }),
    err("minLength", { limit: 1 }),
    err("maxItems", { limit: 4 }),
    err("maximum", { comparison: "<=", limit: 100 }),
    err("exclusiveMinimum", { comparison: ">", limit: 0 }),
    err("type", { type: "string,number" }),
    err("oneOf", { passingSchemas: [0, 2] }),
    err("oneOf", { passingSchemas: null }),
    err("uniqueItems", { i: 3, j: 1 }),
    err("if", { failingKeyword: "then" }),
    err("not", {}),
    err("false schema", {}),
    err("somethingNew", { value: "SELLER" }),
  ], 100).map((i) => i.message);
  deepStrictEqual(msgs, [
    'Expected one of "a", "b"',
    "Expected one of the 6 values the schema allows",
    'Expected the constant "agent"',
    'Expected a string matching the pattern "^[A-Z]{3}$"',
    'Expected a string in the "date-time" format',
    "Expected at least 1 character",
    "Expected at most 4 items",
    "Expected a number <= 100",
    "Expected a number > 0",
    "Expected type string or number",
    "Expected a value matching exactly one of the allowed shapes (it matches 2)",
    "Expected a value matching exactly one of the allowed shapes",
    "Expected unique items (items 1 and 3 are equal)",
    'Expected a value matching the "then" branch of a condition',
    "Expected a value not matching a shape the schema forbids",
    "Expected no value here",
    'Expected a value passing the "somethingNew" rule',
  ]);
});

Deno.test("toIssues() cuts long schema values and long pointers", () => {
  const [issue] = toIssues([err("pattern", { pattern: "x".repeat(500) })], 1);
  strictEqual(issue!.message, `Expected a string matching the pattern "${"x".repeat(62)}…`);

  const key = "k".repeat(ISSUE_POINTER_MAX_LENGTH);
  const [cut] = toIssues([err("additionalProperties", { additionalProperty: key }, "/p/q")], 1);
  strictEqual(cut!.pointer, "/p/q");
  strictEqual(
    cut!.message,
    "Expected no property the schema does not name (at a descendant of this pointer)",
  );
  const [root] = toIssues([err("type", { type: "string" }, `/${key}x`)], 1);
  strictEqual(root!.pointer, "");
});

Deno.test(
  "toIssues() prefixes pointers, caps the count keeping the last failure, never returns " +
    "nothing",
  () => {
    const many = Array.from({ length: 30 }, (_, i) => err("type", { type: "string" }, `/${i}`));
    const issues = toIssues(many, 5, "/result");
    deepStrictEqual(
      issues.map((i) => i.pointer),
      ["/result/0", "/result/1", "/result/2", "/result/3", "/result/29"],
    );
    deepStrictEqual(toIssues(many, 1).map((i) => i.pointer), ["/29"]);
    deepStrictEqual(toIssues(null, 5, "/result"), [
      { pointer: "/result", message: "Expected a value matching the schema", keyword: "schema" },
    ]);
  },
);

Deno.test("toIssues() keeps pointers and messages bounded for any params (property)", () => {
  fc.assert(
    fc.property(
      fc.string(),
      fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 2 })),
      fc.string({ maxLength: 3000 }),
      (keyword, params, key) => {
        const [issue] = toIssues([err(keyword, { ...params, missingProperty: key }, "")], 1);
        ok(issue!.pointer.length <= ISSUE_POINTER_MAX_LENGTH);
        ok(issue!.message.length <= ISSUE_MESSAGE_MAX_LENGTH);
        ok(issue!.keyword.length <= 64);
      },
    ),
  );
});

Deno.test("escapeToken() follows RFC 6901", () => {
  strictEqual(escapeToken("a~/b"), "a~0~1b");
  strictEqual(escapeToken("~1"), "~01");
});
