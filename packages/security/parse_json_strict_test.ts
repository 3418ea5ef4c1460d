import { AdcpWireError } from "@adcp-wire/internal";
import fc from "fast-check";
import { deepStrictEqual, doesNotThrow, ok, strictEqual, throws } from "node:assert/strict";
import { hostileString, inStripSet } from "./_test_util.ts";
import { STRIP_SET } from "./_strip_set.ts";
import {
  AdcpSecurityError,
  DuplicateKeyError,
  JsonDepthLimitError,
  JsonNodeLimitError,
} from "./errors.ts";
import type { JsonLimits } from "./json_limits.ts";
import {
  findDuplicateKeys,
  parseJsonStrict,
  sanitizeDuplicateKeyNames,
} from "./parse_json_strict.ts";

// ---------------------------------------------------------------------------------------------
// Upstream vectors, copied as data from static/test-vectors/webhook-hmac-sha256.json of the AdCP
// repository: `vectors[]` entry `duplicate-keys-conflicting-values` (expected_verifier_action
// "reject-malformed") and `signer_side` (rejection_vectors: "reject-input-before-sign",
// positive_vectors: "sign-and-emit"). `duplicates` is what this package adds: the decoded names
// findDuplicateKeys must report.

/** One upstream body and what a strict parser must do with it. */
interface StrictJsonVector {
  /** The upstream vector id. */
  readonly id: string;
  /** `raw_body` or `signer_input_body`, verbatim. */
  readonly body: string;
  /** The upstream expected action. */
  readonly action: "reject-malformed" | "reject-input-before-sign" | "sign-and-emit";
  /** The duplicate names (raw), empty for a clean body. */
  readonly duplicates: readonly string[];
}

const UPSTREAM_VECTORS: readonly StrictJsonVector[] = [
  {
    id: "duplicate-keys-conflicting-values",
    body: '{"event":"creative.status_changed","creative_id":"creative_123","status":"approved",' +
      '"status":"rejected"}',
    action: "reject-malformed",
    duplicates: ["status"],
  },
  {
    id: "signer-upstream-duplicate-key-rejection",
    body: '{"event":"creative.status_changed","creative_id":"creative_123","status":"approved",' +
      '"status":"rejected"}',
    action: "reject-input-before-sign",
    duplicates: ["status"],
  },
  {
    id: "signer-upstream-duplicate-key-deep-nested",
    body: '{"event":"creative.status_changed","result":{"media_buy_id":"mb_001",' +
      '"media_buy_id":"mb_evil"}}',
    action: "reject-input-before-sign",
    duplicates: ["media_buy_id"],
  },
  {
    id: "signer-upstream-duplicate-key-array-contained",
    body: '{"event":"media_buy.package_update","packages":[{"package_id":"pkg_1",' +
      '"package_id":"pkg_evil"}]}',
    action: "reject-input-before-sign",
    duplicates: ["package_id"],
  },
  {
    id: "signer-upstream-duplicate-key-three-deep",
    body: '{"level_1":{"level_2":{"level_3_key":"original","level_3_key":"tampered"}}}',
    action: "reject-input-before-sign",
    duplicates: ["level_3_key"],
  },
  {
    id: "signer-upstream-clean-input",
    body: '{"event":"creative.status_changed","creative_id":"creative_123","status":"approved",' +
      '"result":{"media_buy_id":"mb_001","packages":[{"package_id":"pkg_1"},' +
      '{"package_id":"pkg_2"}]}}',
    action: "sign-and-emit",
    duplicates: [],
  },
];

/** Runs the vectors against a strict parser, asserting the outcome of each explicitly. */
function runVectors(
  parse: (text: string) => unknown,
  find: (text: string) => { names: readonly string[]; count: number } | undefined,
): void {
  for (const vector of UPSTREAM_VECTORS) {
    const message = `vector ${vector.id}`;
    if (vector.action === "sign-and-emit") {
      deepStrictEqual(parse(vector.body), JSON.parse(vector.body), message);
      strictEqual(find(vector.body), undefined, message);
      continue;
    }
    deepStrictEqual(
      find(vector.body),
      { names: vector.duplicates, count: vector.duplicates.length },
      message,
    );
    let thrown: unknown = undefined;
    try {
      parse(vector.body);
    } catch (error) {
      thrown = error;
    }
    ok(thrown instanceof DuplicateKeyError, message);
    strictEqual(thrown.code, "duplicate_key_input", message);
    deepStrictEqual(thrown.keys, vector.duplicates, message);
    strictEqual(thrown.count, vector.duplicates.length, message);
  }
}

Deno.test("parseJsonStrict() passes the upstream webhook-hmac-sha256 duplicate-key vectors", () => {
  runVectors(parseJsonStrict, findDuplicateKeys);
});

Deno.test("the local vectors cover every shape upstream names, and a clean body", () => {
  deepStrictEqual(UPSTREAM_VECTORS.map((vector) => vector.id), [
    "duplicate-keys-conflicting-values",
    "signer-upstream-duplicate-key-rejection",
    "signer-upstream-duplicate-key-deep-nested",
    "signer-upstream-duplicate-key-array-contained",
    "signer-upstream-duplicate-key-three-deep",
    "signer-upstream-clean-input",
  ]);
  // A harness that rejected everything would fail the clean vector.
  throws(() => runVectors(() => ({}), () => ({ names: ["x"], count: 1 })));
});

