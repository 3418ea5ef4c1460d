// Every public options and limits object of @adcp-wire/security refuses an own key it does not
// know (a misspelled or misplaced option would otherwise pass silently, its limit left at the
// default), in the one option-error style with the nearest known option, before the input is
// looked at.
import { everyKey, outcome } from "adcp-testkit";
import { deepStrictEqual, ok, strictEqual, throws } from "node:assert/strict";
import {
  checkJsonBounds,
  decodeBase64Bounded,
  type DecodeBase64BoundedOptions,
  findDuplicateKeys,
  type JsonLimits,
  mergeSafe,
  parseJsonStrict,
  sanitizeLogLine,
  type SanitizeLogLineOptions,
  sanitizeSellerString,
  type SanitizeSellerStringOptions,
  toSafeJson,
  validateSellerUrl,
  type ValidateSellerUrlOptions,
  wrapUntrustedSellerData,
  type WrapUntrustedSellerDataOptions,
} from "./mod.ts";

/**
 * Inputs whose every read is counted: a refused call must not look at its data (options are
 * checked first), nor change a merge target.
 */
class Probe {
  reads = 0;
  readonly value: object = new Proxy({}, {
    get: () => {
      this.reads++;
      return undefined;
    },
    getOwnPropertyDescriptor: () => {
      this.reads++;
      return undefined;
    },
    ownKeys: () => {
      this.reads++;
      return [];
    },
    getPrototypeOf: () => {
      this.reads++;
      return Object.prototype;
    },
  });
  readonly target: Record<string, unknown> = { kept: true };

  untouched(message: string): void {
    strictEqual(this.reads, 0, message);
    deepStrictEqual(this.target, { kept: true }, message);
  }
}

/** A call that must be refused, and its exact message. */
type Case = readonly [call: (probe: Probe) => unknown, message: string];

interface Row {
  /** Calls with a misspelled or misplaced key, one per function that reads the options. */
  readonly refused: readonly Case[];
  /** Calls passing every known key of the interface as `undefined`. */
  readonly everyKey: readonly (() => unknown)[];
}

const ALL_LIMITS = everyKey<JsonLimits>({ maxJsonDepth: undefined, maxJsonNodes: undefined });

/** The JSON-limit functions, by the action their option errors name. */
const LIMIT_FUNCTIONS:
  readonly (readonly [string, (probe: Probe, limits: JsonLimits) => unknown])[] = [
    ["check JSON bounds", (p, limits) => checkJsonBounds(p.value, limits)],
    ["copy JSON", (p, limits) => toSafeJson(p.value, limits)],
    ["merge seller data", (p, limits) => mergeSafe(p.target, { added: 1 }, limits)],
    ["parse JSON strictly", (_, limits) => parseJsonStrict("{}", limits)],
    ["find duplicate JSON keys", (_, limits) => findDuplicateKeys("{}", limits)],
  ];

