import { ok, strictEqual } from "node:assert/strict";
import fc from "fast-check";
import { splitAt } from "../_test_utils.ts";
import { SseParser } from "./_sse_parser.ts";
import { SseEventSizer } from "./_sse_sizer.ts";
import { Utf8StreamDecoder } from "./_utf8_decoder.ts";

const LF = 10;
const CR = 13;

/**
 * Reference event sizes from a plain WHATWG line split: each line ends at CRLF, CR or LF; an empty
 * line (other than the stream's first) ends an event at the first byte of its terminator. Returns
 * the sizes of the finished events and the bytes after the last boundary.
 */
function referenceSizes(bytes: Uint8Array): { events: number[]; pending: number } {
  const events: number[] = [];
  let eventStart = 0;
  let lineStart = 0;
  let first = true;
  let i = 0;
  while (i < bytes.length) {
    const byte = bytes[i]!;
    if (byte !== LF && byte !== CR) {
      i++;
      continue;
    }
    const empty = i === lineStart;
    if (empty && !first) {
      events.push(i + 1 - eventStart);
      eventStart = i + 1;
    }
    first = false;
    i += byte === CR && bytes[i + 1] === LF ? 2 : 1;
    lineStart = i;
  }
  return { events, pending: bytes.length - eventStart };
}

const sseBytes = fc.array(fc.constantFrom(LF, CR, 0x61, 0x3a, 0x20), { maxLength: 60 }).map((
  values,
) => new Uint8Array(values));

Deno.test("SseEventSizer matches the reference event sizes in one chunk", () => {
  fc.assert(
    fc.property(sseBytes, fc.nat({ max: 30 }), (bytes, limit) => {
      const { events, pending } = referenceSizes(bytes);
      const expectOverflow = events.some((size) => size > limit) || pending > limit;
      const sizer = new SseEventSizer(limit);
      const result = sizer.push(bytes);
      strictEqual(result >= 0, expectOverflow);
      if (!expectOverflow) strictEqual(sizer.pending, pending);
      else strictEqual(result, [...events, pending].find((size) => size > limit));
    }),
    { numRuns: 3_000 },
  );
});

Deno.test("SseEventSizer gives the same verdict whatever the chunk boundaries", () => {
  fc.assert(
    fc.property(
      sseBytes,
      fc.array(fc.nat({ max: 60 }), { maxLength: 10 }),
      fc.nat({ max: 30 }),
      (bytes, cuts, limit) => {
        const whole = new SseEventSizer(limit);
        const wholeResult = whole.push(bytes);
        const split = new SseEventSizer(limit);
        let splitResult = -1;
        let largestChunk = 0;
        for (const chunk of splitAt(bytes, cuts)) {
          largestChunk = Math.max(largestChunk, chunk.length);
          splitResult = split.push(chunk);
          if (splitResult >= 0) break;
        }
        strictEqual(splitResult >= 0, wholeResult >= 0);
        if (wholeResult < 0) strictEqual(split.pending, whole.pending);
        else ok(splitResult > limit && splitResult <= limit + largestChunk);
      },
    ),
    { numRuns: 3_000 },
  );
});