// ---------------------------------------------------------------------------------------------
// Which keys are duplicates.

/** The duplicate names of `text`, or `[]`. */
function duplicatesOf(text: string, limits?: JsonLimits): readonly string[] {
  return findDuplicateKeys(text, limits)?.names ?? [];
}

Deno.test("findDuplicateKeys() compares keys after decoding escapes", () => {
  deepStrictEqual(duplicatesOf('{"a":1,"\\u0061":2}'), ["a"]);
  deepStrictEqual(duplicatesOf('{"\\u0061":1,"a":2}'), ["a"]);
  deepStrictEqual(duplicatesOf('{"A":1,"\\u0041":2,"\\u0061":3}'), ["A"]);
  deepStrictEqual(duplicatesOf('{"a/b":1,"a\\/b":2}'), ["a/b"]);
  deepStrictEqual(duplicatesOf('{"\\n":1,"\\u000a":2,"\\u000A":3}'), ["\n", "\n"]);
  deepStrictEqual(duplicatesOf('{"\\"":1,"\\u0022":2}'), ['"']);
  deepStrictEqual(duplicatesOf('{"\\\\":1,"\\u005c":2}'), ["\\"]);
  deepStrictEqual(duplicatesOf('{"st\\u0061tus":1,"status":2}'), ["status"]);
  // Different keys that look alike are not duplicates.
  deepStrictEqual(duplicatesOf('{"a":1,"A":2,"a ":3,"\\u00e1":4,"a\\u0301":5}'), []);
});

Deno.test("findDuplicateKeys() treats __proto__ as an ordinary key, as JSON.parse does", () => {
  deepStrictEqual(duplicatesOf('{"__proto__":1,"__proto__":2}'), ["__proto__"]);
  deepStrictEqual(duplicatesOf('{"__proto__":{},"\\u005f_proto__":[]}'), ["__proto__"]);
  deepStrictEqual(duplicatesOf('{"constructor":1,"constructor":2,"toString":1}'), [
    "constructor",
  ]);
  // No duplicate: JSON.parse's own-property result is kept.
  const value = parseJsonStrict('{"__proto__":{"polluted":true},"a":1}') as Record<string, unknown>;
  deepStrictEqual(value, JSON.parse('{"__proto__":{"polluted":true},"a":1}'));
  ok(Object.hasOwn(value, "__proto__"));
  strictEqual(Object.getPrototypeOf(value), Object.prototype);
  strictEqual(({} as Record<string, unknown>).polluted, undefined);
});

Deno.test("findDuplicateKeys() ignores whitespace around keys, colons and commas", () => {
  deepStrictEqual(duplicatesOf(' {\n\t"a" :1 ,\r\n "a"\t:\n2 } '), ["a"]);
  deepStrictEqual(duplicatesOf('{ "a" : { "b" : 1 , "b" : 2 } }\n'), ["b"]);
  // Whitespace inside a key is part of it.
  deepStrictEqual(duplicatesOf('{"a":1," a":2,"a ":3}'), []);
});

Deno.test("findDuplicateKeys() compares unicode keys and surrogate pairs by code units", () => {
  deepStrictEqual(duplicatesOf('{"日本":1,"\\u65e5\\u672c":2}'), ["日本"]);
  deepStrictEqual(duplicatesOf('{"😀":1,"\\ud83d\\ude00":2}'), ["😀"]);
  deepStrictEqual(duplicatesOf('{"\\uD83D\\uDE00":1,"\\ud83d\\ude00":2}'), ["😀"]);
  deepStrictEqual(duplicatesOf('{"\\ud83d":1,"\\ud83d":2,"\\ude00":3}'), ["\ud83d"]);
  // A lone surrogate is not half of a pair.
  deepStrictEqual(duplicatesOf('{"\\ud83d":1,"😀":2,"\\ude00":3}'), []);
  // Raw lone surrogates are valid in JSON.parse's grammar, and compare too.
  deepStrictEqual(duplicatesOf('{"\ud800":1,"\\ud800":2}'), ["\ud800"]);
  deepStrictEqual(duplicatesOf('{"\u2028":1,"\\u2028":2}'), ["\u2028"]);
});

Deno.test("findDuplicateKeys() finds the empty key twice", () => {
  deepStrictEqual(duplicatesOf('{"":1,"":2}'), [""]);
  deepStrictEqual(duplicatesOf('{"":1,"a":{"":2}}'), []);
  throws(() => parseJsonStrict('{"":0,"":0}'), { name: "DuplicateKeyError", keys: [""] });
});

Deno.test("findDuplicateKeys() scopes keys to their object: a key may recur in another", () => {
  deepStrictEqual(duplicatesOf('{"a":{"a":{"a":1}},"b":{"a":2}}'), []);
  deepStrictEqual(duplicatesOf('[{"a":1},{"a":2},{"a":3}]'), []);
  deepStrictEqual(duplicatesOf('{"a":[{"a":1,"b":2},{"a":1,"b":2}],"b":{"a":[]}}'), []);
  // A key reused after a nested object closes is still a duplicate of the outer object.
  deepStrictEqual(duplicatesOf('{"a":{"b":1,"c":2},"b":1,"c":{"a":3},"a":4}'), ["a"]);
  // Keys as string values do not count.
  deepStrictEqual(duplicatesOf('{"a":"a","b":["a","a"],"c":{"d":"a"}}'), []);
});

