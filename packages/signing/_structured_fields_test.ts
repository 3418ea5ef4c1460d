// Tests of the strict RFC 8941 parser the verifiers read Signature-Input, Signature and
// Content-Digest with: the valid forms (items, inner lists, parameters, every bare item type, OWS),
// every refusal (duplicate keys and parameters, bad strings, escapes, tokens, numbers, unterminated
// lists, trailing commas, non-ASCII, over-long fields), the serializer of `@signature-params`, and
// properties: parse(serialize(x)) is x, and no input makes the parser throw anything else.
import { assertTimeGrowth } from "adcp-testkit";
import { deepStrictEqual, ok, strictEqual, throws } from "node:assert/strict";
import fc from "fast-check";
import {
  type BareItem,
  type InnerList,
  type Item,
  MAX_FIELD_LENGTH,
  type Member,
  parseDictionary,
  serializeInnerList,
  sfInteger,
  sfString,
  StructuredFieldError,
} from "./_structured_fields.ts";

const NO_PARAMS: ReadonlyMap<string, BareItem> = new Map();

function item(value: BareItem, params: [string, BareItem][] = []): Item {
  return { kind: "item", value, params: new Map(params) };
}

function innerList(items: Item[], params: [string, BareItem][] = []): InnerList {
  return { kind: "inner_list", items, params: new Map(params) };
}

/** Asserts that `text` is refused with a StructuredFieldError whose message matches `what`. */
function refuses(text: string, what?: RegExp): void {
  throws(
    () => parseDictionary(text),
    (error: unknown) => {
      ok(error instanceof StructuredFieldError, `expected StructuredFieldError, got ${error}`);
      strictEqual(error.name, "StructuredFieldError");
      if (what !== undefined) ok(what.test(error.message), error.message);
      return true;
    },
    `expected ${JSON.stringify(text.slice(0, 80))} to be refused`,
  );
}

/** The single member `key` of a parsed dictionary. */
function member(text: string, key = "a"): Member {
  const parsed = parseDictionary(text);
  const value = parsed.get(key);
  ok(value !== undefined, `no member ${key} in ${text}`);
  return value;
}

// ---------------------------------------------------------------------------------------------
// Valid forms

Deno.test("parseDictionary() reads an empty or all-space field as an empty dictionary", () => {
  strictEqual(parseDictionary("").size, 0);
  strictEqual(parseDictionary("   ").size, 0);
});

Deno.test("parseDictionary() reads every bare item type", () => {
  deepStrictEqual(member("a=42"), item({ type: "integer", value: 42 }));
  deepStrictEqual(member("a=-42"), item({ type: "integer", value: -42 }));
  deepStrictEqual(member("a=007"), item({ type: "integer", value: 7 }));
  deepStrictEqual(member("a=4.5"), item({ type: "decimal", value: 4.5 }));
  deepStrictEqual(member("a=-0.125"), item({ type: "decimal", value: -0.125 }));
  deepStrictEqual(member('a="hi there"'), item({ type: "string", value: "hi there" }));
  deepStrictEqual(member('a=""'), item({ type: "string", value: "" }));
  deepStrictEqual(member("a=tok"), item({ type: "token", value: "tok" }));
  deepStrictEqual(member("a=*tok/x:y"), item({ type: "token", value: "*tok/x:y" }));
  deepStrictEqual(member("a=:AQID:"), item({ type: "binary", raw: "AQID" }));
  deepStrictEqual(member("a=::"), item({ type: "binary", raw: "" }));
  deepStrictEqual(member("a=?1"), item({ type: "boolean", value: true }));
  deepStrictEqual(member("a=?0"), item({ type: "boolean", value: false }));
});

Deno.test("parseDictionary() keeps a Byte Sequence's text raw, in either Base64 alphabet", () => {
  // The alphabet is the profile's decision (_binary.ts), not the parser's.
  deepStrictEqual(member("a=:ab+/=:"), item({ type: "binary", raw: "ab+/=" }));
  deepStrictEqual(member("a=:ab-_:"), item({ type: "binary", raw: "ab-_" }));
});

