/**
 * `deno task test-node [ARGS]`
 *
 * Runs the conformance suite and the Node example on Node.js (≥ 20), to show that the packages
 * need nothing Deno-only at run time:
 *
 * 1. `examples/node/impl_adapter.ts` (the Node side of `scripts/impl_adapter.ts`) is bundled by
 *    esbuild for `platform: "node"`, the workspace packages inlined, and checked with
 *    `scripts/test_vectors.ts --impl "node <bundle>"`, which prints its report. `ARGS` are passed
 *    to it (`--json FILE`, `--vectors DIR`…), all but `--impl`.
 * 2. The workspace packages are bundled as `node_modules/@adcp-wire/*` (a `package.json` per
 *    package, as an npm user of the JSR packages has them), and `examples/node/mcp_client.mjs`,
 *    copied beside them unchanged, runs on Node; what it prints must be
 *    {@link EXPECTED_EXAMPLE_OUTPUT}.
 *
 * Exit status 1 when a vector fails or the example's output differs, or with one `error:` line when
 * Node.js is missing or too old; 2, with one `error:` line, for a mistaken command line (checked
 * before anything is bundled). `--help` prints {@link TEST_NODE_USAGE}.
 *
 * @module
 */
import { bundleFile, bundlePackages, type OutputFile, stopBundler } from "./_bundle.ts";
import { runMain, ScriptError, UsageError } from "./_cli.ts";
import { ROOT } from "./_sources.ts";
import { parseTestVectorsArgs, TEST_VECTORS_FLAGS } from "./test_vectors.ts";

/** The oldest Node.js major version the packages support. */
export const MIN_NODE_MAJOR = 20;

/** The Node entry that answers the `--impl` protocol. */
export const NODE_ADAPTER = "examples/node/impl_adapter.ts";

/** The MCP client example of docs/clients.md, for Node. */
export const NODE_EXAMPLE = "examples/node/mcp_client.mjs";

/** What {@link NODE_EXAMPLE} prints. */
export const EXPECTED_EXAMPLE_OUTPUT: string = [
  "call 1: error RATE_LIMITED, decision retry in 5 s",
  'call 2: success, valid get_products response ({"status":"completed","cache_scope":"public",' +
  '"products":[]})',
  "connectAgent: mcp, success",
].join("\n");

/** How long the example may run, in milliseconds. */
const EXAMPLE_TIMEOUT_MS = 30_000;

/**
 * The major version in `node --version`'s output (`v20.20.2` is 20).
 *
 * @param output What `node --version` printed.
 * @returns The major version, or `undefined` when the output is not a version.
 */
export function nodeMajor(output: string): number | undefined {
  const match = /^v(\d+)\.\d+\.\d+/.exec(output.trim());
  return match === null ? undefined : Number(match[1]);
}

/**
 * The first `name` in a `PATH` folder that is an executable file, Deno's `node_compat_bin` left
 * out: when Node.js is missing, Deno puts that folder, whose `node` is Deno itself, first on the
 * `PATH` of the processes it starts.
 *
 * @param name The command's name.
 * @param path The `PATH` value.
 * @param isExecutable Whether a path is an executable file.
 * @returns Its path, or `undefined`.
 */
export function findOnPath(
  name: string,
  path: string | undefined,
  isExecutable: (path: string) => boolean,
): string | undefined {
  for (const dir of (path ?? "").split(":")) {
    if (dir === "" || /(^|\/)node_compat_bin\/?$/.test(dir)) continue;
    const candidate = `${dir.replace(/\/$/, "")}/${name}`;
    if (isExecutable(candidate)) return candidate;
  }
  return undefined;
}

/**
 * Whether `path` is a file someone may execute.
 *
 * @param path The path.
 * @returns Whether it is an executable file.
 */
export function isExecutable(path: string): boolean {
  try {
    const info = Deno.statSync(path);
    return info.isFile && ((info.mode ?? 0o111) & 0o111) !== 0;
  } catch {
    return false;
  }
}

/**
 * Quotes one argument for `sh -c` (single quotes; a quote inside is closed, escaped, reopened).
 *
 * @param argument The argument.
 * @returns The quoted argument.
 */