Deno.test("findDuplicateKeys() descends into arrays of objects at any depth", () => {
  deepStrictEqual(duplicatesOf('[[[{"x":[{"k":1,"k":2}]}]]]'), ["k"]);
  deepStrictEqual(duplicatesOf('[{"a":1},{"b":1,"b":2},{"c":1}]'), ["b"]);
  deepStrictEqual(duplicatesOf('{"p":[{"id":1,"id":2},{"id":3,"id":4}]}'), ["id", "id"]);
});

Deno.test("findDuplicateKeys() lists every repeat, in text order, with the count", () => {
  deepStrictEqual(findDuplicateKeys('{"a":1,"b":2,"a":3,"a":4,"b":5}'), {
    names: ["a", "a", "b"],
    count: 3,
  });
  deepStrictEqual(findDuplicateKeys('{"x":{"b":1,"b":2},"a":1,"a":2}'), {
    names: ["b", "a"],
    count: 2,
  });
  strictEqual(findDuplicateKeys("{}"), undefined);
  strictEqual(findDuplicateKeys('"a"'), undefined);
});

Deno.test("findDuplicateKeys() switches from pairwise checks to a set past 8 members", () => {
  const keys = Array.from({ length: 12 }, (_, index) => `k${index}`);
  for (let repeat = 0; repeat < keys.length; repeat++) {
    for (let at = 0; at <= keys.length; at++) {
      const members = keys.map((key) => `"${key}":0`);
      members.splice(at, 0, `"k${repeat}":1`);
      deepStrictEqual(duplicatesOf(`{${members.join(",")}}`), [`k${repeat}`], `${repeat} ${at}`);
    }
  }
  // A nested object between members does not disturb the outer object's keys.
  const nested = `{${keys.map((key) => `"${key}":{"${key}":0,"inner":[{"k0":1}]}`).join(",")}}`;
  deepStrictEqual(duplicatesOf(nested), []);
});

Deno.test("findDuplicateKeys() compares keys longer than 4,096 units exactly", () => {
  const long = "x".repeat(10_000);
  const text = (...keys: string[]) => `{${keys.map((key, i) => `"${key}":${i}`).join(",")}}`;
  deepStrictEqual(duplicatesOf(text(`${long}1`, `${long}2`, `${long}1`)), [`${long}1`]);
  deepStrictEqual(duplicatesOf(text(`${long}1`, `${long}2`, `${long}3`)), []);
  // Chunk boundaries: keys that differ in length only, or in the first unit of a chunk.
  const chunk = "y".repeat(4096);
  deepStrictEqual(duplicatesOf(text(chunk + chunk, chunk + chunk + "y", chunk + "z" + chunk)), []);
  deepStrictEqual(duplicatesOf(text(chunk + "a", chunk + "b", chunk + "a")), [chunk + "a"]);
  // Escaped and raw spellings of one long key, after 8 short keys (so in the set).
  const shorts = Array.from({ length: 9 }, (_, index) => `s${index}`);
  const escaped = "\\u0078".repeat(10_000) + "1";
  deepStrictEqual(duplicatesOf(text(`${long}1`, ...shorts, escaped)), [`${long}1`]);
  deepStrictEqual(duplicatesOf(text(escaped, ...shorts, `${long}1`)), [`${long}1`]);
  // A long key never collides with a short key or with a chunk of itself.
  deepStrictEqual(
    duplicatesOf(text(...shorts, long, "x", long.slice(0, 4096), "\\u0000\\u0000")),
    [],
  );
  // The same long keys in separate objects are not duplicates.
  deepStrictEqual(duplicatesOf(`[${text(...shorts, long)},${text(...shorts, long)}]`), []);
});

// ---------------------------------------------------------------------------------------------
// parseJsonStrict(): the value, the errors.

Deno.test("parseJsonStrict() returns exactly what JSON.parse returns", () => {
  for (
    const text of [
      "0",
      "-0",
      "1e400",
      '"\\ud800"',
      "[]",
      "{}",
      ' \t\n\r{"a":[1,2.5e-3,true,false,null,"s",{"b":{}}]}\n',
      '{"__proto__":1}',
      '"\u2028\u2029"',
    ]
  ) {
    deepStrictEqual(parseJsonStrict(text), JSON.parse(text), text);
  }
  ok(Object.is(parseJsonStrict("-0"), -0));
});

Deno.test("parseJsonStrict() throws DuplicateKeyError with sanitized names only", () => {
  const evil = "k\u001b]0;pwned\u0007";
  const body = JSON.stringify({ a: 1 }).slice(0, -1) +
    `,${JSON.stringify(evil)}:1,${JSON.stringify(evil)}:2,"a":3}`;
  let error: unknown;
  try {
    parseJsonStrict(body);
  } catch (caught) {
    error = caught;
  }
  ok(error instanceof DuplicateKeyError);
  ok(error instanceof AdcpSecurityError);
  ok(error instanceof AdcpWireError);
  strictEqual(error.name, "DuplicateKeyError");
  strictEqual(error.code, "duplicate_key_input");
  deepStrictEqual(error.keys, ["<sanitized:1>", "a"]);
  strictEqual(error.count, 2);
  deepStrictEqual(error.cause, { keys: ["<sanitized:1>", "a"], count: 2 });
  strictEqual(
    error.message,
    'Cannot accept JSON: object keys must be unique (2 duplicates: "<sanitized:1>", "a")',
  );
  ok(!error.message.includes("pwned"));
});

