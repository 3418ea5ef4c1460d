// What a release would publish: the files `deno publish --dry-run` lists, and the ones among them
// that are not library code (tests, benchmarks, test helpers, anything under `testdata/`).

/**
 * The file paths (relative to `root`) that `deno publish --dry-run` output lists, one per
 * `file://` line, in the order listed.
 */
export function publishedFiles(output: string, root: string): string[] {
  const prefix = `file://${root.replace(/\/$/, "")}/`;
  const files: string[] = [];
  for (const line of output.split("\n")) {
    const match = /^\s*(file:\/\/\S+)/.exec(line);
    if (match === null || !match[1]!.startsWith(prefix)) continue;
    files.push(decodeURIComponent(match[1]!.slice(prefix.length)));
  }
  return files;
}

/** Why `file` must not be published, or `undefined` when it may be. */
export function unpublishable(file: string): string | undefined {
  const parts = file.split("/");
  const name = parts[parts.length - 1]!;
  if (parts.includes("testdata")) return "test data";
  if (/_test\.[cm]?[jt]sx?$/.test(name)) return "a test";
  if (/_bench\.[cm]?[jt]sx?$/.test(name)) return "a benchmark";
  if (name.startsWith("_test_")) return "a test helper";
  return undefined;
}

/** Runs `deno publish --dry-run --allow-dirty` in `root` and returns its output, stdout first. */
export async function publishDryRun(root: string): Promise<string> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["publish", "--dry-run", "--allow-dirty"],
    cwd: root,
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).output();
  const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
  if (!out.success) {
    const reason = text.split("\n").find((l) => /error/i.test(l)) ?? text.split("\n")[0];
    throw new Error(`deno publish --dry-run failed: ${reason?.trim()}`);
  }
  return text;
}
