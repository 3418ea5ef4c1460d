/**
 * The project's implementation as a `--impl` process: reads one JSON request per line on stdin,
 * writes one JSON reply per line on stdout.
 * `deno task test-vectors --impl "deno run scripts/impl_adapter.ts"` must print exactly the report
 * of the direct run.
 *
 * @module
 */
import { handleRequest } from "./_impl.ts";

const encoder = new TextEncoder();
let buffer = "";
for await (const chunk of Deno.stdin.readable.pipeThrough(new TextDecoderStream())) {
  buffer += chunk;
  let newline: number;
  while ((newline = buffer.indexOf("\n")) >= 0) {
    const line = buffer.slice(0, newline);
    buffer = buffer.slice(newline + 1);
    if (line.trim() === "") continue;
    let reply: unknown;
    try {
      reply = await handleRequest(JSON.parse(line));
    } catch {
      reply = { error: { code: "bad_request" } };
    }
    await Deno.stdout.write(encoder.encode(JSON.stringify(reply) + "\n"));
  }
}
