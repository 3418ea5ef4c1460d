import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import fc from "fast-check";
import { SseParser } from "./_sse_parser.ts";

interface Parsed {
  events: { data: string; type: string | undefined; id: string | undefined; lastEventId: string }[];
  retries: number[];
  lastEventId: string;
}

/**
 * WHATWG HTML, Server-sent events, "Parsing an event stream" and "Interpreting an event stream",
 * step by step on the whole text: one BOM stripped (the UTF-8 decode step), lines split at CRLF, LF
 * or CR, the text after the last terminator dropped. Also records each event's own `id` field (the
 * last valid one since the previous empty line), which the spec does not name.
 */
function reference(text: string): Parsed {
  const stream = text.startsWith("\uFEFF") ? text.slice(1) : text;
  const lines = stream.split(/\r\n|\r|\n/);
  lines.pop(); // the unfinished line (empty when the text ends with a terminator)
  const parsed: Parsed = { events: [], retries: [], lastEventId: "" };
  let data = "";
  let type = "";
  let idBuffer = "";
  let ownId: string | undefined;
  for (const line of lines) {
    if (line === "") {
      parsed.lastEventId = idBuffer;
      if (data !== "") {
        parsed.events.push({
          data: data.endsWith("\n") ? data.slice(0, -1) : data,
          type: type === "" ? undefined : type,
          id: ownId,
          lastEventId: parsed.lastEventId,
        });
      }
      data = "";
      type = "";
      ownId = undefined;
      continue;
    }
    if (line.startsWith(":")) continue;
    const colon = line.indexOf(":");
    const name = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (name === "event") type = value;
    else if (name === "data") data += value + "\n";
    else if (name === "id") {
      if (!value.includes("\0")) idBuffer = ownId = value;
    } else if (name === "retry") {
      if (/^[0-9]+$/.test(value)) parsed.retries.push(parseInt(value, 10));
    }
  }
  return parsed;
}

function parse(pieces: readonly string[], stripBom = true): Parsed {
  const parsed: Parsed = { events: [], retries: [], lastEventId: "" };
  const parser: SseParser = new SseParser({
    onEvent(data, type, id) {
      parsed.events.push({ data, type, id, lastEventId: parser.lastEventId });
    },
    onRetry(ms) {
      parsed.retries.push(ms);
    },
    stripBom,
  });
  for (const piece of pieces) parser.feed(piece);
  parsed.lastEventId = parser.lastEventId;
  return parsed;
}

/** Cuts `text` at the given UTF-16 offsets (in any order, out-of-range ones clamped). */
function cut(text: string, offsets: readonly number[]): string[] {
  const points = [...new Set(offsets.map((offset) => Math.min(offset, text.length)))].sort((a, b) =>
    a - b
  );
  const pieces: string[] = [];
  let start = 0;
  for (const point of points) {
    pieces.push(text.slice(start, point));
    start = point;
  }
  pieces.push(text.slice(start));
  return pieces;
}

// Random streams: lines of known, near-miss and unknown field names, values with colons, spaces,
// NULs, digits, BOMs and astral characters, comments and blank lines, any mix of terminators, BOMs
// at the start, and an optional unfinished tail.
const fieldName = fc.oneof(
  fc.constantFrom("data", "id", "event", "retry"),
  fc.constantFrom(
    "",
    "x",
    "dat",
    "datax",
    "Data",
    "i",
    "ids",
    "even",
    "retr",
    "retryx",
    "\uFEFFdata",
  ),
  fc.string({ unit: fc.constantFrom("a", "d", "i", "t", "e", "r", " ", "\0"), maxLength: 6 }),
);
const value = fc.string({
  unit: fc.constantFrom("a", "1", "0", "9", " ", ":", "\0", "é", "\uFEFF", "😀", "x"),
  maxLength: 8,
});
const line = fc.oneof(
  { weight: 5, arbitrary: fc.tuple(fieldName, value).map(([name, text]) => `${name}:${text}`) },
  { weight: 3, arbitrary: fc.tuple(fieldName, value).map(([name, text]) => `${name}: ${text}`) },
  { weight: 1, arbitrary: fieldName },
  { weight: 1, arbitrary: value.map((text) => `:${text}`) },
  { weight: 3, arbitrary: fc.constant("") },
);
const terminator = fc.constantFrom("\n", "\r", "\r\n");
const sseText = fc.tuple(
  fc.constantFrom("", "", "\uFEFF", "\uFEFF\uFEFF", "\u00EF\u00BB\u00BF"),
  fc.array(fc.tuple(line, terminator), { maxLength: 30 }),
  fc.oneof(fc.constant(""), line),
).map(([bom, lines, tail]) => bom + lines.map(([text, end]) => text + end).join("") + tail);

