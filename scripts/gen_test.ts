import { deepStrictEqual, ok, strictEqual, throws } from "node:assert/strict";
import {
  ADCP_VERSION,
  DEPRECATED_ERROR_CODES,
  ERROR_CODE_TABLE,
  lookupErrorCode,
  STANDARD_ERROR_CODES,
} from "@adcp-wire/schemas";
import { GEN_USAGE, generate, parseGenArgs, typeNameInWordCase } from "./gen.ts";
import { readSources, schemaDir } from "./_sources.ts";
import { ensureSynced } from "./_test_sync.ts";

Deno.test("gen output is byte-identical on rerun and matches packages/schemas", async () => {
  const { schema_version } = await readSources();
  const first = await generate(schema_version);
  const second = await generate(schema_version);
  deepStrictEqual([...first.files], [...second.files]);
  for (const [name, text] of first.files) {
    strictEqual(
      await Deno.readTextFile(new URL(`../packages/schemas/${name}`, import.meta.url)),
      text,
      name,
    );
  }
});

Deno.test("the generated code table mirrors enums/error-code.json enumMetadata", async () => {
  const schema = JSON.parse(
    await Deno.readTextFile(`${schemaDir(ADCP_VERSION)}/enums/error-code.json`),
  );
  deepStrictEqual([...STANDARD_ERROR_CODES], schema.enum);
  for (const code of STANDARD_ERROR_CODES) {
    strictEqual(ERROR_CODE_TABLE[code].recovery, schema.enumMetadata[code].recovery, code);
    strictEqual(ERROR_CODE_TABLE[code].suggestion, schema.enumMetadata[code].suggestion, code);
    ok(Object.isFrozen(ERROR_CODE_TABLE[code]));
  }
  ok(Object.isFrozen(ERROR_CODE_TABLE) && Object.isFrozen(STANDARD_ERROR_CODES));
  ok(DEPRECATED_ERROR_CODES.includes("AUTH_REQUIRED"));
  ok(!DEPRECATED_ERROR_CODES.includes("AUTH_MISSING"));
  for (const code of DEPRECATED_ERROR_CODES) strictEqual(ERROR_CODE_TABLE[code].deprecated, true);
});

Deno.test("lookupErrorCode() ignores inherited names and vendor codes", () => {
  for (const name of ["__proto__", "constructor", "toString", "hasOwnProperty", "X_ACME_FOO", ""]) {
    strictEqual(lookupErrorCode(name), undefined, name);
  }
  strictEqual(lookupErrorCode("RATE_LIMITED")?.recovery, "transient");
});

Deno.test(
  "gen yields 92 codes for 3.1.19 and 109 for 3.2.0-beta.5, with no manual step",
  async () => {
    for (const [version, count] of [["3.1.19", 92], ["3.2.0-beta.5", 109]] as const) {
      const { files, codeCount } = await generate(version, await ensureSynced(version));
      strictEqual(codeCount, count, version);
      ok(files.get("error_codes.ts")!.includes(`export const ADCP_VERSION = "${version}";`));
    }
  },
);

Deno.test("typeNameInWordCase() writes acronyms as words and keeps A2A", () => {
  const cases = [
    ["AdCPProtocol", "AdcpProtocol"],
    ["AdCPVersionEnvelope", "AdcpVersionEnvelope"],
    ["MCPWebhookPayload", "McpWebhookPayload"],
    ["MCPWebhookPayload1", "McpWebhookPayload1"],
    ["SLAWindow", "SlaWindow"],
    ["BrandID", "BrandId"],
    ["HTML5FormatDeclaration", "Html5FormatDeclaration"],
    ["ResponsePayloadJWSEnvelope", "ResponsePayloadJwsEnvelope"],
    ["A2ATaskPayload", "A2ATaskPayload"],
    ["AdcpError", "AdcpError"],
    ["TaskStatus", "TaskStatus"],
  ] as const;
  for (const [name, expected] of cases) strictEqual(typeNameInWordCase(name), expected, name);
});

Deno.test("gen names types in word case only, with no alias under an old name", async () => {
  const { files } = await generate(ADCP_VERSION);
  const types = files.get("types.ts")!;
  // json-schema-to-typescript declares it as an interface (AdCP 3.1.19) or, when the schema has
  // combinators, as a type alias (3.2.0-beta.5): either way under its word-case name.
  ok(/^export (?:type McpWebhookPayload = |interface McpWebhookPayload )\{$/m.test(types));
  ok(types.includes("  protocol?: AdcpProtocol;"));
  ok(!types.includes("@deprecated Use {@link"), "no deprecated alias");
  ok(!/\bMCPWebhookPayload\b/.test(types), "no old name");
  const declared = [...types.matchAll(/^export (?:type|interface) (\w+)/gm)].map((match) =>
    match[1]!
  );
  // Every declared name is in word case.
  for (const name of declared) strictEqual(typeNameInWordCase(name), name);
});

Deno.test("gen --help prints usage and reads nothing; an unknown argument is refused", () => {
  strictEqual(parseGenArgs(["--help"]), "help");
  strictEqual(parseGenArgs(["--check", "-h"]), "help");
  deepStrictEqual(parseGenArgs([]), { check: false });
  deepStrictEqual(parseGenArgs(["--check"]), { check: true });
  throws(() => parseGenArgs(["--chek"]), {
    name: "UsageError",
    message: 'Unknown argument "--chek"; did you mean --check? (see --help)',
  });
  throws(() => parseGenArgs(["check"]), { message: 'Unknown argument "check" (see --help)' });
  ok(GEN_USAGE.startsWith("Usage: deno task gen [--check]"));
});

Deno.test("gen --help and sync --help exit 0 with usage, offline and before any sync", async () => {
  // No --allow-net and no --allow-write: usage needs neither the network nor a synced tree.
  for (const script of ["gen.ts", "sync.ts"]) {
    const { code, stdout } = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "--no-prompt",
        "--allow-read",
        "--allow-env",
        "--allow-run",
        "--allow-sys=cpus",
        `${import.meta.dirname}/${script}`,
        "--help",
      ],
      env: { ADCP_UPSTREAM: "" },
      stdout: "piped",
      stderr: "null",
    }).output();
    strictEqual(code, 0, script);
    ok(new TextDecoder().decode(stdout).startsWith("Usage: deno task "), script);
  }
});