Deno.test("parseDictionary() reads a key without a value as boolean true, with parameters", () => {
  deepStrictEqual(member("a"), item({ type: "boolean", value: true }));
  deepStrictEqual(
    member("a;p=1;q"),
    item({ type: "boolean", value: true }, [
      ["p", { type: "integer", value: 1 }],
      ["q", { type: "boolean", value: true }],
    ]),
  );
});

Deno.test("parseDictionary() reads escapes in strings", () => {
  deepStrictEqual(member('a="q\\"b\\\\s"'), item({ type: "string", value: 'q"b\\s' }));
});

Deno.test("parseDictionary() reads inner lists with item and list parameters", () => {
  const parsed = member('sig1=("@method" "content-type";sf);created=1;alg="ed25519"', "sig1");
  deepStrictEqual(
    parsed,
    innerList([
      item(sfString("@method")),
      item(sfString("content-type"), [["sf", { type: "boolean", value: true }]]),
    ], [
      ["created", sfInteger(1)],
      ["alg", sfString("ed25519")],
    ]),
  );
  deepStrictEqual(member("a=()"), innerList([]));
  deepStrictEqual(member("a=( 1  2 )"), innerList([item(sfInteger(1)), item(sfInteger(2))]));
});

Deno.test("parseDictionary() keeps member and parameter order", () => {
  const parsed = parseDictionary("z=1, a=2, m=3");
  deepStrictEqual([...parsed.keys()], ["z", "a", "m"]);
  const list = parsed.get("z");
  ok(list !== undefined);
  const params = member("a=();z=1;b=2;y=3").params;
  deepStrictEqual([...params.keys()], ["z", "b", "y"]);
});

Deno.test("parseDictionary() accepts OWS around commas, SP after ';', and trims SP ends", () => {
  const parsed = parseDictionary("  a=1 ,\tb=2\t,  c=3; p=1  ");
  deepStrictEqual([...parsed.keys()], ["a", "b", "c"]);
  deepStrictEqual(parsed.get("c"), item(sfInteger(3), [["p", sfInteger(1)]]));
  // Trailing OWS after the last member is discarded too.
  strictEqual(parseDictionary("a=1\t").size, 1);
  // Parameters follow their item directly: no space before ';' (RFC 8941 §3.1.2).
  refuses("a=1 ;p=1", /expected a comma/);
  refuses('a=("x" ;p)', /expected an item/);
});

Deno.test("parseDictionary() accepts keys of every allowed character", () => {
  deepStrictEqual([...parseDictionary("*a0_-.*=1, b=2").keys()], ["*a0_-.*", "b"]);
});

Deno.test("parseDictionary() accepts 15-digit integers and 12.3-digit decimals exactly", () => {
  deepStrictEqual(member("a=999999999999999"), item(sfInteger(999_999_999_999_999)));
  deepStrictEqual(member("a=-999999999999999"), item(sfInteger(-999_999_999_999_999)));
  deepStrictEqual(
    member("a=123456789012.123"),
    item({ type: "decimal", value: 123456789012.123 }),
  );
});

Deno.test("parseDictionary() accepts a field of exactly MAX_FIELD_LENGTH characters", () => {
  strictEqual(MAX_FIELD_LENGTH, 16_384);
  const text = `a="${"x".repeat(MAX_FIELD_LENGTH - 4)}"`;
  strictEqual(text.length, MAX_FIELD_LENGTH);
  strictEqual((member(text) as Item).value.type, "string");
});

// ---------------------------------------------------------------------------------------------
// Refusals

Deno.test("parseDictionary() refuses duplicate dictionary keys instead of keeping the last", () => {
  refuses("a=1, a=2", /duplicate dictionary key/);
  refuses("a, a", /duplicate dictionary key/);
  refuses('sig1=("@method");tag="x", sig1=();tag="y"', /duplicate dictionary key/);
});

Deno.test("parseDictionary() refuses duplicate parameters, on items and on inner lists", () => {
  refuses("a=1;p=1;p=2", /duplicate parameter/);
  refuses('sig1=();tag="a";tag="a"', /duplicate parameter/);
  refuses('a=("x";p;p)', /duplicate parameter/);
  refuses("a;p;p", /duplicate parameter/);
});

