// Every public options and limits object of the package refuses an own key it does not know (a
// misspelled or misplaced option would otherwise pass silently, its limit left at the default), in
// the one option-error style with the nearest known option, before any body is read.
import { assertNotRefusedForKey, assertRefused, everyKey, exportedOptionTypes } from "adcp-testkit";
import { deepStrictEqual, ok, strictEqual, throws } from "node:assert/strict";
import {
  importLegacyWebhookSecret,
  type JsonLimits,
  readWebhookBody,
  type ReadWebhookBodyOptions,
  signLegacyWebhookHmac,
  type SignLegacyWebhookHmacOptions,
  signLegacyWebhookPayload,
  type SignLegacyWebhookPayloadOptions,
  verifyLegacyWebhookHmac,
  type VerifyLegacyWebhookHmacOptions,
  WebhookDedup,
  type WebhookDedupOptions,
} from "./mod.ts";

const SECRET = await importLegacyWebhookSecret(crypto.getRandomValues(new Uint8Array(32)));
const HEADERS = { signature: `sha256=${"0".repeat(64)}`, timestamp: "1700000000" };
const BODY = new TextEncoder().encode('{"task_id":"t1"}');

/** The side effects a refused call must not have: body reads, clock and grouping calls. */
class Probe {
  pulls = 0;
  calls = 0;
  readonly now = (): number => {
    this.calls++;
    return 0;
  };
  readonly groupOf = (sender: string): string => {
    this.calls++;
    return sender;
  };
  /** A webhook POST whose body counts the reads of its source. */
  readonly request: Request;

  constructor() {
    const body = new ReadableStream<Uint8Array>({
      pull: (controller) => {
        this.pulls++;
        controller.enqueue(BODY);
        controller.close();
      },
    }, { highWaterMark: 0 });
    this.request = new Request("https://buyer.example/webhooks", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body,
    });
  }

  untouched(): void {
    deepStrictEqual({ pulls: this.pulls, calls: this.calls }, { pulls: 0, calls: 0 });
  }
}

interface Row {
  /** A call with a misspelled or misplaced key. */
  readonly refused: (probe: Probe) => unknown;
  /** Its exact message. */
  readonly message: string;
  /** A call passing every known key of the interface as `undefined`. */
  readonly everyKey: (probe: Probe) => unknown;
}

/** One row per public options or limits interface of the entry point. */
const ROWS: Readonly<Record<string, Row>> = {
  ReadWebhookBodyOptions: {
    refused: (p) => readWebhookBody(p.request, { maxBodyByte: 1 } as ReadWebhookBodyOptions),
    message: "Cannot read the webhook body as 'options.maxBodyByte' must be a known option (the " +
      "nearest is 'options.maxBodyBytes'): current value is 1",
    everyKey: () =>
      readWebhookBody(
        BODY,
        everyKey<ReadWebhookBodyOptions>({
          maxBodyBytes: undefined,
          timeoutMs: undefined,
          requireJsonContentType: undefined,
          maxJsonDepth: undefined,
          maxJsonNodes: undefined,
        }),
      ),
  },
  // Read by readWebhookBody, as a part of its options.
  JsonLimits: {
    refused: (p) => readWebhookBody(p.request, { maxJsonDept: 3 } as JsonLimits),
    message: "Cannot read the webhook body as 'options.maxJsonDept' must be a known option (the " +
      "nearest is 'options.maxJsonDepth'): current value is 3",
    everyKey: () =>
      readWebhookBody(
        BODY,
        everyKey<JsonLimits>({ maxJsonDepth: undefined, maxJsonNodes: undefined }),
      ),
  },
  WebhookDedupOptions: {
    refused: (p) =>
      new WebhookDedup({ now: p.now, groupOf: p.groupOf, ttl: 60 } as WebhookDedupOptions),
    message: "Cannot create a webhook dedup as 'options.ttl' must be a known option (the nearest " +
      "is 'options.ttlSeconds'): current value is 60",
    everyKey: () =>
      new WebhookDedup(everyKey<WebhookDedupOptions>({
        ttlSeconds: undefined,
        maxKeysPerSender: undefined,
        maxSenders: undefined,
        maxTotalKeys: undefined,
        groupOf: undefined,
        now: undefined,
      })),
  },
  SignLegacyWebhookHmacOptions: {
    refused: () =>
      signLegacyWebhookHmac("{}", { secret: SECRET, timeStamp: 1 } as SignLegacyWebhookHmacOptions),
    message: "Cannot sign a legacy webhook body as 'options.timeStamp' must be a known option " +
      "(the nearest is 'options.timestamp'): current value is 1",
    everyKey: () =>
      signLegacyWebhookHmac(
        "{}",
        everyKey<SignLegacyWebhookHmacOptions>({
          secret: undefined,
          timestamp: undefined,
          allowNonJsonBody: undefined,
        }),
      ),
  },
  SignLegacyWebhookPayloadOptions: {
    // A payload is always JSON: the body switch of signLegacyWebhookHmac has no place here.
    refused: () =>
      signLegacyWebhookPayload(
        {},
        { secret: SECRET, allowNonJsonBody: true } as SignLegacyWebhookPayloadOptions,
      ),
    message: "Cannot sign a legacy webhook payload as 'options.allowNonJsonBody' must be a known " +
      "option (the nearest is 'options.secret'): current value is true",
    everyKey: () =>
      signLegacyWebhookPayload(
        {},
        everyKey<SignLegacyWebhookPayloadOptions>({ secret: undefined, timestamp: undefined }),
      ),
  },
  VerifyLegacyWebhookHmacOptions: {
    refused: () =>
      verifyLegacyWebhookHmac(
        "{}",
        HEADERS,
        { secret: SECRET, tolerance: 60 } as VerifyLegacyWebhookHmacOptions,
      ),
    message: "Cannot verify a legacy webhook as 'options.tolerance' must be a known option (the " +
      "nearest is 'options.toleranceSeconds'): current value is 60",
    everyKey: () =>
      verifyLegacyWebhookHmac(
        "{}",
        HEADERS,
        everyKey<VerifyLegacyWebhookHmacOptions>({
          secret: undefined,
          now: undefined,
          toleranceSeconds: undefined,
          maxBodyBytes: undefined,
        }),
      ),
  },
};

