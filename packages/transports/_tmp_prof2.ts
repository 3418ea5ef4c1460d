import { createParser } from "eventsource-parser";
import { createSseBudget, readSseEventBatches } from "./sse.ts";
const SIZE = 4 * 1048576, CHUNK = 65536;
const size = Number(Deno.args[1] ?? 4096);
const pad = "x".repeat(size - 110);
let text = "";
for (let i = 0; text.length < SIZE - size - 300; i++) {
  text +=
    `id: ${i}\ndata: {"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":${i},"m":"${pad}"}}\n\n`;
}
const b = new TextEncoder().encode(text);
const chunks: Uint8Array[] = [];
for (let s = 0; s < b.length; s += CHUNK) chunks.push(b.slice(s, s + CHUNK));
function responseOf(chunks: readonly Uint8Array[]): Response {
  let index = 0;
  return new Response(
    new ReadableStream<Uint8Array>({
      pull(c) {
        const x = chunks[index++];
        if (x === undefined) c.close();
        else c.enqueue(x);
      },
    }, { highWaterMark: 0 }),
  );
}
async function bare() {
  let count = 0;
  const parser = createParser({ onEvent: () => count++ });
  const decoder = new TextDecoder();
  const reader = responseOf(chunks).body!.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parser.feed(decoder.decode(value, { stream: true }));
  }
}
async function ours() {
  let n = 0;
  for await (const bt of readSseEventBatches(responseOf(chunks), { budget: createSseBudget() })) {
    n += bt.length;
  }
}
const f = Deno.args[0] === "bare" ? bare : ours;
for (let r = 0; r < 300; r++) await f();
const t0 = performance.now();
for (let r = 0; r < 2000; r++) await f();
console.log(Deno.args[0], ((performance.now() - t0) / 2000).toFixed(3));