Deno.test("parseDictionary() refuses bad strings: unterminated, bad escapes, controls", () => {
  refuses('a="abc', /unterminated string/);
  refuses('a="abc\\', /invalid escape/);
  refuses('a="\\n"', /invalid escape/);
  refuses('a="\\u0041"', /invalid escape/);
  refuses('a="\\\'"', /invalid escape/);
  refuses('a="tab\there"', /invalid character in a string/);
});

Deno.test("parseDictionary() refuses bad keys and tokens", () => {
  refuses("A=1", /expected a key/);
  refuses("1a=1", /expected a key/);
  refuses("_a=1", /expected a key/);
  refuses("=1", /expected a key/);
  refuses("a=1;P=2", /expected a key/);
  refuses("a=1;", /expected a key/);
  // A token starts with ALPHA or "*" and holds tchar, ":" and "/" only.
  refuses("a=tok(en)");
  refuses("a=tok@en");
  refuses("a=tok,");
  refuses("a=#tok", /expected an item/);
});

Deno.test("parseDictionary() refuses numbers over 15 digits and malformed decimals", () => {
  refuses("a=1234567890123456", /integer too long/);
  refuses("a=-1234567890123456", /integer too long/);
  refuses("a=1234567890123.1", /decimal integer part too long/);
  refuses("a=1.1234", /decimal fraction too long/);
  refuses("a=1.", /expected a digit/);
  refuses("a=-", /expected a digit/);
  refuses("a=1.2.3");
  refuses("a=1e3");
  refuses("a=.5", /expected an item/);
  refuses("a=+1", /expected an item/);
});

Deno.test("parseDictionary() refuses unterminated inner lists and bad separators in them", () => {
  refuses("a=(", /unterminated inner list/);
  refuses('a=("x" "y"', /expected a space or \)/);
  // The trailing SP is trimmed first, so this is the same field as the one above.
  refuses('a=("x" ', /expected a space or \)/);
  refuses('a=("x","y")', /expected a space or \)/);
  refuses('a=("x"\t"y")', /expected a space or \)/);
  refuses("a=((1))", /expected an item/);
});

Deno.test("parseDictionary() refuses trailing commas, missing commas and empty members", () => {
  refuses("a=1,", /trailing comma/);
  refuses("a=1, ", /trailing comma/);
  refuses("a=1,\t", /trailing comma/);
  refuses("a=1 b=2", /expected a comma/);
  refuses("a=1,,b=2", /expected a key/);
  refuses(",a=1", /expected a key/);
  refuses("a=", /expected an item/);
});

Deno.test("parseDictionary() refuses bad Byte Sequences and Booleans", () => {
  refuses("a=:AQID", /unterminated byte sequence/);
  refuses("a=:AQ ID:", /invalid character in a byte sequence/);
  refuses("a=:AQ*D:", /invalid character in a byte sequence/);
  refuses("a=?", /invalid boolean/);
  refuses("a=?2", /invalid boolean/);
  refuses("a=?true", /invalid boolean/);
});

Deno.test("parseDictionary() refuses non-ASCII and control characters anywhere", () => {
  refuses('a="caf\u00e9"', /invalid character at index 6/);
  refuses("a=\u00e9", /invalid character/);
  refuses('a="\u{1F600}"', /invalid character/);
  refuses("a=1\n", /invalid character/);
  refuses("a=1\r\nb=2", /invalid character/);
  refuses("a=\u00001", /invalid character/);
  refuses("a=1\u007f", /invalid character/);
  refuses('a="\ud800"', /invalid character/);
});

Deno.test({
  name: "parseDictionary() refuses a decimal with no digit between '-' and '.'",
  fn() {
    refuses("a=-.5", /expected a digit/);
    refuses("a=1;p=-.5", /expected a digit/);
  },
});

Deno.test("parseDictionary() refuses a leading tab: only SP is trimmed at the ends", () => {
  refuses("\ta=1", /expected a key/);
});

