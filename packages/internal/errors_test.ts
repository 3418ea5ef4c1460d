import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { AdcpWireError } from "./errors.ts";

/** A package base under the root, as each package declares one. */
abstract class ExamplePackageError extends AdcpWireError {}

/** A flat subclass with a literal code and name, as the style guide asks. */
class ExampleLimitError extends ExamplePackageError {
  readonly code: "EXAMPLE_LIMIT" = "EXAMPLE_LIMIT";
  override readonly name: "ExampleLimitError" = "ExampleLimitError";
  readonly limit: number;

  constructor(limit: number, observed: number) {
    super(`Cannot read example: exceeded ${limit} (observed ${observed})`, {
      cause: { limit, observed },
    });
    this.limit = limit;
  }
}

/** A direct subclass of the root that passes its options through. */
class ExampleError extends AdcpWireError {
  readonly code = "EXAMPLE";
  override readonly name = "ExampleError";
}

Deno.test("AdcpWireError subclasses are instances of the root, their base and Error", () => {
  const error = new ExampleLimitError(4, 5);
  ok(error instanceof ExampleLimitError);
  ok(error instanceof ExamplePackageError);
  ok(error instanceof AdcpWireError);
  ok(error instanceof Error);
  ok(!(new ExampleError("x") instanceof ExamplePackageError));
  ok(new ExampleError("x") instanceof AdcpWireError);
  strictEqual(Object.prototype.toString.call(error), "[object Error]");
  ok(!(new Error("plain") instanceof AdcpWireError));
  ok(!(new TypeError("plain") instanceof AdcpWireError));
});

Deno.test("AdcpWireError subclasses carry their literal code and name as own properties", () => {
  const error = new ExampleLimitError(4, 5);
  strictEqual(error.code, "EXAMPLE_LIMIT");
  strictEqual(error.name, "ExampleLimitError");
  ok(Object.hasOwn(error, "code"));
  ok(Object.hasOwn(error, "name"));
  strictEqual(error.message, "Cannot read example: exceeded 4 (observed 5)");
  strictEqual(String(error), "ExampleLimitError: Cannot read example: exceeded 4 (observed 5)");
  strictEqual(error.limit, 4);
  const other = new ExampleError("Cannot go: it is broken");
  strictEqual(other.code, "EXAMPLE");
  strictEqual(other.name, "ExampleError");
  strictEqual(String(other), "ExampleError: Cannot go: it is broken");
});

Deno.test("AdcpWireError sets cause from its options, as Error does", () => {
  deepStrictEqual(new ExampleLimitError(1, 2).cause, { limit: 1, observed: 2 });
  const underlying = new TypeError("underlying");
  strictEqual(new ExampleError("x", { cause: underlying }).cause, underlying);
  // No options, or options without cause: no own cause at all.
  strictEqual(Object.hasOwn(new ExampleError("x"), "cause"), false);
  strictEqual(Object.hasOwn(new ExampleError("x", {}), "cause"), false);
  // An explicit undefined cause is installed, as `new Error(message, { cause: undefined })` does.
  const explicit = new ExampleError("x", { cause: undefined });
  strictEqual(Object.hasOwn(explicit, "cause"), true);
  strictEqual(explicit.cause, undefined);
  // Like Error's, the cause is own and not enumerable.
  strictEqual(Object.getOwnPropertyDescriptor(explicit, "cause")?.enumerable, false);
});

Deno.test("AdcpWireError keeps the message as given and has a stack", () => {
  const error = new ExampleError("Cannot go: expected a, saw b");
  strictEqual(error.message, "Cannot go: expected a, saw b");
  strictEqual(typeof error.stack, "string");
  strictEqual(new ExampleError("").message, "");
});

Deno.test("one instanceof AdcpWireError check tells caught errors apart by code", () => {
  const caught: unknown[] = [new ExampleLimitError(1, 2), new ExampleError("x"), new Error("y")];
  const codes = caught.map((error) => error instanceof AdcpWireError ? error.code : "OTHER");
  deepStrictEqual(codes, ["EXAMPLE_LIMIT", "EXAMPLE", "OTHER"]);
});