/** One row per public options or limits interface of the entry point (see the skips below). */
const ROWS: Readonly<Record<string, Row>> = {
  JsonLimits: {
    refused: LIMIT_FUNCTIONS.map(([action, run]): Case => [
      (p) => run(p, { maxJsonNode: 10 } as JsonLimits),
      `Cannot ${action} as 'limits.maxJsonNode' must be a known option (the nearest is ` +
      "'limits.maxJsonNodes'): current value is 10",
    ]),
    everyKey: LIMIT_FUNCTIONS.map(([, run]) => () => run(new Probe(), ALL_LIMITS)),
  },
  DecodeBase64BoundedOptions: {
    refused: [[
      () => decodeBase64Bounded("aGk=", { maxByte: 2 } as never),
      "Cannot decode base64 as 'options.maxByte' must be a known option (the nearest is " +
      "'options.maxBytes'): current value is 2",
    ]],
    // maxBytes is required: refused for its value, not for a key.
    everyKey: [() =>
      decodeBase64Bounded(
        "aGk=",
        everyKey<DecodeBase64BoundedOptions>({
          maxBytes: undefined,
        }),
      )],
  },
  SanitizeLogLineOptions: {
    refused: [[
      () => sanitizeLogLine("line", { maxLength: 2 } as SanitizeLogLineOptions),
      "Cannot sanitize a log line as 'options.maxLength' must be a known option (the nearest is " +
      "'options.maxBytes'): current value is 2",
    ]],
    everyKey: [
      () => sanitizeLogLine("line", everyKey<SanitizeLogLineOptions>({ maxBytes: undefined })),
    ],
  },
  SanitizeSellerStringOptions: {
    refused: [[
      () => sanitizeSellerString("text", { maxByte: 2 } as never),
      "Cannot sanitize a seller string as 'options.maxByte' must be a known option (the nearest " +
      "is 'options.maxBytes'): current value is 2",
    ]],
    everyKey: [
      () =>
        sanitizeSellerString(
          "text",
          everyKey<SanitizeSellerStringOptions>({ maxBytes: undefined }),
        ),
    ],
  },
  ValidateSellerUrlOptions: {
    refused: [[
      () =>
        validateSellerUrl("https://seller.example/setup", {
          purpose: "setup_url",
          allowedHosts: ["seller.example"],
          allowedPort: [443],
        } as ValidateSellerUrlOptions),
      "Cannot validate a seller URL as 'options.allowedPort' must be a known option (the " +
      "nearest is 'options.allowedPorts'): current value is an array",
    ]],
    everyKey: [
      () =>
        validateSellerUrl("https://seller.example/setup", {
          ...everyKey<ValidateSellerUrlOptions>({
            purpose: undefined,
            allowedHosts: undefined,
            allowedPorts: undefined,
            maxLength: undefined,
          }),
          // purpose and allowedHosts are required: given.
          purpose: "setup_url",
          allowedHosts: ["seller.example"],
        }),
    ],
  },
  WrapUntrustedSellerDataOptions: {
    refused: [[
      (p) => wrapUntrustedSellerData({ message: "hi" }, { tags: p.value } as never),
      "Cannot wrap seller data as 'options.tags' must be a known option (the nearest is " +
      "'options.tag'): current value is an object",
    ]],
    everyKey: [
      () =>
        wrapUntrustedSellerData(
          { message: "hi" },
          everyKey<WrapUntrustedSellerDataOptions>({ tag: undefined, nonce: undefined }),
        ),
    ],
  },
};

/**
 * Exported `*Limits` types that no function accepts: each is the type of an exported constant
 * (what the sanitizers apply), so it has no key to refuse.
 */
const SKIPPED: Readonly<Record<string, string>> = {
  SellerStringLimits: "the type of SELLER_STRING_LIMITS, accepted by no function",
  AdcpErrorDetailsLimits: "the type of ADCP_ERROR_DETAILS_LIMITS, accepted by no function",
};

for (const [name, row] of Object.entries(ROWS)) {
  Deno.test(`${name}: an unknown key is refused, the nearest named, before any read`, () => {
    for (const [call, message] of row.refused) {
      const probe = new Probe();
      throws(() => call(probe), { name: "TypeError", message });
      probe.untouched(message);
    }
  });

  Deno.test(`${name}: every known key is accepted`, async () => {
    for (const call of row.everyKey) {
      const error = await outcome(call);
      ok(
        !(error instanceof Error) || !error.message.includes("must be a known option"),
        `refused a known key: ${error instanceof Error ? error.message : ""}`,
      );
    }
  });
}