Deno.test("parseDictionary() refuses a field over MAX_FIELD_LENGTH without scanning it", () => {
  refuses(`a="${"x".repeat(MAX_FIELD_LENGTH - 3)}"`, /field longer than 16384 characters/);
  // Huge input is refused by length, in the same time whatever its length.
  refuses("a=1, ".repeat(1_000_000), /field longer than/);
  assertTimeGrowth(
    (n) => "a=1, ".repeat(n),
    (field) => {
      refuses(field, /field longer than/);
    },
    1_000_000,
    { growth: "constant" },
  );
});

Deno.test("StructuredFieldError messages say where, never echo the field", () => {
  const secret = "SECRETVALUE";
  try {
    parseDictionary(`a="${secret}`);
    throw new Error("expected a refusal");
  } catch (error) {
    ok(error instanceof StructuredFieldError);
    ok(!error.message.includes(secret), error.message);
    ok(/at index \d+$/.test(error.message), error.message);
  }
});

// ---------------------------------------------------------------------------------------------
// Serialization

Deno.test("serializeInnerList() writes the @signature-params form", () => {
  const list = innerList(
    [item(sfString("@method")), item(sfString("@target-uri"))],
    [
      ["created", sfInteger(1_776_520_800)],
      ["nonce", sfString("abc")],
      ["alg", sfString("ed25519")],
    ],
  );
  strictEqual(
    serializeInnerList(list),
    '("@method" "@target-uri");created=1776520800;nonce="abc";alg="ed25519"',
  );
  strictEqual(serializeInnerList(innerList([])), "()");
});

Deno.test("serializeInnerList() writes every bare item type and escapes strings", () => {
  const list = innerList([
    item({ type: "integer", value: -5 }),
    item({ type: "decimal", value: 1.5 }),
    item({ type: "decimal", value: 2 }),
    item({ type: "decimal", value: -0.125 }),
    item({ type: "string", value: 'a"b\\c' }),
    item({ type: "token", value: "*tok" }),
    item({ type: "binary", raw: "AQID" }),
    item({ type: "boolean", value: true }),
    item({ type: "boolean", value: false }),
  ], [["t", { type: "boolean", value: true }], ["f", { type: "boolean", value: false }]]);
  const text = serializeInnerList(list);
  strictEqual(text, '(-5 1.5 2.0 -0.125 "a\\"b\\\\c" *tok :AQID: ?1 ?0);t;f=?0');
  deepStrictEqual(member(`a=${text}`), list);
});

Deno.test("serializeInnerList() round-trips what parseDictionary() read, byte for byte", () => {
  const fields = [
    'sig1=("@method" "@target-uri" "@authority" "content-type" "content-digest")' +
    ';created=1776520800;expires=1776521100;nonce="KXYnfEfJ0PBRZXQyVXfVQA"' +
    ';keyid="test-ed25519-2026";alg="ed25519";tag="adcp/request-signing/v1"',
    "sig1=();a=1;b=?0;c=tok;d=:AA==:;e=1.25",
    'sig1=("a";x=1 "b";y);z',
  ];
  for (const field of fields) {
    const list = member(field, "sig1");
    strictEqual(list.kind, "inner_list");
    strictEqual(`sig1=${serializeInnerList(list as InnerList)}`, field);
  }
});

Deno.test("sfString() and sfInteger() make bare items", () => {
  deepStrictEqual(sfString("x"), { type: "string", value: "x" });
  deepStrictEqual(sfInteger(3), { type: "integer", value: 3 });
});

// ---------------------------------------------------------------------------------------------
// Properties

const KEY_START = "abcdefghijklmnopqrstuvwxyz*";
const KEY_REST = `${KEY_START}0123456789_-.`;
const TOKEN_START = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz*";
const TOKEN_REST = `${TOKEN_START}0123456789!#$%&'+-.^_\`|~:/`;
const BINARY = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=-_";

function fromAlphabet(alphabet: string, minLength: number, maxLength: number) {
  return fc.array(fc.constantFrom(...alphabet), { minLength, maxLength }).map((cs) => cs.join(""));
}

