import fc from "fast-check";
import { doesNotThrow, ok, strictEqual } from "node:assert/strict";
import { describe } from "./describe.ts";
import { optionError, rescopeOptionError } from "./option_error.ts";

Deno.test("optionError() builds the one message style for a TypeError", () => {
  const error = optionError(
    TypeError,
    "create an McpClient",
    "options.fetch",
    "a function",
    "fetch",
  );
  strictEqual(
    error.message,
    "Cannot create an McpClient as 'options.fetch' must be a function: " +
      'current value is "fetch"',
  );
  strictEqual(error.constructor, TypeError);
  strictEqual(error.name, "TypeError");
  ok(error instanceof TypeError);
});

Deno.test("optionError() builds the one message style for a RangeError", () => {
  const error = optionError(RangeError, "read the body", "maxBytes", "a positive safe integer", -1);
  strictEqual(
    error.message,
    "Cannot read the body as 'maxBytes' must be a positive safe integer: current value is -1",
  );
  strictEqual(error.constructor, RangeError);
  strictEqual(error.name, "RangeError");
  ok(error instanceof RangeError);
  ok(!(error instanceof TypeError));
});

Deno.test("optionError() returns the error and does not throw it", () => {
  let error: unknown;
  doesNotThrow(() => {
    error = optionError(RangeError, "go", "x", "y", 1);
  });
  ok(error instanceof RangeError);
  strictEqual(typeof error.stack, "string");
  strictEqual(Object.hasOwn(error, "cause"), false);
  // Each call makes a fresh error.
  const first = optionError(TypeError, "go", "x", "y", 1);
  const second = optionError(TypeError, "go", "x", "y", 1);
  ok(first !== second);
  strictEqual(first.message, second.message);
});

Deno.test("optionError() renders the value through describe()", () => {
  strictEqual(
    optionError(TypeError, "go", "x", "y", "z".repeat(40)).message,
    `Cannot go as 'x' must be y: current value is "${"z".repeat(32)}…"`,
  );
  strictEqual(
    optionError(TypeError, "go", "x", "y", -0).message,
    "Cannot go as 'x' must be y: current value is -0",
  );
  strictEqual(
    optionError(TypeError, "go", "x", "y", { secret: "hunter2" }).message,
    "Cannot go as 'x' must be y: current value is an object",
  );
  strictEqual(
    optionError(TypeError, "go", "x", "y", [1]).message,
    "Cannot go as 'x' must be y: current value is an array",
  );
  strictEqual(
    optionError(TypeError, "go", "x", "y", undefined).message,
    "Cannot go as 'x' must be y: current value is undefined",
  );
  strictEqual(
    optionError(RangeError, "go", "x", "y", 3n).message,
    "Cannot go as 'x' must be y: current value is 3n",
  );
  strictEqual(
    optionError(TypeError, "go", "x", "y", Symbol("s")).message,
    "Cannot go as 'x' must be y: current value is a symbol",
  );
  strictEqual(
    optionError(TypeError, "go", "x", "y", 'a"\n').message,
    `Cannot go as 'x' must be y: current value is "a\\"\\n"`,
  );
});

Deno.test("optionError() puts action, name and requirement in the message as given", () => {
  fc.assert(
    fc.property(
      fc.string(),
      fc.string(),
      fc.string(),
      fc.anything({ withBigInt: true }),
      fc.boolean(),
      (action, name, requirement, value, range) => {
        const kind = range ? RangeError : TypeError;
        const error = optionError(kind, action, name, requirement, value);
        strictEqual(error.constructor, kind);
        strictEqual(
          error.message,
          `Cannot ${action} as '${name}' must be ${requirement}: current value is ` +
            describe(value),
        );
        ok(error.message.startsWith(`Cannot ${action} as '`));
        ok(error.message.endsWith(`: current value is ${describe(value)}`));
      },
    ),
    { numRuns: 500 },
  );
});

Deno.test("rescopeOptionError() remakes an option error under the caller's action and name", () => {
  const inner = optionError(RangeError, "create a retry policy", "jitter", "a number < 1", 2);
  const outer = rescopeOptionError(inner, "create an McpClient", (name) => `options.retry.${name}`);
  ok(outer instanceof RangeError);
  ok(outer !== inner);
  strictEqual(
    outer.message,
    "Cannot create an McpClient as 'options.retry.jitter' must be a number < 1: " +
      "current value is 2",
  );
  // The remade error can be remade again.
  const again = rescopeOptionError(outer, "go", (name) => name.toUpperCase());
  ok(again instanceof RangeError);
  strictEqual(
    again.message,
    "Cannot go as 'OPTIONS.RETRY.JITTER' must be a number < 1: current value is 2",
  );
});

Deno.test("rescopeOptionError() returns any other thrown value as it is", () => {
  const plain = new TypeError("Cannot go as 'x' must be y: current value is 1");
  strictEqual(rescopeOptionError(plain, "go", (name) => name), plain);
  strictEqual(rescopeOptionError("oops", "go", (name) => name), "oops");
  strictEqual(rescopeOptionError(undefined, "go", (name) => name), undefined);
});
