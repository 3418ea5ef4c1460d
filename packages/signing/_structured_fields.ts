// RFC 8941 Structured Field Values, the parts RFC 9421 and RFC 9530 use (Dictionaries of Items and
// Inner Lists, with Parameters), parsed strictly: where RFC 8941 lets a parser keep the last of
// two duplicate dictionary keys or parameters, this one refuses the field (AdCP verifier checklist
// step 1: "silently retaining the last value would let a proxy smuggle a weaker set of covered
// components past a verifier that read the first"). Byte Sequences are kept as their raw text:
// which Base64 alphabet is allowed depends on the signing profile (`_binary.ts`).

/** A structured field that does not parse; the message says where, never echoing the field. */
export class StructuredFieldError extends Error {
  override readonly name: "StructuredFieldError" = "StructuredFieldError";
}

/** A Bare Item (RFC 8941 §3.3). */
export type BareItem =
  | { readonly type: "integer"; readonly value: number }
  | { readonly type: "decimal"; readonly value: number }
  | { readonly type: "string"; readonly value: string }
  | { readonly type: "token"; readonly value: string }
  | { readonly type: "binary"; readonly raw: string }
  | { readonly type: "boolean"; readonly value: boolean };

/** Parameters, in order, keys unique. */
export type Parameters = ReadonlyMap<string, BareItem>;

/** An Item with its Parameters. */
export interface Item {
  readonly kind: "item";
  readonly value: BareItem;
  readonly params: Parameters;
}

/** An Inner List with its Parameters. */
export interface InnerList {
  readonly kind: "inner_list";
  readonly items: readonly Item[];
  readonly params: Parameters;
}

/** A Dictionary member value. */
export type Member = Item | InnerList;

/** Longest field value parsed, in characters: far above any AdCP signature header. */
export const MAX_FIELD_LENGTH = 16_384;

