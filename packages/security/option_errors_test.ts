// Every public function of @adcp-wire/security that validates its arguments reports a bad one in
// the one option-error style of issue #14: `Cannot <action> as '<name>' must be <requirement>:
// current value is <value>`, a TypeError for a wrong type and a RangeError for a value out of
// range.
import fc from "fast-check";
import { doesNotThrow, throws } from "node:assert/strict";
import {
  checkJsonBounds,
  decodeBase64Bounded,
  escapeHtml,
  escapeSlackMrkdwn,
  escapeTerminal,
  isReservedAddress,
  type JsonLimits,
  mergeSafe,
  sanitizeLogLine,
  sanitizeSellerString,
  scanJsonDepth,
  toSafeJson,
  validateSellerUrl,
  wrapUntrustedSellerData,
} from "./mod.ts";

const COUNT = "a non-negative safe integer";

/** The checks of a `JsonLimits` argument named `limits`; `action` says what could not be done. */
function assertLimitErrors(action: string, run: (limits: JsonLimits) => unknown): void {
  const cannot = `Cannot ${action} as `;
  throws(() => run("deep" as never), {
    name: "TypeError",
    message: `${cannot}'limits' must be an object: current value is "deep"`,
  });
  throws(() => run(null as never), {
    name: "TypeError",
    message: `${cannot}'limits' must be an object: current value is null`,
  });
  throws(() => run({ maxDepth: 3 } as never), {
    name: "TypeError",
    message: `${cannot}'limits.maxDepth' must be absent (renamed 'maxJsonDepth'): ` +
      "current value is 3",
  });
  throws(() => run({ maxNodes: 10 } as never), {
    name: "TypeError",
    message: `${cannot}'limits.maxNodes' must be absent (renamed 'maxJsonNodes'): ` +
      "current value is 10",
  });
  throws(() => run({ maxJsonDepth: "3" as never }), {
    name: "TypeError",
    message: `${cannot}'limits.maxJsonDepth' must be ${COUNT}: current value is "3"`,
  });
  throws(() => run({ maxJsonDepth: -1 }), {
    name: "RangeError",
    message: `${cannot}'limits.maxJsonDepth' must be ${COUNT}: current value is -1`,
  });
  throws(() => run({ maxJsonNodes: 1.5 }), {
    name: "RangeError",
    message: `${cannot}'limits.maxJsonNodes' must be ${COUNT}: current value is 1.5`,
  });
  // Only undefined means the default: null is refused like any other wrong type.
  throws(() => run({ maxJsonDepth: null as never }), {
    name: "TypeError",
    message: `${cannot}'limits.maxJsonDepth' must be ${COUNT}: current value is null`,
  });
  throws(() => run({ maxJsonNodes: null as never }), {
    name: "TypeError",
    message: `${cannot}'limits.maxJsonNodes' must be ${COUNT}: current value is null`,
  });
  doesNotThrow(() => run({ maxJsonDepth: undefined, maxJsonNodes: undefined } as never));
}

/** The check of a `value` string argument; `action` says what could not be done. */
function assertStringArgument(action: string, name: string, run: (value: string) => unknown) {
  const cannot = `Cannot ${action} as '${name}' must be a string: current value is `;
  throws(() => run(5 as never), { name: "TypeError", message: `${cannot}5` });
  throws(() => run(undefined as never), { name: "TypeError", message: `${cannot}undefined` });
  throws(() => run(null as never), { name: "TypeError", message: `${cannot}null` });
  throws(() => run(new String("x") as never), {
    name: "TypeError",
    message: `${cannot}an object`,
  });
  throws(() => run(["x"] as never), { name: "TypeError", message: `${cannot}an array` });
  doesNotThrow(() => run(""));
}

Deno.test("checkJsonBounds() reports bad limits in the one option-error style", () => {
  assertLimitErrors("check JSON bounds", (limits) => checkJsonBounds({}, limits));
});