const keyArb = fc.tuple(fromAlphabet(KEY_START, 1, 1), fromAlphabet(KEY_REST, 0, 8))
  .map(([a, b]) => a + b);

const bareItemArb: fc.Arbitrary<BareItem> = fc.oneof(
  fc.integer({ min: -999_999_999_999_999, max: 999_999_999_999_999 })
    .map((value) => ({ type: "integer" as const, value })),
  // Decimals: at most 12 integer digits and 3 fraction digits, as n / 1000.
  fc.integer({ min: -999_999_999_999_999, max: 999_999_999_999_999 })
    .map((n) => ({ type: "decimal" as const, value: n / 1000 })),
  fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)) })
    .map((value) => ({ type: "string" as const, value })),
  fc.tuple(fromAlphabet(TOKEN_START, 1, 1), fromAlphabet(TOKEN_REST, 0, 12))
    .map(([a, b]) => ({ type: "token" as const, value: a + b })),
  fromAlphabet(BINARY, 0, 24).map((raw) => ({ type: "binary" as const, raw })),
  fc.boolean().map((value) => ({ type: "boolean" as const, value })),
);

const paramsArb = fc.uniqueArray(fc.tuple(keyArb, bareItemArb), {
  maxLength: 5,
  selector: ([key]) => key,
}).map((entries) => new Map(entries));

const itemArb: fc.Arbitrary<Item> = fc.tuple(bareItemArb, paramsArb)
  .map(([value, params]) => ({ kind: "item", value, params }));

const innerListArb: fc.Arbitrary<InnerList> = fc.tuple(
  fc.array(itemArb, { maxLength: 6 }),
  paramsArb,
)
  .map(([items, params]) => ({ kind: "inner_list", items, params }));

Deno.test("property: parseDictionary(serializeInnerList(x)) is x for generated inner lists", () => {
  fc.assert(
    fc.property(innerListArb, keyArb, (list, label) => {
      const text = serializeInnerList(list);
      const parsed = parseDictionary(`${label}=${text}`);
      deepStrictEqual([...parsed.keys()], [label]);
      const back = parsed.get(label);
      deepStrictEqual(back, list);
      // Order is kept too (deepStrictEqual compares Maps without order).
      strictEqual(serializeInnerList(back as InnerList), text);
    }),
    { numRuns: 2_000 },
  );
});

Deno.test("property: parseDictionary() answers any string with a Map or its own error", () => {
  const anyText = fc.oneof(
    fc.string({ maxLength: 200 }),
    fc.string({ unit: "binary", maxLength: 200 }),
    // Near-valid input: a valid field with one character replaced or dropped.
    fc.tuple(innerListArb, fc.nat(), fc.string({ minLength: 0, maxLength: 1 })).map(
      ([list, at, replacement]) => {
        const text = `sig1=${serializeInnerList(list)}`;
        const i = at % text.length;
        return text.slice(0, i) + replacement + text.slice(i + 1);
      },
    ),
  );
  fc.assert(
    fc.property(anyText, (text) => {
      try {
        const parsed = parseDictionary(text);
        ok(parsed instanceof Map);
      } catch (error) {
        ok(error instanceof StructuredFieldError, `unexpected ${error}`);
      }
    }),
    { numRuns: 3_000 },
  );
});

Deno.test("property: parsed dictionaries have unique keys and unique parameters", () => {
  // Duplicates built on purpose from any valid member are always refused.
  fc.assert(
    fc.property(innerListArb, keyArb, (list, label) => {
      const text = `${label}=${serializeInnerList(list)}`;
      refuses(`${text}, ${text}`, /duplicate dictionary key/);
      const [first] = [...list.params.keys()];
      if (first !== undefined) refuses(`${text};${first}`, /duplicate parameter/);
    }),
    { numRuns: 500 },
  );
});

Deno.test("parseDictionary() results carry no params object shared between members", () => {
  const parsed = parseDictionary("a, b");
  const a = parsed.get("a");
  const b = parsed.get("b");
  ok(a !== undefined && b !== undefined);
  ok(a.params !== b.params);
  strictEqual(a.params.size, 0);
  deepStrictEqual(a.params, NO_PARAMS);
});