const KEY_START = /[a-z*]/;
const KEY_CHAR = /[a-z0-9_\-.*]/;
const TOKEN_START = /[A-Za-z*]/;
// tchar (RFC 9110) plus ":" and "/".
const TOKEN_CHAR = /[!#$%&'*+\-.^_`|~0-9A-Za-z:/]/;
// Every character a Byte Sequence may hold in either alphabet; which ones a profile allows is
// decided later.
const BINARY_CHAR = /[A-Za-z0-9+/=_-]/;

class Parser {
  private i = 0;
  constructor(private readonly s: string) {}

  fail(what: string): never {
    throw new StructuredFieldError(`${what} at index ${this.i}`);
  }

  get done(): boolean {
    return this.i >= this.s.length;
  }

  peek(): string {
    return this.s[this.i] ?? "";
  }

  skipSp(): void {
    while (this.s[this.i] === " ") this.i++;
  }

  skipOws(): void {
    while (this.s[this.i] === " " || this.s[this.i] === "\t") this.i++;
  }

  key(): string {
    const start = this.i;
    if (!KEY_START.test(this.peek())) this.fail("expected a key");
    this.i++;
    while (!this.done && KEY_CHAR.test(this.peek())) this.i++;
    return this.s.slice(start, this.i);
  }

  dictionary(): Map<string, Member> {
    const out = new Map<string, Member>();
    while (!this.done) {
      const key = this.key();
      let member: Member;
      if (this.peek() === "=") {
        this.i++;
        member = this.itemOrInnerList();
      } else {
        member = { kind: "item", value: { type: "boolean", value: true }, params: this.params() };
      }
      if (out.has(key)) this.fail("duplicate dictionary key");
      out.set(key, member);
      this.skipOws();
      if (this.done) return out;
      if (this.peek() !== ",") this.fail("expected a comma");
      this.i++;
      this.skipOws();
      if (this.done) this.fail("trailing comma");
    }
    return out;
  }

  itemOrInnerList(): Member {
    return this.peek() === "(" ? this.innerList() : this.item();
  }

  innerList(): InnerList {
    this.i++; // "("
    const items: Item[] = [];
    for (;;) {
      this.skipSp();
      if (this.peek() === ")") {
        this.i++;
        return { kind: "inner_list", items, params: this.params() };
      }
      if (this.done) this.fail("unterminated inner list");
      items.push(this.item());
      const next = this.peek();
      if (next !== " " && next !== ")") this.fail("expected a space or ) in an inner list");
    }
  }

  item(): Item {
    const value = this.bareItem();
    return { kind: "item", value, params: this.params() };
  }

  params(): Map<string, BareItem> {
    const out = new Map<string, BareItem>();
    while (this.peek() === ";") {
      this.i++;
      this.skipSp();
      const key = this.key();
      let value: BareItem = { type: "boolean", value: true };
      if (this.peek() === "=") {
        this.i++;
        value = this.bareItem();
      }
      if (out.has(key)) this.fail("duplicate parameter");
      out.set(key, value);
    }
    return out;
  }

  bareItem(): BareItem {
    const c = this.peek();
    if (c === "-" || (c >= "0" && c <= "9")) return this.number();
    if (c === '"') return this.string();
    if (c === ":") return this.binary();
    if (c === "?") return this.boolean();
    if (TOKEN_START.test(c)) return this.token();
    return this.fail("expected an item");
  }

  number(): BareItem {
    const start = this.i;
    if (this.peek() === "-") {
      this.i++;
      const c = this.peek();
      if (!(c >= "0" && c <= "9")) this.fail("expected a digit after -");
    }
    let digits = 0;
    let dot = -1;
    while (!this.done) {
      const c = this.peek();
      if (c >= "0" && c <= "9") {
        digits++;
        this.i++;
      } else if (c === "." && dot < 0) {
        if (digits > 12) this.fail("decimal integer part too long");
        dot = digits;
        this.i++;
      } else break;
      if (dot < 0 && digits > 15) this.fail("integer too long");
      if (dot >= 0 && digits > 15) this.fail("decimal too long");
    }
    if (digits === 0 || (dot >= 0 && digits === dot)) this.fail("expected a digit");
    const text = this.s.slice(start, this.i);
    if (dot < 0) return { type: "integer", value: Number(text) };
    if (digits - dot > 3) this.fail("decimal fraction too long");
    return { type: "decimal", value: Number(text) };
  }

  string(): BareItem {
    this.i++; // opening quote
    let out = "";
    for (;;) {
      if (this.done) this.fail("unterminated string");
      const c = this.s[this.i++] as string;
      if (c === "\\") {
        const next = this.s[this.i++];
        if (next !== '"' && next !== "\\") this.fail("invalid escape in a string");
        out += next;
      } else if (c === '"') {
        return { type: "string", value: out };
      } else if (c < " " || c > "~") {
        this.i--;
        this.fail("invalid character in a string");
      } else out += c;
    }
  }

  token(): BareItem {
    const start = this.i;
    this.i++;
    while (!this.done && TOKEN_CHAR.test(this.peek())) this.i++;
    return { type: "token", value: this.s.slice(start, this.i) };
  }

  binary(): BareItem {
    this.i++; // opening colon
    const start = this.i;
    while (!this.done && this.peek() !== ":") {
      if (!BINARY_CHAR.test(this.peek())) this.fail("invalid character in a byte sequence");
      this.i++;
    }
    if (this.done) this.fail("unterminated byte sequence");
    const raw = this.s.slice(start, this.i);
    this.i++; // closing colon
    return { type: "binary", raw };
  }

  boolean(): BareItem {
    this.i++;
    const c = this.s[this.i++];
    if (c !== "0" && c !== "1") this.fail("invalid boolean");
    return { type: "boolean", value: c === "1" };
  }
}

/** Refuses what no structured field holds: too long, or a character outside visible ASCII. */
function checkField(text: string): string {
  if (text.length > MAX_FIELD_LENGTH) {
    throw new StructuredFieldError(`field longer than ${MAX_FIELD_LENGTH} characters`);
  }
  const bad = /[^\t\x20-\x7e]/.exec(text);
  if (bad !== null) throw new StructuredFieldError(`invalid character at index ${bad.index}`);
  // Leading and trailing SP are discarded (RFC 8941 §4.2).
  return text.replace(/^ +| +$/g, "");
}

/**
 * Parses a Dictionary field (RFC 8941 §4.2.2) strictly: duplicate keys and duplicate parameters
 * are refused. An empty field is an empty dictionary.
 *
 * @throws {StructuredFieldError} When the field is not a Dictionary.
 */
export function parseDictionary(text: string): Map<string, Member> {
  const parser = new Parser(checkField(text));
  return parser.dictionary();
}

function serializeBare(item: BareItem): string {
  switch (item.type) {
    case "integer":
      return String(item.value);
    case "decimal": {
      const fixed = item.value.toFixed(3).replace(/0+$/, "");
      return fixed.endsWith(".") ? `${fixed}0` : fixed;
    }
    case "string":
      return `"${item.value.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
    case "token":
      return item.value;
    case "binary":
      return `:${item.raw}:`;
    case "boolean":
      return item.value ? "?1" : "?0";
  }
}

function serializeParams(params: Parameters): string {
  let out = "";
  for (const [key, value] of params) {
    out += `;${key}`;
    if (!(value.type === "boolean" && value.value)) out += `=${serializeBare(value)}`;
  }
  return out;
}

/** Serializes an Inner List (RFC 8941 §4.1.1.1): the `@signature-params` component value. */
export function serializeInnerList(list: InnerList): string {
  const items = list.items.map((item) => serializeBare(item.value) + serializeParams(item.params));
  return `(${items.join(" ")})${serializeParams(list.params)}`;
}

/** A String bare item. */
export function sfString(value: string): BareItem {
  return { type: "string", value };
}

/** An Integer bare item. */
export function sfInteger(value: number): BareItem {
  return { type: "integer", value };
}