Deno.test("DuplicateKeyError caps the names at 4 and counts every duplicate", () => {
  const body = `{${Array.from({ length: 10 }, (_, index) => `"n${index % 3}":0`).join(",")}}`;
  throws(() => parseJsonStrict(body), (error) => {
    ok(error instanceof DuplicateKeyError);
    deepStrictEqual(error.keys, ["n0", "n1", "n2", "n0", "<...3 more>"]);
    strictEqual(error.count, 7);
    strictEqual(
      error.message,
      'Cannot accept JSON: object keys must be unique (7 duplicates: "n0", "n1", "n2", "n0", ' +
        "<...3 more>)",
    );
    ok(Object.isFrozen(error.keys));
    return true;
  });
  const single = new DuplicateKeyError(["x".repeat(100)]);
  strictEqual(
    single.message,
    `Cannot accept JSON: object keys must be unique (1 duplicate: ` +
      `"${"x".repeat(32)}")`,
  );
});

Deno.test("parseJsonStrict() throws a SyntaxError on invalid JSON, naming no raw input", () => {
  const cases: [string, string][] = [
    ["", "expected a JSON value at index 0, found the end of the text"],
    [" ", "expected a JSON value at index 1, found the end of the text"],
    ["{", "expected a string key at index 1, found the end of the text"],
    ['{"a"}', "expected ':' at index 4, found '}'"],
    ['{"a":1,}', "expected a string key at index 7, found '}'"],
    ["{'a':1}", "expected a string key at index 1, found U+0027"],
    ["{a:1}", "expected a string key at index 1, found 'a'"],
    ["[1,]", "expected a JSON value at index 3, found ']'"],
    ["[1 2]", "expected ',' or ']' at index 3, found '2'"],
    ['{"a":1 "b":2}', "expected ',' or '}' at index 7, found '\"'"],
    ["01", "expected the end of the text at index 1, found '1'"],
    ["-", "expected a digit at index 1, found the end of the text"],
    ["1.", "expected a digit at index 2, found the end of the text"],
    [".5", "expected a JSON value at index 0, found '.'"],
    ["+1", "expected a JSON value at index 0, found '+'"],
    ["1e", "expected a digit at index 2, found the end of the text"],
    ["tru", "expected a JSON value at index 0, found 't'"],
    ["NaN", "expected a JSON value at index 0, found 'N'"],
    ['"abc', `expected '"' closing the string at index 4, found the end of the text`],
    [
      '"a\nb"',
      "expected a string character (U+0000-U+001F must be escaped) at index 2, " +
      "found U+000A",
    ],
    ['"\\x"', "expected an escape character at index 2, found 'x'"],
    ['"\\u12G4"', "expected a hex digit at index 5, found 'G'"],
    ["\ufeff{}", "expected a JSON value at index 0, found U+FEFF"],
    ["{}\u00a0", "expected the end of the text at index 2, found U+00A0"],
    ["[1]\u001b[2J", "expected the end of the text at index 3, found U+001B"],
  ];
  for (const [text, message] of cases) {
    throws(() => JSON.parse(text), SyntaxError, text);
    throws(() => parseJsonStrict(text), {
      name: "SyntaxError",
      message: `Cannot parse JSON: ${message}`,
    });
    throws(() => findDuplicateKeys(text), { name: "SyntaxError" });
  }
});

Deno.test("parseJsonStrict() puts syntax errors first: DuplicateKeyError means valid JSON", () => {
  throws(() => parseJsonStrict('{"a":1,"a":2'), SyntaxError);
  throws(() => parseJsonStrict('{"a":1,"a":2}x'), SyntaxError);
  throws(() => findDuplicateKeys('[{"a":1,"a":2},]'), SyntaxError);
  throws(() => parseJsonStrict('[{"a":1,"a":2},{}]'), DuplicateKeyError);
});

Deno.test("parseJsonStrict() applies the depth limit before building, without recursion", () => {
  throws(() => parseJsonStrict("[".repeat(1_000_000)), (error) => {
    ok(error instanceof JsonDepthLimitError);
    strictEqual(error.limit, 64);
    strictEqual(error.observed, 65);
    return true;
  });
  throws(() => findDuplicateKeys('{"a":'.repeat(10), { maxJsonDepth: 3 }), {
    name: "JsonDepthLimitError",
    message: "Cannot accept JSON: nesting exceeded 3 levels (observed 4)",
  });
  // Exactly at the limit is fine; empty containers count as a level.
  deepStrictEqual(parseJsonStrict("[[[]]]", { maxJsonDepth: 3 }), [[[]]]);
  throws(() => parseJsonStrict("[[[{}]]]", { maxJsonDepth: 3 }), JsonDepthLimitError);
  deepStrictEqual(parseJsonStrict("1", { maxJsonDepth: 0 }), 1);
  // The depth limit fires at the first bracket past it, before a later syntax error.
  throws(() => parseJsonStrict("[[[[ oops", { maxJsonDepth: 2 }), JsonDepthLimitError);
  // A million levels within a raised limit: the scan has no recursion to overflow.
  const deep = '{"a":'.repeat(1_000_000) + '{"k":1,"k":2}' + "}".repeat(1_000_000);
  deepStrictEqual(findDuplicateKeys(deep, { maxJsonDepth: 1_000_001 }), { names: ["k"], count: 1 });
  const arrays = "[".repeat(1_000_000) + "]".repeat(1_000_000);
  strictEqual(findDuplicateKeys(arrays, { maxJsonDepth: 1_000_000 }), undefined);
});

