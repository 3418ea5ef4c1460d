/**
 * The project's implementation as a `--impl` process on Node.js (≥ 20): the Node side of
 * `scripts/impl_adapter.ts`, which reads its input with `Deno.stdin`. It speaks the same protocol
 * (vectors/README.md, "`--impl`"): one JSON request per line on standard input, one JSON reply per
 * line on standard output, in order, with the answers of `scripts/_impl.ts`.
 *
 * `deno task test-node` bundles it with esbuild (the workspace packages inlined) and runs
 * `deno task test-vectors --impl "node <bundle>"`.
 *
 * @module
 */
import { once } from "node:events";
import process from "node:process";
import { createInterface } from "node:readline";
import { handleRequest } from "../../scripts/_impl.ts";

const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
for await (const line of lines) {
  if (line.trim() === "") continue;
  let reply: unknown;
  try {
    reply = await handleRequest(JSON.parse(line));
  } catch {
    reply = { error: { code: "bad_request" } };
  }
  if (!process.stdout.write(JSON.stringify(reply) + "\n")) await once(process.stdout, "drain");
}
