// The JSON depth pre-scan (refusing over-deep text before JSON.parse sees it: MCP Response
// Extraction, Security Considerations, Size Limits) plus JSON.parse, against JSON.parse alone, at
// every size and in every script of the text-fallback benchmarks of @adcp-wire/core (issue 18).
// Run: `deno task bench --filter=scan_json_depth`.
//
// `checkJsonDepth` answers small messages with a few native searches (at most `maxJsonDepth`
// opening brackets cannot nest deeper): 1.11-1.13x against 1.45-1.49x for the scan (Deno 2.9.6,
// 2 shared cores). Longer text is scanned, brackets counted outside strings and string bodies
// skipped with `indexOf('"')`: 1.3-1.6x at 1 and 4 MiB, whichever function. Other scans were
// tried and lost (a class table: no faster; a character loop, a branch-free loop: 1.5-3x slower):
// when the
// text holds more opening brackets than the limit, which any large payload does, no JavaScript
// scan comes near 1.05x, and the callers' rows (the clients') carry the cost. These rows carry no
// target: they measure what the pre-scan costs.

import { checkJsonDepth, scanJsonDepth } from "./scan_json_depth.ts";

const encoder = new TextEncoder();

/** Where every benchmark leaves its result. */
export let sink: unknown;

/** One get_products product, `mark` in some names. */
function product(index: number, mark: string): Record<string, unknown> {
  return {
    product_id: `prod_${index}`,
    name: index % 7 === 0 ? `Sports Premium ${index} ${mark} CTV` : `Run of Site ${index}`,
    cpm: Math.round(index * 37) / 100,
    formats: ["video_30s", "display_300x250"],
    delivery_type: index % 2 === 0 ? "guaranteed" : "non_guaranteed",
    is_fixed_price: index % 3 === 0,
  };
}

/** A get_products-like response of about `bytes` UTF-8 bytes, `mark` in some product names. */
function productsResponse(bytes: number, mark: string): string {
  const products: unknown[] = [];
  let size = 0;
  for (let index = 0; size < bytes - 1024; index++) {
    const item = product(index, mark);
    products.push(item);
    size += encoder.encode(JSON.stringify(item)).length + 1;
  }
  return JSON.stringify({ status: "completed", products });
}

/** What `deno task bench` (scripts/bench.ts) holds each benchmark to: nothing here. */
export const BENCH_TARGETS: Record<string, string> = {};

const scripts = [["ASCII", "-"], ["é", "é"], ["—", "—"], ["CJK", "広告枠"]] as const;
const sizes = [["small", 0], ["1 MiB", 1_048_576], ["4 MiB", 4_194_304]] as const;
for (const [size, bytes] of sizes) {
  for (const [script, mark] of scripts) {
    const label = `${size}, ${script}`;
    const text = bytes === 0
      ? JSON.stringify({ status: "completed", products: [product(0, mark), product(1, mark)] })
      : productsResponse(bytes, mark);
    if (!checkJsonDepth(text).valid) throw new Error(`The ${label} text is too deep`);
    const group = `depth pre-scan ${label}`;
    Deno.bench({
      name: `JSON.parse (pre-scan ${label})`,
      group,
      baseline: true,
      fn() {
        sink = JSON.parse(text);
      },
    });
    Deno.bench({
      name: `checkJsonDepth + JSON.parse (${label})`,
      group,
      fn() {
        sink = checkJsonDepth(text).valid ? JSON.parse(text) : undefined;
      },
    });
    Deno.bench({
      name: `scanJsonDepth + JSON.parse (${label})`,
      group,
      fn() {
        sink = scanJsonDepth(text).valid ? JSON.parse(text) : undefined;
      },
    });
  }
}