Deno.test("parseJsonStrict() applies the node limit while scanning", () => {
  throws(() => parseJsonStrict("[1,2,3]", { maxJsonNodes: 3 }), (error) => {
    ok(error instanceof JsonNodeLimitError);
    strictEqual(error.limit, 3);
    strictEqual(error.observed, 4);
    return true;
  });
  deepStrictEqual(parseJsonStrict('{"a":[1]}', { maxJsonNodes: 3 }), { a: [1] });
});

Deno.test("parseJsonStrict() and findDuplicateKeys() report bad arguments in the one style", () => {
  for (
    const [action, run] of [
      ["parse JSON strictly", parseJsonStrict],
      ["find duplicate JSON keys", findDuplicateKeys],
    ] as const
  ) {
    throws(() => run(Uint8Array.of(0x7b, 0x7d) as never), {
      name: "TypeError",
      message: `Cannot ${action} as 'text' must be a string: current value is an object`,
    });
    throws(() => run("{}", null as never), {
      name: "TypeError",
      message: `Cannot ${action} as 'limits' must be an object: current value is null`,
    });
    throws(() => run("{}", { maxDepth: 512 } as never), {
      name: "TypeError",
      message: `Cannot ${action} as 'limits.maxDepth' must be absent (renamed 'maxJsonDepth'): ` +
        "current value is 512",
    });
    throws(() => run("{}", { maxJsonDepth: -1 }), {
      name: "RangeError",
      message: `Cannot ${action} as 'limits.maxJsonDepth' must be a non-negative safe integer: ` +
        "current value is -1",
    });
    doesNotThrow(() => run("{}", { maxJsonDepth: undefined } as never));
  }
});

// ---------------------------------------------------------------------------------------------
// Hostile sizes: cost as a ratio to JSON.parse of the same text, measured here. Each time is the
// best of a few runs, so that a GC pause or a busy machine does not decide the outcome.

/** The best of `runs` timings of `run`, in milliseconds. */
function bestTime(run: () => unknown, runs = 5): number {
  let best = Infinity;
  for (let round = 0; round < runs; round++) {
    const start = performance.now();
    run();
    best = Math.min(best, performance.now() - start);
  }
  return best;
}

/**
 * The cost of findDuplicateKeys() and of parseJsonStrict() on `text`, as ratios to JSON.parse.
 * Measured on Deno 2.9.6 (V8 15.0): at most 2.7 for the scan and 4.3 for the strict parse on every
 * text below; the bound leaves room for noisy machines while still catching a super-linear scan.
 */
function assertRatio(name: string, text: string, limits: JsonLimits = {}): void {
  const run = (parse: () => unknown) => () => {
    try {
      parse();
    } catch (error) {
      if (!(error instanceof DuplicateKeyError)) throw error;
    }
  };
  const baseline = bestTime(() => JSON.parse(text));
  const scan = bestTime(run(() => findDuplicateKeys(text, limits)));
  const strict = bestTime(run(() => parseJsonStrict(text, limits)));
  const ratios = { scan: scan / baseline, strict: strict / baseline };
  if (Deno.env.get("PARSE_JSON_STRICT_RATIOS")) console.log(name, ratios);
  ok(ratios.scan <= 12 && ratios.strict <= 14, `${name}: ${JSON.stringify(ratios)}`);
}

const HOSTILE = 100_000;
const range = (length: number) => Array.from({ length }, (_, index) => index);

Deno.test("parseJsonStrict() costs a small multiple of JSON.parse on hostile input", () => {
  assertRatio(
    "100,000 distinct keys in one object",
    `{${range(HOSTILE).map((i) => `"k${i}":${i}`)}}`,
  );
  assertRatio("100,000 copies of one key", `{${range(HOSTILE).map((i) => `"a":${i}`)}}`);
  assertRatio("100,000 distinct objects", `[${range(HOSTILE).map((i) => `{"a":${i},"b":"x"}`)}]`);
  assertRatio(
    "20 keys of 50,000 escapes",
    `{${range(20).map((i) => `"${"\\u0061".repeat(50_000)}${i}":${i}`)}}`,
  );
  assertRatio(
    "escape-dense strings",
    JSON.stringify({ ['\n"'.repeat(HOSTILE)]: "\t\\".repeat(2 * HOSTILE), b: "\u2028" }),
  );
  assertRatio("a 10,000,000-unit string", JSON.stringify("x".repeat(10_000_000)));
  assertRatio("100,000 numbers", `[${range(HOSTILE).map((i) => i * 1.5e-3)}]`);
  assertRatio(
    "2,000 keys of 5,000 units sharing a prefix",
    `{${range(2000).map((i) => `"${"k".repeat(4992)}${String(i).padStart(8, "0")}":${i}`)}}`,
  );
  assertRatio("100,000 nested arrays", "[".repeat(HOSTILE) + "]".repeat(HOSTILE), {
    maxJsonDepth: HOSTILE,
  });
  assertRatio("100,000 nested objects", '{"a":'.repeat(HOSTILE) + "1" + "}".repeat(HOSTILE), {
    maxJsonDepth: HOSTILE,
  });
  assertRatio(
    "indented records",
    JSON.stringify(
      range(20_000).map((i) => ({ description: `a fairly long description ${i}`, tags: ["a b"] })),
      null,
      2,
    ),
  );
});

