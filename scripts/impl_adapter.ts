/**
 * The project's implementation as a `--impl` process: reads one JSON request per line on stdin,
 * writes one JSON reply per line on stdout.
 * `deno task test-vectors --impl "deno run scripts/impl_adapter.ts"` must print exactly the report
 * of the direct run.
 *
 * @module
 */
import { unknownArgument } from "./_cli.ts";
import { handleRequest } from "./_impl.ts";

const USAGE = "Usage: deno run scripts/impl_adapter.ts\n" +
  "The project's implementation over the --impl protocol of vectors/README.md: one JSON request\n" +
  "a line on standard input, one JSON reply a line on standard output. It takes no arguments:\n" +
  'deno task test-vectors --impl "deno run scripts/impl_adapter.ts" starts it.\n' +
  "  --help   print this and exit";

// Arguments are read before the first request, so that --help never waits for standard input.
const [first] = Deno.args;
if (first === "--help" || first === "-h") {
  console.log(USAGE);
  Deno.exit(0);
}
if (first !== undefined) {
  console.error(`error: ${unknownArgument(first, ["--help"]).message}`);
  Deno.exit(2);
}

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