export function shellQuote(argument: string): string {
  return `'${argument.replaceAll("'", `'\\''`)}'`;
}

/**
 * Why `actual` is not `expected` (line by line, trailing whitespace ignored), or `undefined`.
 *
 * @param expected The expected output.
 * @param actual The output.
 * @returns The lines that differ, or `undefined` when none does.
 */
export function outputDifference(expected: string, actual: string): string | undefined {
  const want = expected.trimEnd().split("\n");
  const got = actual.trimEnd().split("\n");
  const lines: string[] = [];
  for (let index = 0; index < Math.max(want.length, got.length); index++) {
    if (want[index] === got[index]?.trimEnd()) continue;
    lines.push(
      `line ${index + 1}:`,
      `- ${want[index] ?? "(nothing)"}`,
      `+ ${got[index] ?? "(nothing)"}`,
    );
  }
  return lines.length === 0 ? undefined : lines.join("\n");
}

/** The usage text of `deno task test-node --help`. */
export const TEST_NODE_USAGE: string = [
  "Usage: deno task test-node [--vectors DIR]... [--suite NAME]... [--json FILE] " +
  "[--adcp-version V]",
  `Bundles ${NODE_ADAPTER} and the packages for Node.js (>= ${MIN_NODE_MAJOR}), runs the ` +
  "conformance suite against it",
  `(test-vectors --impl "node <bundle>"), then runs ${NODE_EXAMPLE} on Node and compares its ` +
  "output.",
  "  --vectors DIR      also run the vector files of DIR",
  "  --suite NAME       run only the files of suite NAME (repeatable)",
  "  --json FILE        write the conformance report as JSON to FILE",
  "  --adcp-version V   the AdCP version the vectors are checked against",
  "  --help             print this and exit",
  "Every argument but --help goes to test-vectors (see deno task test-vectors --help); --impl is",
  "set by this task. Exit status: 0 when both pass, 1 when one fails or Node.js is missing or too",
  "old, 2 for a mistaken command line.",
].join("\n");

/**
 * Reads the command line of `deno task test-node`: `--help`, or the arguments passed on to
 * `test_vectors.ts`, checked as it checks them before anything is bundled, with `--impl` refused
 * (this task sets it).
 *
 * @param args This script's arguments.
 * @returns The same arguments, or `"help"` for `--help` (or `-h`).
 * @throws {UsageError} When one is `--impl`, or one `test_vectors.ts` refuses (an unknown
 * argument, with the nearest flag; a missing value; an unknown suite).
 */
export function vectorArgs(args: readonly string[]): string[] | "help" {
  if (args.some((arg) => arg === "--impl" || arg.startsWith("--impl="))) {
    throw new UsageError("test-node sets --impl itself (node <bundle>); leave it out");
  }
  // Only the flags this task passes on are suggested: test-vectors' own, without --impl.
  const flags = TEST_VECTORS_FLAGS.filter((flag) => flag !== "--impl");
  if (parseTestVectorsArgs(args, flags) === "help") return "help";
  return [...args];
}

/** Node.js: its path and version. */
async function findNode(): Promise<{ node: string; version: string }> {
  const node = findOnPath("node", Deno.env.get("PATH"), isExecutable);
  if (node === undefined) {
    throw new ScriptError(
      `Node.js not found on PATH: install Node.js ${MIN_NODE_MAJOR} or newer`,
    );
  }
  const output = await new Deno.Command(node, { args: ["--version"], stderr: "inherit" })
    .output();
  const version = new TextDecoder().decode(output.stdout).trim();
  const major = nodeMajor(version);
  if (!output.success || major === undefined) {
    throw new ScriptError(`\`node --version\` printed ${JSON.stringify(version)}, not a version`);
  }
  if (major < MIN_NODE_MAJOR) {
    throw new ScriptError(`Node.js ${MIN_NODE_MAJOR} or newer is needed, saw ${version}`);
  }
  return { node, version };
}

async function writeFiles(dir: string, files: readonly OutputFile[]): Promise<void> {
  for (const file of files) {
    const path = `${dir}/${file.path}`;
    await Deno.mkdir(path.slice(0, path.lastIndexOf("/")), { recursive: true });
    await Deno.writeTextFile(path, file.text);
  }
}

/** Runs the example on Node in `dir`; true when it printed what it should. */
async function runExample(dir: string, node: string, version: string): Promise<boolean> {
  const started = performance.now();
  const output = await new Deno.Command(node, {
    args: ["mcp_client.mjs"],
    cwd: dir,
    stdout: "piped",
    stderr: "inherit",
    signal: AbortSignal.timeout(EXAMPLE_TIMEOUT_MS),
  }).output();
  const text = new TextDecoder().decode(output.stdout);
  const ms = Math.round(performance.now() - started);
  console.log(`\n${NODE_EXAMPLE} on Node.js ${version} (${ms} ms):`);
  for (const line of text.trimEnd().split("\n")) console.log(`  ${line}`);
  if (!output.success) {
    console.log(
      `✗ it exited with status ${output.code}${output.signal ? ` (${output.signal})` : ""}`,
    );
    return false;
  }
  const difference = outputDifference(EXPECTED_EXAMPLE_OUTPUT, text);
  if (difference !== undefined) {
    console.log("✗ its output differs (- expected, + actual):");
    for (const line of difference.split("\n")) console.log(`  ${line}`);
    return false;
  }
  console.log("✓ output as expected");
  return true;
}

async function main(): Promise<number> {
  const started = performance.now();
  const passThrough = vectorArgs(Deno.args);
  if (passThrough === "help") {
    console.log(TEST_NODE_USAGE);
    return 0;
  }
  const { node, version } = await findNode();
  const dir = await Deno.makeTempDir({ prefix: "adcp-wire-node-" });
  try {
    let adapter: string;
    let packages: OutputFile[];
    try {
      [adapter, packages] = await Promise.all([
        bundleFile(NODE_ADAPTER, "node"),
        bundlePackages("node"),
      ]);
    } finally {
      await stopBundler();
    }
    await writeFiles(dir, [
      { path: "impl_adapter.mjs", text: adapter },
      { path: "mcp_client.mjs", text: await Deno.readTextFile(`${ROOT}/${NODE_EXAMPLE}`) },
      ...packages.map((file) => ({ ...file, path: `node_modules/@adcp-wire/${file.path}` })),
    ]);
    console.log(
      `test-node: Node.js ${version}; ${NODE_ADAPTER} and the packages bundled in ${
        Math.round(performance.now() - started)
      } ms\n`,
    );

    const impl = `${shellQuote(node)} ${shellQuote(`${dir}/impl_adapter.mjs`)}`;
    const vectors = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "--allow-read",
        "--allow-write",
        "--allow-run",
        "--allow-env",
        "scripts/test_vectors.ts",
        ...passThrough,
        "--impl",
        impl,
      ],
      cwd: ROOT,
      stdin: "null",
      stdout: "inherit",
      stderr: "inherit",
    }).output();

    const example = await runExample(dir, node, version);
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    console.log(
      `\ntest-node: conformance suite on Node ${vectors.success ? "passed" : "FAILED"}, ` +
        `example ${example ? "passed" : "FAILED"} (${seconds} s)`,
    );
    return vectors.success && example ? 0 : 1;
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

if (import.meta.main) await runMain(main);