Deno.test("findDuplicateKeys() stays linear on long keys that V8 hashes by length alone", () => {
  // Keys of 16,384+ units that differ only at the end: a plain Set of them (and JSON.parse, which
  // builds such an object) is quadratic. JSON.parse is no linear yardstick here, so the scan is
  // compared with JSON.parse on the smaller text, and with itself on a text four times larger.
  const text = (count: number) =>
    `{${range(count).map((i) => `"${"k".repeat(17_000 - 8)}${String(i).padStart(8, "0")}":0`)}}`;
  const small = text(300);
  const large = text(1200);
  assertRatio("300 keys of 17,000 units", small);
  const growth = bestTime(() => findDuplicateKeys(large)) /
    bestTime(() => findDuplicateKeys(small));
  if (Deno.env.get("PARSE_JSON_STRICT_RATIOS")) console.log("4x the long keys", { growth });
  // Linear: about 4; quadratic: about 16.
  ok(growth <= 9, `4x the keys cost ${growth.toFixed(1)}x`);
  strictEqual(findDuplicateKeys(large), undefined);
  deepStrictEqual(findDuplicateKeys(`{"${"k".repeat(17_000)}":0,"${"k".repeat(17_000)}":1}`), {
    names: ["k".repeat(17_000)],
    count: 1,
  });
});

// ---------------------------------------------------------------------------------------------
// Properties.

Deno.test("parseJsonStrict() of any serialized JSON value equals JSON.parse", () => {
  fc.assert(
    fc.property(
      fc.jsonValue(),
      fc.constantFrom(undefined, 0, 2, "\t"),
      (value, indent) => {
        const text = JSON.stringify(value, null, indent);
        deepStrictEqual(parseJsonStrict(text, { maxJsonDepth: 1000 }), JSON.parse(text));
        strictEqual(findDuplicateKeys(text, { maxJsonDepth: 1000 }), undefined);
      },
    ),
  );
});

/** A JSON string literal of `key`, its code unit `i` spelled `\uXXXX` when `escapes[i % n]`. */
function spellKey(key: string, escapes: readonly boolean[]): string {
  let out = '"';
  for (let index = 0; index < key.length; index++) {
    const unit = key.charCodeAt(index);
    if (escapes[index % Math.max(escapes.length, 1)]) {
      out += `\\u${unit.toString(16).padStart(4, "0")}`;
    } else {
      // One unit through JSON.stringify: escapes controls, quotes, backslashes, lone surrogates.
      out += JSON.stringify(String.fromCharCode(unit)).slice(1, -1);
    }
  }
  return out + '"';
}

/** A plan for one inserted duplicate: which object, which key, where, how spelled, what value. */
interface Insertion {
  readonly target: number;
  readonly key: number;
  readonly at: number;
  readonly escapes: readonly boolean[];
  readonly value: unknown;
}

/**
 * Serializes `value`, inserting into its `target`-th non-empty object (in pre-order, modulo their
 * number) a member that repeats one of its keys. Returns the text and the key repeated.
 */
function withDuplicate(value: unknown, plan: Insertion): { text: string; key: string } {
  let objects = 0;
  const count = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(count);
    else if (node !== null && typeof node === "object") {
      if (Object.keys(node).length > 0) objects++;
      Object.values(node).forEach(count);
    }
  };
  count(value);
  const target = plan.target % objects;
  let seen = -1;
  let repeated = "";
  const write = (node: unknown): string => {
    if (Array.isArray(node)) return `[${node.map(write).join(",")}]`;
    if (node === null || typeof node !== "object") return JSON.stringify(node);
    const keys = Object.keys(node);
    const mine = keys.length > 0 ? ++seen : -1; // before the children take their numbers
    const members = keys.map((key) =>
      `${JSON.stringify(key)}:${write((node as Record<string, unknown>)[key])}`
    );
    if (mine === target) {
      repeated = keys[plan.key % keys.length]!;
      const member = `${spellKey(repeated, plan.escapes)}:${JSON.stringify(plan.value)}`;
      members.splice(plan.at % (members.length + 1), 0, member);
    }
    return `{${members.join(",")}}`;
  };
  const text = write(value);
  return { text, key: repeated };
}

Deno.test("findDuplicateKeys() detects a duplicate inserted anywhere, in any spelling", () => {
  const objectKey = fc.oneof(fc.string(), fc.string({ unit: "binary" }), fc.constant("__proto__"));
  fc.assert(
    fc.property(
      // The root is an object, so there is at least one key to repeat.
      fc.tuple(objectKey, fc.jsonValue({ maxDepth: 4 })).map(([key, value]) =>
        Object.defineProperty({}, key, { value, enumerable: true }) as unknown
      ).chain((root) =>
        fc.record({
          root: fc.constant(root),
          target: fc.nat(),
          key: fc.nat(),
          at: fc.nat(),
          escapes: fc.array(fc.boolean(), { maxLength: 8 }),
          value: fc.jsonValue({ maxDepth: 2 }),
        })
      ),
      ({ root, ...plan }) => {
        const { text, key } = withDuplicate(root, plan);
        deepStrictEqual(findDuplicateKeys(text), { names: [key], count: 1 });
        throws(() => parseJsonStrict(text), DuplicateKeyError);
      },
    ),
  );
});