for (const [name, row] of Object.entries(ROWS)) {
  Deno.test(`${name}: an unknown key is refused, the nearest named, before any read`, async () => {
    const probe = new Probe();
    await assertRefused(() => row.refused(probe), row.message);
    probe.untouched();
  });

  Deno.test(`${name}: every known key is accepted`, async () => {
    await assertNotRefusedForKey(() => row.everyKey(new Probe()));
  });
}

Deno.test("the table has a row for every exported Options and Limits type", async () => {
  // Nothing skipped: this entry point exports no `Resolved*` options or limits.
  const exported = await exportedOptionTypes(new URL("./mod.ts", import.meta.url));
  ok(exported.length >= 6, `too few found: ${exported}`);
  deepStrictEqual(exported.filter((name) => !Object.hasOwn(ROWS, name)), []);
});

Deno.test("a misspelled limit is refused at every layer it can arrive, no body read", async () => {
  const probe = new Probe();
  const layers: readonly (readonly [() => unknown, string])[] = [
    // The body limits of readWebhookBody.
    [
      () => readWebhookBody(probe.request, { timeoutMS: 5 } as ReadWebhookBodyOptions),
      "Cannot read the webhook body as 'options.timeoutMS' must be a known option (the nearest " +
      "is 'options.timeoutMs'): current value is 5",
    ],
    // Its JSON limits, under their 0.1 name too.
    [
      () => readWebhookBody(probe.request, { maxDepth: 3 } as ReadWebhookBodyOptions),
      "Cannot read the webhook body as 'options.maxDepth' must be a known option (the nearest " +
      "is 'options.maxJsonDepth'): current value is 3",
    ],
    [
      () => readWebhookBody(BODY, { maxJsonNode: 3 } as ReadWebhookBodyOptions),
      "Cannot read the webhook body as 'options.maxJsonNode' must be a known option (the " +
      "nearest is 'options.maxJsonNodes'): current value is 3",
    ],
    // The body limit of the legacy verifier.
    [
      () =>
        verifyLegacyWebhookHmac(
          "{}",
          HEADERS,
          { secret: SECRET, maxBodyByte: 1 } as VerifyLegacyWebhookHmacOptions,
        ),
      "Cannot verify a legacy webhook as 'options.maxBodyByte' must be a known option (the " +
      "nearest is 'options.maxBodyBytes'): current value is 1",
    ],
    // The capacity limits of the dedup.
    [
      () => new WebhookDedup({ maxKeysPerSendr: 1 } as WebhookDedupOptions),
      "Cannot create a webhook dedup as 'options.maxKeysPerSendr' must be a known option (the " +
      "nearest is 'options.maxKeysPerSender'): current value is 1",
    ],
  ];
  for (const [call, message] of layers) await assertRefused(call, message);
  probe.untouched();
});

Deno.test("the unknown key is named by its first 64 characters", () => {
  const key = "x".repeat(200);
  throws(
    () => new WebhookDedup({ [key]: 1 } as WebhookDedupOptions),
    {
      name: "TypeError",
      message: `Cannot create a webhook dedup as 'options.${"x".repeat(64)}' must be a known ` +
        "option (the nearest is 'options.maxKeysPerSender'): current value is 1",
    },
  );
});

Deno.test("inherited and symbol keys are not options", async () => {
  const inherited = <T extends object>(own: T): T =>
    Object.assign(Object.create({ bogus: 1, maxBodyByte: 2 }), own, { [Symbol("tag")]: 3 });
  const read = await readWebhookBody(BODY, inherited({ maxBodyBytes: 4 }));
  strictEqual(read.valid, false); // the own limit applies
  strictEqual(!read.valid && read.code, "body_too_large");
  const dedup = new WebhookDedup(inherited({ maxKeysPerSender: 1 }));
  strictEqual(dedup.claim("https://seller.example/mcp", "key_0000000000000001").status, "new");
  const signed = await signLegacyWebhookHmac("{}", inherited({ secret: SECRET, timestamp: 0 }));
  strictEqual(signed.timestamp, "0");
});