Deno.test("decodeBase64Bounded() reports a bad raw or maxBytes in the one style", () => {
  const cannot = "Cannot decode base64 as ";
  throws(() => decodeBase64Bounded(new Uint8Array(3) as never, { maxBytes: 3 }), {
    name: "TypeError",
    message: `${cannot}'raw' must be a string: current value is an object`,
  });
  throws(() => decodeBase64Bounded("aGk=", undefined as never), {
    name: "TypeError",
    message: `${cannot}'options' must be an object: current value is undefined`,
  });
  throws(() => decodeBase64Bounded("aGk=", {} as never), {
    name: "TypeError",
    message: `${cannot}'options.maxBytes' must be ${COUNT}: current value is undefined`,
  });
  throws(() => decodeBase64Bounded("aGk=", { maxBytes: null as never }), {
    name: "TypeError",
    message: `${cannot}'options.maxBytes' must be ${COUNT}: current value is null`,
  });
  throws(() => decodeBase64Bounded("aGk=", { maxBytes: "2" as never }), {
    name: "TypeError",
    message: `${cannot}'options.maxBytes' must be ${COUNT}: current value is "2"`,
  });
  throws(() => decodeBase64Bounded("aGk=", { maxBytes: -1 }), {
    name: "RangeError",
    message: `${cannot}'options.maxBytes' must be ${COUNT}: current value is -1`,
  });
  throws(() => decodeBase64Bounded("aGk=", { maxBytes: Infinity }), {
    name: "RangeError",
    message: `${cannot}'options.maxBytes' must be ${COUNT}: current value is Infinity`,
  });
});

Deno.test("escapeHtml() reports a value that is not a string in the one option-error style", () => {
  assertStringArgument("escape HTML", "value", escapeHtml);
});

Deno.test("escapeSlackMrkdwn() reports a value that is not a string in the one style", () => {
  assertStringArgument("escape Slack mrkdwn", "value", escapeSlackMrkdwn);
});

Deno.test("escapeTerminal() reports a value that is not a string in the one style", () => {
  assertStringArgument("escape for a terminal", "value", escapeTerminal);
});

Deno.test("isReservedAddress() reports a hostname that is not a string in the one style", () => {
  assertStringArgument("check the address", "hostname", isReservedAddress);
});

Deno.test("mergeSafe() reports a bad target, source or limits in the one style", () => {
  const cannot = "Cannot merge seller data as ";
  throws(() => mergeSafe([] as never, {}), {
    name: "TypeError",
    message: `${cannot}'target' must be a non-array object: current value is an array`,
  });
  throws(() => mergeSafe(null as never, {}), {
    name: "TypeError",
    message: `${cannot}'target' must be a non-array object: current value is null`,
  });
  throws(() => mergeSafe({}, '{"a":1}'), {
    name: "TypeError",
    message: `${cannot}'source' must be a plain object: current value is "{\\"a\\":1}"`,
  });
  throws(() => mergeSafe({}, new Date(0)), {
    name: "TypeError",
    message: `${cannot}'source' must be a plain object: current value is an object`,
  });
  assertLimitErrors("merge seller data", (limits) => mergeSafe({}, {}, limits));
  // Data that JSON cannot hold is named by its RFC 6901 pointer under 'source'.
  throws(() => mergeSafe({}, { a: { "b/c": NaN } }), {
    name: "TypeError",
    message: `${cannot}'source/a/b~1c' must be a finite number: current value is NaN`,
  });
  throws(() => mergeSafe({}, { a: [1, () => 1] }), {
    name: "TypeError",
    message: `${cannot}'source/a/1' must be JSON data: current value is a function`,
  });
  throws(() => mergeSafe({}, { a: new Map() }), {
    name: "TypeError",
    message: `${cannot}'source/a' must be an array or a plain object: current value is an object`,
  });
  // deno-lint-ignore no-sparse-arrays
  throws(() => mergeSafe({}, { a: [1, , 2] }), {
    name: "TypeError",
    message: `${cannot}'source/a/1' must be JSON data, not an array hole: ` +
      "current value is undefined",
  });
});

Deno.test("sanitizeLogLine() reports a bad value or maxBytes in the one option-error style", () => {
  const cannot = "Cannot sanitize a log line as ";
  assertStringArgument("sanitize a log line", "value", sanitizeLogLine);
  throws(() => sanitizeLogLine("x", null as never), {
    name: "TypeError",
    message: `${cannot}'options' must be an object: current value is null`,
  });
  throws(() => sanitizeLogLine("x", { maxBytes: "64" as never }), {
    name: "TypeError",
    message: `${cannot}'options.maxBytes' must be ${COUNT}: current value is "64"`,
  });
  throws(() => sanitizeLogLine("x", { maxBytes: 2 ** 53 }), {
    name: "RangeError",
    message: `${cannot}'options.maxBytes' must be ${COUNT}: current value is 9007199254740992`,
  });
  // Only undefined means the default: null is refused like any other wrong type.
  throws(() => sanitizeLogLine("x", { maxBytes: null as never }), {
    name: "TypeError",
    message: `${cannot}'options.maxBytes' must be ${COUNT}: current value is null`,
  });
  doesNotThrow(() => sanitizeLogLine("x", { maxBytes: undefined } as never));
});