/** Text near JSON: JSON's own characters, escapes, spaces, controls and odd units. */
const nearJson = fc.oneof(
  fc.string({
    unit: fc.constantFrom(
      ...'{}[],:"\\ \t\n\r0123456789-+.eEtrufalsnbx/\u0000\u001f\u007f\u00a0\u2028\ufeff\ud800',
    ),
    maxLength: 24,
  }),
  // Valid JSON with one unit deleted, replaced or inserted.
  fc.tuple(
    fc.jsonValue({ maxDepth: 3 }),
    fc.nat(),
    fc.nat(),
    fc.constantFrom(
      "",
      '"',
      "\\",
      ",",
      "}",
      "]",
      "\n",
      "\u0000",
      "u",
      "0",
    ),
  ).map(([value, at, length, insert]) => {
    const text = JSON.stringify(value) ?? "null";
    const cut = at % (text.length + 1);
    return text.slice(0, cut) + insert + text.slice(cut + (length % 2));
  }),
  // Objects built from a few short keys, so duplicates are common.
  fc.array(fc.tuple(fc.constantFrom("a", "b", "\\u0061", "\\"), fc.constantFrom("1", "{}", '"x"')))
    .map((members) => `{${members.map(([key, value]) => `"${key}":${value}`).join(",")}}`),
  fc.string(),
);

Deno.test("parseJsonStrict() throws exactly when JSON.parse throws, but for duplicates", () => {
  fc.assert(
    fc.property(nearJson, (text) => {
      let expected: unknown;
      let valid = true;
      try {
        expected = JSON.parse(text);
      } catch (error) {
        ok(error instanceof SyntaxError);
        valid = false;
      }
      let actual: unknown;
      try {
        actual = parseJsonStrict(text, { maxJsonDepth: 1000 });
      } catch (error) {
        if (error instanceof DuplicateKeyError) {
          ok(valid, `duplicates reported for invalid JSON: ${JSON.stringify(text)}`);
          ok(findDuplicateKeys(text, { maxJsonDepth: 1000 }) !== undefined);
          return;
        }
        ok(error instanceof SyntaxError, String(error));
        ok(!valid, `rejected valid JSON: ${JSON.stringify(text)}`);
        return;
      }
      ok(valid, `accepted invalid JSON: ${JSON.stringify(text)}`);
      deepStrictEqual(actual, expected);
    }),
    { numRuns: 5000 },
  );
});

// ---------------------------------------------------------------------------------------------
// sanitizeDuplicateKeyNames(): security.mdx step 14b (a), (b), (c).

/** The non-printable set 14b(a) lists, as inclusive ranges (an independent restatement). */
const MINIMUM_14B_A: readonly (readonly [number, number])[] = [
  [0x0000, 0x001f], // C0 controls
  [0x007f, 0x007f], // DEL
  [0x0080, 0x009f], // C1 controls
  [0x200e, 0x200f], // bidi marks
  [0x202a, 0x202e], // bidi embeddings and overrides
  [0x2066, 0x2069], // bidi isolates
  [0x2028, 0x2029], // line and paragraph separators
  [0x200b, 0x200d], // zero-width characters
  [0xfeff, 0xfeff], // byte-order mark
];

const in14bA = (codePoint: number): boolean =>
  MINIMUM_14B_A.some(([first, last]) => codePoint >= first && codePoint <= last);
const sanitizeOne = (name: string): string => sanitizeDuplicateKeyNames([name])[0]!;
const utf8 = (text: string): number => new TextEncoder().encode(text).length;

Deno.test("sanitizeDuplicateKeyNames() (a) replaces a name at its first non-printable", () => {
  for (const [first, last] of MINIMUM_14B_A) {
    for (let codePoint = first; codePoint <= last; codePoint++) {
      const hex = codePoint.toString(16);
      strictEqual(sanitizeOne(`ab${String.fromCodePoint(codePoint)}cd`), "<sanitized:2>", hex);
      strictEqual(sanitizeOne(String.fromCodePoint(codePoint)), "<sanitized:0>", hex);
    }
  }
  // N is the UTF-8 byte length of the prefix; what follows the first non-printable is not seen.
  strictEqual(sanitizeOne("é日😀\u202eevil\n"), "<sanitized:9>");
  strictEqual(sanitizeOne("\u001b[31mred\u001b[0m"), "<sanitized:0>");
  // The prefix is not cut to 32 bytes first: N counts all of it (see docs/security.md).
  strictEqual(sanitizeOne(`${"a".repeat(40)}\n`), "<sanitized:40>");
  strictEqual(sanitizeOne(`${"日".repeat(20)}\u2028`), "<sanitized:60>");
  // Lone surrogates become U+FFFD (3 bytes), before (a) and (b).
  strictEqual(sanitizeOne("ab\ud800cd"), "ab\ufffdcd");
  strictEqual(sanitizeOne("\udc00\n"), "<sanitized:3>");
  strictEqual(sanitizeOne(`${"a".repeat(30)}\ud800`), "a".repeat(30));
  // Printable names pass: spaces, accents, CJK, emoji, ASCII punctuation.
  for (const name of ["status", "café", "日本", "😀 ok", "a b", "<sanitized:3>", '"\\']) {
    strictEqual(sanitizeOne(name), name);
  }
});