Deno.test("SseParser matches the WHATWG algorithm on any stream, however it is cut", () => {
  fc.assert(
    fc.property(sseText, fc.array(fc.nat({ max: 300 }), { maxLength: 12 }), (text, offsets) => {
      const expected = reference(text);
      deepStrictEqual(parse([text]), expected);
      deepStrictEqual(parse(cut(text, offsets)), expected);
    }),
    { numRuns: 5_000 },
  );
});

Deno.test("SseParser gives the same results fed one UTF-16 unit at a time", () => {
  fc.assert(
    fc.property(sseText, (text) => {
      deepStrictEqual(parse(text.split("")), reference(text));
    }),
    { numRuns: 1_000 },
  );
});

Deno.test("SseParser keeps a leading BOM as text when told the decoder dropped one", () => {
  fc.assert(
    fc.property(sseText, fc.array(fc.nat({ max: 300 }), { maxLength: 6 }), (text, offsets) => {
      // With stripBom false, the text is what follows a BOM the decoder already removed.
      deepStrictEqual(parse(cut(text, offsets), false), reference("\uFEFF" + text));
    }),
    { numRuns: 1_000 },
  );
});

Deno.test("SseParser ends a line at a CR at once and skips the LF that completes a CRLF", () => {
  const seen: string[] = [];
  const parser = new SseParser({ onEvent: (data) => seen.push(data) });
  parser.feed("data: a\r");
  parser.feed("\r");
  deepStrictEqual(seen, ["a"]); // dispatched on the CR, without waiting for the next piece
  parser.feed("\ndata: b\r");
  parser.feed("\n\r\n");
  deepStrictEqual(seen, ["a", "b"]);
  strictEqual(parser.buffered, 0);
});

Deno.test("SseParser applies the field rules of the spec", () => {
  const parsed = parse([
    "data\n\n", // a name without a colon: data, empty value
    "data:  two spaces\ndata:x\n\n",
    "id: 1\n\n", // no data: not dispatched, but the last event ID is set
    "id: a\0b\ndata: kept\n\n", // an id with NUL is ignored
    "event:\ndata: y\n\n", // an empty event type is the default
    "event: e\nevent: f\ndata: z\n\n",
    "retry: 25\nretry: -1\nretry:\nretry: 1e3\nretry:007\n",
    "x\na:b\nretry:x\n: comment\nid:\ndata: last\n\n",
    "data: partial", // never finished
  ]);
  deepStrictEqual(parsed, {
    events: [
      { data: "", type: undefined, id: undefined, lastEventId: "" },
      { data: " two spaces\nx", type: undefined, id: undefined, lastEventId: "" },
      { data: "kept", type: undefined, id: undefined, lastEventId: "1" },
      { data: "y", type: undefined, id: undefined, lastEventId: "1" },
      { data: "z", type: "f", id: undefined, lastEventId: "1" },
      { data: "last", type: undefined, id: "", lastEventId: "" },
    ],
    retries: [25, 7],
    lastEventId: "",
  });
});

Deno.test("SseParser spends about as long on unknown fields and bad retries as on comments", () => {
  // eventsource-parser 3.1.1 built an Error per unknown-field or bad-retry line: about 10 µs each,
  // hundreds of times a comment line. Each kind of line here costs a few comparisons.
  const size = 4 * 1_048_576;
  const timeOf = (line: string): number => {
    const text = line.repeat(Math.floor(65_536 / line.length));
    let best = Infinity;
    for (let round = 0; round < 3; round++) {
      const parser = new SseParser({ onEvent: () => {} });
      const start = performance.now();
      for (let fed = 0; fed < size; fed += text.length) parser.feed(text);
      best = Math.min(best, performance.now() - start);
    }
    return best;
  };
  const comment = timeOf(":\n");
  for (const line of ["x\n", "a:b\n", "retry:x\n", "retry: 99999999999999999999\n", "id:1\n"]) {
    const time = timeOf(line);
    ok(time < 10 * comment + 50, `${JSON.stringify(line)}: ${time} ms vs ${comment} ms`);
  }
});