Deno.test("sanitizeSellerString() reports a bad value or maxBytes in the one style", () => {
  const cannot = "Cannot sanitize a seller string as ";
  assertStringArgument(
    "sanitize a seller string",
    "value",
    (value) => sanitizeSellerString(value, { maxBytes: 8 }),
  );
  throws(() => sanitizeSellerString("x", 256 as never), {
    name: "TypeError",
    message: `${cannot}'options' must be an object: current value is 256`,
  });
  throws(() => sanitizeSellerString("x", {} as never), {
    name: "TypeError",
    message: `${cannot}'options.maxBytes' must be ${COUNT}: current value is undefined`,
  });
  throws(() => sanitizeSellerString("x", { maxBytes: -0.5 }), {
    name: "RangeError",
    message: `${cannot}'options.maxBytes' must be ${COUNT}: current value is -0.5`,
  });
});

Deno.test("scanJsonDepth() reports a bad text or maxJsonDepth in the one style", () => {
  const cannot = "Cannot scan JSON depth as ";
  assertStringArgument("scan JSON depth", "text", scanJsonDepth);
  throws(() => scanJsonDepth("[]", "3" as never), {
    name: "TypeError",
    message: `${cannot}'maxJsonDepth' must be ${COUNT}: current value is "3"`,
  });
  throws(() => scanJsonDepth("[]", -1), {
    name: "RangeError",
    message: `${cannot}'maxJsonDepth' must be ${COUNT}: current value is -1`,
  });
  throws(() => scanJsonDepth("[]", NaN), {
    name: "RangeError",
    message: `${cannot}'maxJsonDepth' must be ${COUNT}: current value is NaN`,
  });
});

Deno.test("toSafeJson() reports bad limits and data JSON cannot hold in the one style", () => {
  const cannot = "Cannot copy JSON as ";
  assertLimitErrors("copy JSON", (limits) => toSafeJson({}, limits));
  throws(() => toSafeJson(NaN), {
    name: "TypeError",
    message: `${cannot}'value' must be a finite number: current value is NaN`,
  });
  throws(() => toSafeJson(undefined), {
    name: "TypeError",
    message: `${cannot}'value' must be JSON data: current value is undefined`,
  });
  throws(() => toSafeJson(Symbol("s")), {
    name: "TypeError",
    message: `${cannot}'value' must be JSON data: current value is a symbol`,
  });
  throws(() => toSafeJson({ x: 1n }), {
    name: "TypeError",
    message: `${cannot}'value/x' must be JSON data: current value is 1n`,
  });
  throws(() => toSafeJson({ "~k": new Set() }), {
    name: "TypeError",
    message: `${cannot}'value/~0k' must be an array or a plain object: current value is an object`,
  });
  throws(() => toSafeJson([[-Infinity]]), {
    name: "TypeError",
    message: `${cannot}'value/0/0' must be a finite number: current value is -Infinity`,
  });
});