Deno.test("sanitizeDuplicateKeyNames() (a) uses the 14b(a) list exactly, no wider", () => {
  for (let codePoint = 0; codePoint <= 0xffff; codePoint++) {
    if (codePoint >= 0xd800 && codePoint <= 0xdfff) continue;
    const expected = in14bA(codePoint) ? "<sanitized:1>" : `a${String.fromCharCode(codePoint)}`;
    strictEqual(
      sanitizeOne(`a${String.fromCharCode(codePoint)}`),
      expected,
      codePoint.toString(16),
    );
    if (in14bA(codePoint)) ok(inStripSet(codePoint), codePoint.toString(16));
  }
  // The strip set's rows that cite 14b(a) are exactly the list.
  const cited = STRIP_SET.filter((row) => row.source.includes("14b(a)"));
  const listed = [...MINIMUM_14B_A].sort(([a], [b]) => a - b);
  strictEqual(
    cited.reduce((sum, row) => sum + row.last - row.first + 1, 0),
    listed.reduce((sum, [first, last]) => sum + last - first + 1, 0),
  );
  for (const row of cited) ok(in14bA(row.first) && in14bA(row.last), row.name);
  // The strip set's extensions, which 14b(a) allows but does not list, pass through.
  for (const name of ["a\u00adb", "\u061c", "\u180e", "\u2060", "\u206a", "\ufff9", "\u{e0041}"]) {
    strictEqual(sanitizeOne(name), name);
  }
});

Deno.test("sanitizeDuplicateKeyNames() (b) cuts to 32 bytes at a code point boundary", () => {
  strictEqual(sanitizeOne("a".repeat(32)), "a".repeat(32));
  strictEqual(sanitizeOne("a".repeat(100)), "a".repeat(32));
  // A 4-byte code point on bytes 30-33 straddles byte 32: it goes whole.
  strictEqual(sanitizeOne(`${"a".repeat(29)}😀b`), "a".repeat(29));
  strictEqual(sanitizeOne(`${"a".repeat(30)}😀`), "a".repeat(30));
  strictEqual(sanitizeOne(`${"a".repeat(31)}😀`), "a".repeat(31));
  // Ending exactly on byte 32, it stays.
  strictEqual(sanitizeOne(`${"a".repeat(28)}😀b`), `${"a".repeat(28)}😀`);
  strictEqual(sanitizeOne("😀".repeat(10)), "😀".repeat(8));
  strictEqual(sanitizeOne("日".repeat(11)), "日".repeat(10));
  strictEqual(sanitizeOne(`${"a".repeat(31)}é`), "a".repeat(31));
  strictEqual(sanitizeOne(`${"a".repeat(28)}日日`), `${"a".repeat(28)}日`);
});

Deno.test("sanitizeDuplicateKeyNames() (c) keeps 4 names, then says how many more", () => {
  deepStrictEqual(sanitizeDuplicateKeyNames([]), []);
  deepStrictEqual(sanitizeDuplicateKeyNames(["a", "b", "c", "d"]), ["a", "b", "c", "d"]);
  deepStrictEqual(sanitizeDuplicateKeyNames(["a", "b", "c", "d", "e"]), [
    "a",
    "b",
    "c",
    "d",
    "<...1 more>",
  ]);
  const many = range(100).map((index) => `k${index % 2}`);
  deepStrictEqual(sanitizeDuplicateKeyNames(many), ["k0", "k1", "k0", "k1", "<...96 more>"]);
  // (a) and (b) apply to the kept names.
  deepStrictEqual(
    sanitizeDuplicateKeyNames(["x\ny", "z".repeat(33), "ok", "\u200b", "never\u0000seen"]),
    ["<sanitized:1>", "z".repeat(32), "ok", "<sanitized:0>", "<...1 more>"],
  );
});

Deno.test("sanitizeDuplicateKeyNames() output is printable, valid UTF-8, at most 32 bytes", () => {
  const decoder = new TextDecoder("utf-8", { fatal: true });
  fc.assert(
    fc.property(fc.array(hostileString(80), { maxLength: 7 }), (names) => {
      const shown = sanitizeDuplicateKeyNames(names);
      strictEqual(shown.length, Math.min(names.length, 5));
      shown.slice(0, 4).forEach((name, index) => {
        ok(name.isWellFormed());
        strictEqual(decoder.decode(new TextEncoder().encode(name)), name);
        for (const char of name) ok(!in14bA(char.codePointAt(0)!), JSON.stringify(name));
        const raw = names[index]!.toWellFormed();
        if (/^<sanitized:\d+>$/.test(name) && name !== raw) {
          let prefix = 0;
          for (const char of raw) {
            if (in14bA(char.codePointAt(0)!)) break;
            prefix += char.length;
          }
          strictEqual(name, `<sanitized:${utf8(raw.slice(0, prefix))}>`);
        } else {
          ok(utf8(name) <= 32);
          ok(raw.startsWith(name));
          // The longest prefix: one more code point would not fit.
          const next = raw.codePointAt(name.length);
          if (next !== undefined) ok(utf8(name) + utf8(String.fromCodePoint(next)) > 32);
        }
      });
      if (names.length > 4) strictEqual(shown[4], `<...${names.length - 4} more>`);
    }),
  );
});

Deno.test("sanitizeDuplicateKeyNames() reports bad arguments in the one style", () => {
  throws(() => sanitizeDuplicateKeyNames("status" as never), {
    name: "TypeError",
    message: `Cannot sanitize duplicate key names as 'names' must be an array: current value is ` +
      `"status"`,
  });
  throws(() => sanitizeDuplicateKeyNames(["a", 1] as never), {
    name: "TypeError",
    message: "Cannot sanitize duplicate key names as 'names[1]' must be a string: current value " +
      "is 1",
  });
});
