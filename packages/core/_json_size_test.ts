import { strictEqual } from "node:assert/strict";
import fc from "fast-check";
import { jsonSizeOver } from "./_json_size.ts";

const utf8 = (text: string) => new TextEncoder().encode(text).length;

Deno.test("jsonSizeOver() agrees with the UTF-8 length of JSON.stringify at every limit", () => {
  fc.assert(
    fc.property(fc.jsonValue(), fc.nat({ max: 400 }), (value, limit) => {
      const size = utf8(JSON.stringify(value));
      const over = jsonSizeOver(value, limit);
      if (size <= limit) strictEqual(over, undefined);
      else strictEqual(over !== undefined && over > limit, true);
      if (over !== undefined && over <= 6 * size + 2 && size > limit) {
        // Exact unless the walk stopped early on its lower bound, which never exceeds the size.
        strictEqual(over <= size, true);
      }
    }),
    { numRuns: 2_000 },
  );
});

Deno.test("jsonSizeOver() measures escapes and astral characters exactly near the limit", () => {
  for (const text of ['\u0000\u001f"\\', "é—😀", "\ud800x"]) {
    const value = { text };
    const size = utf8(JSON.stringify(value));
    strictEqual(jsonSizeOver(value, size), undefined);
    strictEqual(jsonSizeOver(value, size - 1), size);
  }
});

Deno.test("jsonSizeOver() stops early on a cyclic or huge value", () => {
  const cyclic: Record<string, unknown> = { a: 1 };
  cyclic.self = cyclic;
  const over = jsonSizeOver(cyclic, 1_000);
  strictEqual(over !== undefined && over > 1_000, true);
  const huge = Array.from({ length: 1_000_000 }, () => 0);
  const started = performance.now();
  const hugeOver = jsonSizeOver(huge, 100);
  strictEqual(hugeOver !== undefined && hugeOver > 100, true);
  strictEqual(performance.now() - started < 100, true);
});
