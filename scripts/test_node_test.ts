import { deepStrictEqual, ok, strictEqual, throws } from "node:assert/strict";
import { UsageError } from "./_cli.ts";
import {
  EXPECTED_EXAMPLE_OUTPUT,
  findOnPath,
  nodeMajor,
  outputDifference,
  shellQuote,
  TEST_NODE_USAGE,
  vectorArgs,
} from "./test_node.ts";

Deno.test("nodeMajor() reads the major version of `node --version`", () => {
  strictEqual(nodeMajor("v20.20.2\n"), 20);
  strictEqual(nodeMajor("v22.0.0"), 22);
  strictEqual(nodeMajor("20.1.0"), undefined);
  strictEqual(nodeMajor(""), undefined);
});

Deno.test("shellQuote() keeps a path with spaces and quotes one argument", async () => {
  const path = "/tmp/it's a dir/$HOME/impl.mjs";
  const output = await new Deno.Command("sh", {
    args: ["-c", `printf '%s' ${shellQuote(path)}`],
  }).output();
  strictEqual(new TextDecoder().decode(output.stdout), path);
});

Deno.test("outputDifference() names the lines that differ, ignoring trailing whitespace", () => {
  strictEqual(outputDifference("a\nb", "a \nb\n"), undefined);
  strictEqual(outputDifference("a\nb", "a\nc"), "line 2:\n- b\n+ c");
  strictEqual(outputDifference("a", "a\nb"), "line 2:\n- (nothing)\n+ b");
  strictEqual(outputDifference(EXPECTED_EXAMPLE_OUTPUT, EXPECTED_EXAMPLE_OUTPUT), undefined);
});

Deno.test("vectorArgs() passes test-vectors arguments on, but not --impl", () => {
  deepStrictEqual(vectorArgs(["--json", "out.json"]), ["--json", "out.json"]);
  deepStrictEqual(vectorArgs(["--suite=seller-strings", "--adcp-version", "3.1.19"]), [
    "--suite=seller-strings",
    "--adcp-version",
    "3.1.19",
  ]);
  throws(() => vectorArgs(["--impl", "x"]), UsageError);
  throws(() => vectorArgs(["--impl=x"]), UsageError);
});

Deno.test("vectorArgs() gives --help to test-node, and refuses what test-vectors refuses", () => {
  strictEqual(vectorArgs(["--help"]), "help");
  strictEqual(vectorArgs(["--json", "out.json", "-h"]), "help");
  ok(TEST_NODE_USAGE.startsWith("Usage: deno task test-node"));
  // Checked before anything is bundled, with the nearest flag this task passes on.
  throws(() => vectorArgs(["--jsn", "out.json"]), {
    name: "UsageError",
    message: 'Unknown argument "--jsn"; did you mean --json? (see --help)',
  });
  throws(() => vectorArgs(["--impk"]), (error: Error) => {
    strictEqual(error.name, "UsageError");
    ok(error.message.startsWith('Unknown argument "--impk"; did you mean --'), error.message);
    ok(!error.message.includes("--impl"), error.message);
    return true;
  });
  throws(() => vectorArgs(["--suite", "seller-string"]), {
    name: "UsageError",
    message: /^Unknown suite "seller-string" \(did you mean seller-strings\?\)/,
  });
  throws(() => vectorArgs(["--json"]), { name: "UsageError", message: "--json needs a value" });
});

Deno.test("findOnPath() takes the first executable on PATH, never Deno's node shim", () => {
  const present = new Set(["/home/u/.cache/deno/node_compat_bin/node", "/usr/bin/node", "/b/node"]);
  const exists = (path: string) => present.has(path);
  const path = "/home/u/.cache/deno/node_compat_bin:/a:/usr/bin/:/b";
  strictEqual(findOnPath("node", path, exists), "/usr/bin/node");
  strictEqual(findOnPath("node", "/home/u/.cache/deno/node_compat_bin", exists), undefined);
  strictEqual(findOnPath("node", undefined, exists), undefined);
});