Deno.test("SseEventSizer counts at least what the parser holds for the current event", () => {
  // With eventsource-parser this property found "data: aaaa\n\r" followed by a chunk without
  // terminators: that parser kept the finished event until the byte after the CR arrived. Ours ends
  // the line at the CR, so what it buffers never outgrows the sizer's count.
  fc.assert(
    fc.property(
      fc.array(
        fc.constantFrom(
          "data: abc",
          "data:",
          ": comment",
          "id: 7",
          "event: x",
          "",
          "xyz",
          "data: " + "q".repeat(30),
        ),
        { maxLength: 16 },
      ),
      fc.array(fc.constantFrom("\n", "\r", "\r\n"), { minLength: 16, maxLength: 16 }),
      fc.array(fc.nat({ max: 160 }), { maxLength: 8 }),
      (lines, terminators, cuts) => {
        const bytes = new TextEncoder().encode(
          lines.map((line, i) => line + terminators[i]!).join(""),
        );
        const sizer = new SseEventSizer(Number.MAX_SAFE_INTEGER);
        const parser = new SseParser({ onEvent: () => {} });
        const decoder = new TextDecoder();
        for (const chunk of splitAt(bytes, cuts)) {
          strictEqual(sizer.push(chunk), -1);
          parser.feed(decoder.decode(chunk, { stream: true }));
          ok(parser.buffered <= sizer.pending, `${parser.buffered} > ${sizer.pending}`);
        }
      },
    ),
    { numRuns: 3_000 },
  );
});

Deno.test("SseEventSizer gives the same counts when it scans the decoded text", () => {
  // Short pieces and long runs (tails past the 1,024-byte byte scan), CRs included, and two- and
  // four-byte characters that chunk cuts may split (text and byte indexes then differ).
  const piece = fc.oneof(
    fc.constantFrom([LF], [CR], [0x61], [0x3a], [0xc3, 0xa9], [0xf0, 0x9f, 0x98, 0x80]),
    fc.integer({ min: 1, max: 1_500 }).map((count) => new Array<number>(count).fill(0x61)),
  );
  const bytes = fc.array(piece, { maxLength: 40 }).map((pieces) => new Uint8Array(pieces.flat()));
  fc.assert(
    fc.property(
      bytes,
      fc.array(fc.nat({ max: 4_000 }), { maxLength: 10 }),
      fc.oneof(fc.nat({ max: 40 }), fc.nat({ max: 4_000 })),
      (all, cuts, limit) => {
        const slow = new SseEventSizer(limit);
        const fast = new SseEventSizer(limit);
        const decoder = new Utf8StreamDecoder();
        for (const chunk of splitAt(all, cuts)) {
          const expected = slow.push(chunk);
          const text = decoder.decode(chunk);
          strictEqual(fast.push(chunk, text, decoder.lastWasAscii), expected);
          if (expected >= 0) return;
          strictEqual(fast.pending, slow.pending);
        }
      },
    ),
    { numRuns: 3_000 },
  );
});

Deno.test("SseEventSizer counts an endless line as it arrives", () => {
  const sizer = new SseEventSizer(100);
  const piece = new Uint8Array(30).fill(0x61);
  strictEqual(sizer.push(piece), -1);
  strictEqual(sizer.push(piece), -1);
  strictEqual(sizer.push(piece), -1);
  strictEqual(sizer.pending, 90);
  strictEqual(sizer.push(piece), 120);
});

Deno.test("SseEventSizer resets after LF LF, CR CR, CRLF CRLF and LF CR", () => {
  for (const boundary of ["\n\n", "\r\r", "\r\n\r\n", "\n\r", "\r\n\n"]) {
    const sizer = new SseEventSizer(1_000);
    sizer.push(new TextEncoder().encode(`data: x${boundary}da`));
    const expected = boundary === "\r\n\r\n" ? 3 : 2; // the LF of a CRLF blank line counts next
    strictEqual(sizer.pending, expected, JSON.stringify(boundary));
  }
});

Deno.test("SseEventSizer finds a blank line split across chunks when it scans the text", () => {
  const encoder = new TextEncoder();
  for (const [first, second] of [["data: x\n", "\nda"], ["data: é\n", "\néa"]]) {
    const sizer = new SseEventSizer(1_000);
    const decoder = new Utf8StreamDecoder();
    for (const text of [first!, second!]) {
      const chunk = encoder.encode(text);
      strictEqual(sizer.push(chunk, decoder.decode(chunk), decoder.lastWasAscii), -1);
    }
    strictEqual(sizer.pending, encoder.encode(second!).length - 1, JSON.stringify(first));
  }
});