Deno.test("the table has a row for every exported Options and Limits type", async () => {
  const entry = new URL("./mod.ts", import.meta.url);
  const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["doc", "--json", "--no-lock", entry.pathname],
    stdout: "piped",
    stderr: "piped",
  }).output();
  strictEqual(code, 0, new TextDecoder().decode(stderr));
  interface Declaration {
    kind: string;
    declarationKind: string;
    def?: { params?: unknown };
  }
  const doc = JSON.parse(new TextDecoder().decode(stdout)) as {
    nodes: Record<string, { symbols: { name: string; declarations: Declaration[] }[] }>;
  };
  const symbols = Object.values(doc.nodes).flatMap((module) => module.symbols);
  // `ResolvedJsonLimits` of _json.ts is private (not exported by mod.ts).
  const exported = symbols
    .filter((symbol) => /(Options|Limits)$/.test(symbol.name))
    .filter((symbol) =>
      symbol.declarations.some((declaration) =>
        declaration.declarationKind === "export" &&
        (declaration.kind === "interface" || declaration.kind === "typeAlias")
      )
    )
    .map((symbol) => symbol.name);
  ok(exported.length >= 8, `too few found: ${exported}`);
  deepStrictEqual(
    exported.filter((name) => !Object.hasOwn(ROWS, name) && !Object.hasOwn(SKIPPED, name)),
    [],
  );
  // A skipped type is a parameter of no exported function.
  const params = symbols.flatMap((symbol) => symbol.declarations)
    .filter((declaration) => declaration.kind === "function")
    .map((declaration) => JSON.stringify(declaration.def?.params ?? []));
  for (const name of Object.keys(SKIPPED)) {
    ok(exported.includes(name), `${name} is no longer exported`);
    deepStrictEqual(params.filter((text) => text.includes(`"${name}"`)), [], name);
  }
});

Deno.test("a misspelled JSON limit is refused, and a 0.1 name still says it was renamed", () => {
  throws(() => parseJsonStrict("{}", { maxJsonDept: 3 } as never), {
    name: "TypeError",
    message: "Cannot parse JSON strictly as 'limits.maxJsonDept' must be a known option (the " +
      "nearest is 'limits.maxJsonDepth'): current value is 3",
  });
  throws(() => toSafeJson({}, { maxNodes: 3 } as never), {
    name: "TypeError",
    message: "Cannot copy JSON as 'limits.maxNodes' must be absent (renamed 'maxJsonNodes'): " +
      "current value is 3",
  });
});

Deno.test("the string value of an unknown wrap option is not shown: it may be the nonce", () => {
  const nonce = "0123456789abcdef0123456789abcdef";
  throws(() => wrapUntrustedSellerData({}, { nonse: nonce } as never), {
    name: "TypeError",
    message: "Cannot wrap seller data as 'options.nonse' must be a known option (the nearest is " +
      `'options.nonce'): current value is "(32 characters, not shown)"`,
  });
  throws(() => wrapUntrustedSellerData({}, { ["__proto__"]: nonce } as never), {
    name: "TypeError",
    message: "Cannot wrap seller data as 'options.__proto__' must be a known option (the " +
      `nearest is 'options.tag'): current value is "(32 characters, not shown)"`,
  });
});

Deno.test("the unknown key is named by its first 64 characters", () => {
  const key = "m".repeat(65);
  throws(() => sanitizeSellerString("text", { maxBytes: 4, [key]: 1 } as never), {
    name: "TypeError",
    message: `Cannot sanitize a seller string as 'options.${"m".repeat(64)}' must be a known ` +
      "option (the nearest is 'options.maxBytes'): current value is 1",
  });
});

Deno.test("inherited and symbol keys are not options", () => {
  const inherited = <T extends object>(own: T): T =>
    Object.assign(Object.create({ bogus: 1, maxByte: 2 }), own, { [Symbol("tag")]: 3 });
  strictEqual(sanitizeSellerString("abcdef", inherited({ maxBytes: 3 })), "abc");
  strictEqual(sanitizeLogLine("a\nb", inherited({})), "a b");
  deepStrictEqual(
    decodeBase64Bounded("aGk=", inherited({ maxBytes: 2 })),
    new Uint8Array([104, 105]),
  );
  strictEqual(checkJsonBounds([[1]], inherited({ maxJsonDepth: 1 })).valid, false);
  const url = validateSellerUrl(
    "https://seller.example/setup",
    inherited({ purpose: "setup_url" as const, allowedHosts: ["seller.example"] }),
  );
  strictEqual(url.valid, true);
  ok(wrapUntrustedSellerData({}, inherited({ tag: "t" })).startsWith("<t nonce="));
});