Deno.test("validateSellerUrl() reports every bad option in the one option-error style", () => {
  const cannot = "Cannot validate a seller URL as ";
  const url = "https://seller.example/setup";
  const base = { purpose: "setup_url", allowedHosts: ["seller.example"] } as const;
  throws(() => validateSellerUrl(url, null as never), {
    name: "TypeError",
    message: `${cannot}'options' must be an object: current value is null`,
  });
  throws(() => validateSellerUrl(url, { ...base, purpose: "login_url" as never }), {
    name: "TypeError",
    message: `${cannot}'options.purpose' must be one of setup_url, policy_url, file_url, ` +
      'challenge_url: current value is "login_url"',
  });
  throws(() => validateSellerUrl(url, { ...base, allowedHosts: [] }), {
    name: "TypeError",
    message: `${cannot}'options.allowedHosts' must be a non-empty array of hosts: ` +
      "current value is an array",
  });
  throws(() => validateSellerUrl(url, { ...base, allowedHosts: "seller.example" as never }), {
    name: "TypeError",
    message: `${cannot}'options.allowedHosts' must be a non-empty array of hosts: ` +
      'current value is "seller.example"',
  });
  throws(() => validateSellerUrl(url, { ...base, allowedHosts: [443 as never] }), {
    name: "TypeError",
    message: `${cannot}'options.allowedHosts[0]' must be a string: current value is 443`,
  });
  throws(() => validateSellerUrl(url, { ...base, allowedHosts: ["ok.example", "https://x"] }), {
    name: "TypeError",
    message: `${cannot}'options.allowedHosts[1]' must be a host, host:port or *.domain pattern ` +
      "(empty, or contains a scheme, path, userinfo, wildcard or whitespace): " +
      'current value is "https://x"',
  });
  throws(() => validateSellerUrl(url, { ...base, allowedHosts: ["seller.example."] }), {
    name: "TypeError",
    message: `${cannot}'options.allowedHosts[0]' must be a host, host:port or *.domain pattern ` +
      '(trailing dot): current value is "seller.example."',
  });
  throws(() => validateSellerUrl(url, { ...base, maxLength: "2048" as never }), {
    name: "TypeError",
    message: `${cannot}'options.maxLength' must be ${COUNT}: current value is "2048"`,
  });
  throws(() => validateSellerUrl(url, { ...base, maxLength: -1 }), {
    name: "RangeError",
    message: `${cannot}'options.maxLength' must be ${COUNT}: current value is -1`,
  });
  throws(() => validateSellerUrl(url, { ...base, allowedPorts: [] }), {
    name: "TypeError",
    message: `${cannot}'options.allowedPorts' must be a non-empty array of ports: ` +
      "current value is an array",
  });
  throws(() => validateSellerUrl(url, { ...base, allowedPorts: ["443" as never] }), {
    name: "TypeError",
    message: `${cannot}'options.allowedPorts[0]' must be an integer from 1 to 65535: ` +
      'current value is "443"',
  });
  throws(() => validateSellerUrl(url, { ...base, allowedPorts: [443, 65536] }), {
    name: "RangeError",
    message: `${cannot}'options.allowedPorts[1]' must be an integer from 1 to 65535: ` +
      "current value is 65536",
  });
  throws(() => validateSellerUrl(url, { ...base, allowedPorts: [0] }), {
    name: "RangeError",
    message: `${cannot}'options.allowedPorts[0]' must be an integer from 1 to 65535: ` +
      "current value is 0",
  });
});

Deno.test("wrapUntrustedSellerData() reports bad fields, tag or nonce in the one style", () => {
  const cannot = "Cannot wrap seller data as ";
  throws(() => wrapUntrustedSellerData([] as never), {
    name: "TypeError",
    message: `${cannot}'fields' must be a non-array object: current value is an array`,
  });
  throws(() => wrapUntrustedSellerData("text" as never), {
    name: "TypeError",
    message: `${cannot}'fields' must be a non-array object: current value is "text"`,
  });
  throws(() => wrapUntrustedSellerData({}, null as never), {
    name: "TypeError",
    message: `${cannot}'options' must be an object: current value is null`,
  });
  throws(() => wrapUntrustedSellerData({}, { tag: "1bad" }), {
    name: "TypeError",
    message: `${cannot}'options.tag' must be a string matching ` +
      '/^[A-Za-z][A-Za-z0-9_-]{0,63}$/: current value is "1bad"',
  });
  throws(() => wrapUntrustedSellerData({}, { tag: 7 as never }), {
    name: "TypeError",
    message: `${cannot}'options.tag' must be a string matching ` +
      "/^[A-Za-z][A-Za-z0-9_-]{0,63}$/: current value is 7",
  });
  throws(() => wrapUntrustedSellerData({}, { nonce: 1234 as never }), {
    name: "TypeError",
    message: `${cannot}'options.nonce' must be a string matching /^[A-Za-z0-9_-]{16,128}$/: ` +
      "current value is 1234",
  });
  // A nonce is a secret: a bad string nonce is described by its length, not shown (the message
  // is built by hand in the style, without describe()).
  throws(() => wrapUntrustedSellerData({}, { nonce: "short" }), {
    name: "TypeError",
    message: `${cannot}'options.nonce' must be a string matching /^[A-Za-z0-9_-]{16,128}$/: ` +
      "current value is a 5-character string (not shown)",
  });
});

Deno.test("the string checks show any non-string value as describe() renders it", () => {
  const nonString = fc.oneof(
    fc.integer(),
    fc.boolean(),
    fc.constantFrom(null, undefined, NaN, -0),
    fc.bigInt(),
  );
  const shown = (value: unknown) =>
    typeof value === "bigint" ? `${value}n` : Object.is(value, -0) ? "-0" : String(value);
  fc.assert(
    fc.property(nonString, (value) => {
      throws(() => escapeHtml(value as never), {
        name: "TypeError",
        message: `Cannot escape HTML as 'value' must be a string: current value is ${shown(value)}`,
      });
      throws(() => sanitizeSellerString(value as never, { maxBytes: 1 }), {
        name: "TypeError",
        message: "Cannot sanitize a seller string as 'value' must be a string: " +
          `current value is ${shown(value)}`,
      });
    }),
    { numRuns: 200 },
  );
});
