// Every public options object of the package refuses an own key it does not know (a misspelled or
// misplaced option would otherwise pass silently, its setting left at the default), in the one
// option-error style with the nearest known option, before any fetch or body read.
import { assertNotRefusedForKey, assertRefused, everyKey, exportedOptionTypes } from "adcp-testkit";
import { deepStrictEqual, ok, rejects, strictEqual, throws } from "node:assert/strict";
import {
  fetchJwks,
  type FetchJwksOptions,
  InMemoryReplayStore,
  type InMemoryReplayStoreOptions,
  JwksError,
  JwksResolver,
  type JwksResolverOptions,
  type KeyResolver,
  RequestSigner,
  type RequestSignerOptions,
  RequestVerifier,
  type RequestVerifierOptions,
  resolveAgentJwksUri,
  type ResolveAgentJwksUriOptions,
  type ResolveKeyContext,
  RevocationList,
  type RevocationListOptions,
  type SignerOptions,
  type SignOverrides,
  StaticKeyResolver,
  type StaticKeyResolverOptions,
  type VerifyRequestOptions,
  type VerifyWebhookOptions,
  WebhookSigner,
  WebhookVerifier,
  type WebhookVerifierOptions,
} from "./mod.ts";

const JWKS_URL = "https://keys.seller.example/.well-known/jwks.json";
const AGENT_URL = "https://seller.example/mcp";
const LOCATION = { agentUrl: AGENT_URL, jwksUri: JWKS_URL };
const PARTS = { method: "POST", url: "https://seller.example/adcp", body: "{}" };
const NONCE = "AAAAAAAAAAAAAAAAAAAAAA";
const { privateKey } = await crypto.subtle.generateKey({ name: "Ed25519" }, false, [
  "sign",
  "verify",
]) as CryptoKeyPair;
const SIGNER = { key: privateKey, keyid: "k1", alg: "ed25519" } as const;

/** The side effects a refused call must not have: fetches, key lookups, body reads. */
class Probe {
  fetches = 0;
  lookups = 0;
  pulls = 0;
  readonly fetch = (): Promise<Response> => {
    this.fetches++;
    return Promise.resolve(Response.json({ keys: [] }));
  };
  readonly keys: KeyResolver = {
    resolve: () => {
      this.lookups++;
      return Promise.resolve(undefined);
    },
  };
  /** A signed-looking POST whose body counts the reads of its source. */
  readonly request: Request;

  constructor() {
    const body = new ReadableStream<Uint8Array>({
      pull: (controller) => {
        this.pulls++;
        controller.enqueue(new TextEncoder().encode("{}"));
        controller.close();
      },
    }, { highWaterMark: 0 });
    this.request = new Request("https://seller.example/adcp", {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "signature-input": 'sig1=("@method");keyid="k1"',
        "signature": "sig1=:AA==:",
      },
      body,
    });
  }

  untouched(): void {
    deepStrictEqual(
      { fetches: this.fetches, lookups: this.lookups, pulls: this.pulls },
      { fetches: 0, lookups: 0, pulls: 0 },
    );
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

/** One row per public options interface (and options-like type) of the entry point. */
const ROWS: Readonly<Record<string, Row>> = {
  FetchJwksOptions: {
    refused: (p) => fetchJwks(JWKS_URL, { fetch: p.fetch, timeoutMS: 5 } as FetchJwksOptions),
    message: "Cannot fetch the JWKS as 'options.timeoutMS' must be a known option (the nearest " +
      "is 'options.timeoutMs'): current value is 5",
    // http: is refused as untrusted after the options are read: nothing is fetched.
    everyKey: () =>
      fetchJwks(
        "http://keys.seller.example/jwks.json",
        everyKey<FetchJwksOptions>({
          fetch: undefined,
          signal: undefined,
          timeoutMs: undefined,
          maxBytes: undefined,
          allowHttp: undefined,
          allowReservedAddresses: undefined,
        }),
      ),
  },
  JwksResolverOptions: {
    refused: (p) =>
      new JwksResolver(JWKS_URL, { fetch: p.fetch, cacheTTLMs: 60_000 } as JwksResolverOptions),
    message: "Cannot create a JwksResolver as 'options.cacheTTLMs' must be a known option (the " +
      "nearest is 'options.cacheTtlMs'): current value is 60000",
    everyKey: () =>
      new JwksResolver(
        JWKS_URL,
        everyKey<JwksResolverOptions>({
          fetch: undefined,
          signal: undefined,
          timeoutMs: undefined,
          maxBytes: undefined,
          allowHttp: undefined,
          allowReservedAddresses: undefined,
          cacheTtlMs: undefined,
          refetchCooldownMs: undefined,
          negativeCacheMs: undefined,
          now: undefined,
          agentUrl: undefined,
        }),
      ),
  },
  ResolveKeyContext: {
    refused: (p) =>
      new JwksResolver(JWKS_URL, { fetch: p.fetch }).resolve(
        "k1",
        { signl: AbortSignal.timeout(1_000) } as ResolveKeyContext,
      ),
    message: "Cannot resolve a key as 'context.signl' must be a known option (the nearest is " +
      "'context.signal'): current value is an object",
    everyKey: (p) =>
      new JwksResolver(JWKS_URL, { fetch: p.fetch }).resolve(
        "k1",
        everyKey<ResolveKeyContext>({ signal: undefined }),
      ),
  },
  StaticKeyResolverOptions: {
    refused: () => new StaticKeyResolver([], { agentURL: AGENT_URL } as StaticKeyResolverOptions),
    message:
      "Cannot create a StaticKeyResolver as 'options.agentURL' must be a known option (the " +
      `nearest is 'options.agentUrl'): current value is "${AGENT_URL}"`,
    everyKey: () =>
      new StaticKeyResolver([], everyKey<StaticKeyResolverOptions>({ agentUrl: undefined })),
  },
  ResolveAgentJwksUriOptions: {
    refused: (p) =>
      resolveAgentJwksUri(
        AGENT_URL,
        { fetch: p.fetch, brandJsonURL: "https://b.example/" } as ResolveAgentJwksUriOptions,
      ),
    message: "Cannot resolve the agent's JWKS as 'options.brandJsonURL' must be a known option " +
      "(the nearest is 'options.brandJsonUrl'): current value is \"https://b.example/\"",
    // http: is refused as untrusted after the options are read: nothing is fetched.
    everyKey: () =>
      resolveAgentJwksUri(
        "http://seller.example/mcp",
        everyKey<ResolveAgentJwksUriOptions>({
          fetch: undefined,
          signal: undefined,
          timeoutMs: undefined,
          maxBytes: undefined,
          allowHttp: undefined,
          allowReservedAddresses: undefined,
          brandJsonUrl: undefined,
        }),
      ),
  },
  InMemoryReplayStoreOptions: {
    refused: () => new InMemoryReplayStore({ maxEntriesPerKeyId: 5 } as InMemoryReplayStoreOptions),
    message: "Cannot create the replay store as 'options.maxEntriesPerKeyId' must be a known " +
      "option (the nearest is 'options.maxEntriesPerKeyid'): current value is 5",
    everyKey: () =>
      new InMemoryReplayStore(everyKey<InMemoryReplayStoreOptions>({
        maxEntriesPerKeyid: undefined,
        maxEntriesPerSigner: undefined,
        maxEntries: undefined,
      })),
  },
  RevocationListOptions: {
    refused: () => new RevocationList({ clock: () => 0 } as RevocationListOptions),
    message: "Cannot create the revocation list as 'options.clock' must be a known option (the " +
      "nearest is 'options.now'): current value is a function",
    everyKey: () => new RevocationList(everyKey<RevocationListOptions>({ now: undefined })),
  },
  SignerOptions: {
    refused: () => new WebhookSigner({ ...SIGNER, validitySecond: 60 } as SignerOptions),
    message: "Cannot create the webhook signer as 'options.validitySecond' must be a known " +
      "option (the nearest is 'options.validitySeconds'): current value is 60",
    everyKey: () =>
      new WebhookSigner(everyKey<SignerOptions>({
        key: undefined,
        keyid: undefined,
        alg: undefined,
        validitySeconds: undefined,
        now: undefined,
      })),
  },
  RequestSignerOptions: {
    refused: () =>
      new RequestSigner({ ...SIGNER, coverContentDigests: false } as RequestSignerOptions),
    message: "Cannot create the request signer as 'options.coverContentDigests' must be a known " +
      "option (the nearest is 'options.coverContentDigest'): current value is false",
    everyKey: () =>
      new RequestSigner(everyKey<RequestSignerOptions>({
        key: undefined,
        keyid: undefined,
        alg: undefined,
        validitySeconds: undefined,
        now: undefined,
        profile: undefined,
        coverContentDigest: undefined,
        legacyDigestEncoding: undefined,
      })),
  },
  SignOverrides: {
    refused: (p) => new RequestSigner(SIGNER).signRequest(p.request, { nonse: NONCE } as never),
    message: "Cannot create the request signer as 'overrides.nonse' must be a known option (the " +
      `nearest is 'overrides.nonce'): current value is "${NONCE}"`,
    everyKey: () =>
      new RequestSigner(SIGNER).sign(
        PARTS,
        everyKey<SignOverrides>({
          created: undefined,
          expires: undefined,
          nonce: undefined,
          components: undefined,
        }),
      ),
  },
  RequestVerifierOptions: {
    // A capability list misplaced at the top level is suggested where it belongs.
    refused: (p) =>
      new RequestVerifier({
        keys: p.keys,
        revocation: null,
        required_for: ["create_media_buy"],
      } as RequestVerifierOptions),
    message: "Cannot create the request verifier as 'options.required_for' must be a known " +
      "option (the nearest is 'options.capability.required_for'): current value is an array",
    everyKey: () =>
      new RequestVerifier(everyKey<RequestVerifierOptions>({
        keys: undefined,
        agentUrl: undefined,
        capability: undefined,
        profile: undefined,
        replay: undefined,
        revocation: undefined,
        now: undefined,
        maxBodyBytes: undefined,
        bodyTimeoutMs: undefined,
      })),
  },
  VerifyRequestOptions: {
    refused: (p) =>
      new RequestVerifier({ keys: p.keys, revocation: null }).verify(
        p.request,
        { fallbackAuthenticate: true } as VerifyRequestOptions,
      ),
    message: "Cannot verify the request as 'options.fallbackAuthenticate' must be a known option " +
      "(the nearest is 'options.fallbackAuthenticated'): current value is true",
    everyKey: (p) =>
      new RequestVerifier({ keys: p.keys, revocation: null }).verify(
        { method: "POST", url: "https://seller.example/adcp", body: "{}" },
        everyKey<VerifyRequestOptions>({
          operation: undefined,
          protocolMethod: undefined,
          fallbackAuthenticated: undefined,
          authority: undefined,
          signal: undefined,
        }),
      ),
  },
  WebhookVerifierOptions: {
    refused: (p) =>
      new WebhookVerifier(
        { keys: p.keys, revocation: null, maxBodyByte: 1 } as WebhookVerifierOptions,
      ),
    message: "Cannot create the webhook verifier as 'options.maxBodyByte' must be a known option " +
      "(the nearest is 'options.maxBodyBytes'): current value is 1",
    everyKey: () =>
      new WebhookVerifier(everyKey<WebhookVerifierOptions>({
        keys: undefined,
        agentUrl: undefined,
        replay: undefined,
        revocation: undefined,
        now: undefined,
        maxBodyBytes: undefined,
        bodyTimeoutMs: undefined,
      })),
  },
  VerifyWebhookOptions: {
    refused: (p) =>
      new WebhookVerifier({ keys: p.keys, revocation: null }).verify(
        p.request,
        { authorty: "seller.example" } as VerifyWebhookOptions,
      ),
    message: "Cannot verify the webhook as 'options.authorty' must be a known option (the " +
      "nearest is 'options.authority'): current value is \"seller.example\"",
    everyKey: (p) =>
      new WebhookVerifier({ keys: p.keys, revocation: null }).verify(
        PARTS,
        everyKey<VerifyWebhookOptions>({ authority: undefined, signal: undefined }),
      ),
  },
};

for (const [name, row] of Object.entries(ROWS)) {
  Deno.test(`${name}: an unknown key is refused, the nearest named, before any I/O`, async () => {
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
  ok(exported.length >= 12, `too few found: ${exported}`);
  deepStrictEqual(exported.filter((name) => !Object.hasOwn(ROWS, name)), []);
});

Deno.test("a misspelled limit is refused at every layer, nothing fetched or read", async () => {
  const probe = new Probe();
  const layers: readonly (readonly [() => unknown, string])[] = [
    [
      () => fetchJwks(JWKS_URL, { fetch: probe.fetch, maxByte: 1 } as FetchJwksOptions),
      "Cannot fetch the JWKS as 'options.maxByte' must be a known option (the nearest is " +
      "'options.maxBytes'): current value is 1",
    ],
    [
      () => new JwksResolver(JWKS_URL, { fetch: probe.fetch, timeoutMS: 5 } as FetchJwksOptions),
      "Cannot create a JwksResolver as 'options.timeoutMS' must be a known option (the nearest " +
      "is 'options.timeoutMs'): current value is 5",
    ],
    [
      () => JwksResolver.forAgent(LOCATION, { fetch: probe.fetch, timeoutMS: 5 } as never),
      "Cannot create a JwksResolver as 'options.timeoutMS' must be a known option (the nearest " +
      "is 'options.timeoutMs'): current value is 5",
    ],
    [
      () =>
        resolveAgentJwksUri(
          AGENT_URL,
          { fetch: probe.fetch, maxByte: 1 } as ResolveAgentJwksUriOptions,
        ),
      "Cannot resolve the agent's JWKS as 'options.maxByte' must be a known option (the nearest " +
      "is 'options.maxBytes'): current value is 1",
    ],
    [
      () =>
        new RequestVerifier(
          { keys: probe.keys, revocation: null, bodyTimeoutMS: 5 } as RequestVerifierOptions,
        ),
      "Cannot create the request verifier as 'options.bodyTimeoutMS' must be a known option " +
      "(the nearest is 'options.bodyTimeoutMs'): current value is 5",
    ],
    [
      () => new InMemoryReplayStore({ maxEntres: 5 } as InMemoryReplayStoreOptions),
      "Cannot create the replay store as 'options.maxEntres' must be a known option (the nearest " +
      "is 'options.maxEntries'): current value is 5",
    ],
    // A verifier's body limit belongs to the verifier, not to one call.
    [
      () =>
        new RequestVerifier({ keys: probe.keys, revocation: null }).verify(
          probe.request,
          { maxBodyBytes: 1 } as VerifyRequestOptions,
        ),
      "Cannot verify the request as 'options.maxBodyBytes' must be a known option (the nearest " +
      "is 'options.authority'): current value is 1",
    ],
    [
      () =>
        new WebhookVerifier({ keys: probe.keys, revocation: null }).verify(
          probe.request,
          { maxBodyBytes: 1 } as VerifyWebhookOptions,
        ),
      "Cannot verify the webhook as 'options.maxBodyBytes' must be a known option (the nearest " +
      "is 'options.authority'): current value is 1",
    ],
  ];
  for (const [call, message] of layers) await assertRefused(call, message);
  probe.untouched();
});

Deno.test("a misplaced option is refused where it does not belong", async () => {
  // The request profile is not an option of the webhook signer.
  await assertRefused(
    () => new WebhookSigner({ ...SIGNER, profile: "3.1" } as SignerOptions),
    "Cannot create the webhook signer as 'options.profile' must be a known option (the nearest " +
      "is 'options.keyid'): current value is \"3.1\"",
  );
  // forAgent takes the agent URL from the location, never from its options.
  await assertRefused(
    () => JwksResolver.forAgent(LOCATION, { agentUrl: AGENT_URL } as never),
    "Cannot create a JwksResolver as 'options.agentUrl' must be a known option (the nearest is " +
      `'options.fetch'): current value is "${AGENT_URL}"`,
  );
});

Deno.test("sign() refuses an unknown override as signRequest() does", async () => {
  await assertRefused(
    () => new WebhookSigner(SIGNER).sign(PARTS, { expire: 1 } as SignOverrides),
    "Cannot create the webhook signer as 'overrides.expire' must be a known option (the nearest " +
      "is 'overrides.expires'): current value is 1",
  );
});

Deno.test("JwksResolver.forAgent() accepts every option it passes on to the constructor", () => {
  const resolver = JwksResolver.forAgent(
    LOCATION,
    everyKey<Omit<JwksResolverOptions, "agentUrl">>({
      fetch: undefined,
      signal: undefined,
      timeoutMs: undefined,
      maxBytes: undefined,
      allowHttp: undefined,
      allowReservedAddresses: undefined,
      cacheTtlMs: undefined,
      refetchCooldownMs: undefined,
      negativeCacheMs: undefined,
      now: undefined,
    }),
  );
  strictEqual(resolver.agentUrl, AGENT_URL);
});

Deno.test("the unknown key is named by its first 64 characters", () => {
  const key = "x".repeat(200);
  throws(
    () => new StaticKeyResolver([], { [key]: 1 } as StaticKeyResolverOptions),
    {
      name: "TypeError",
      message: `Cannot create a StaticKeyResolver as 'options.${"x".repeat(64)}' must be a known ` +
        "option (the nearest is 'options.agentUrl'): current value is 1",
    },
  );
});

Deno.test("inherited and symbol keys are not options", async () => {
  const inherited = <T extends object>(own: T): T =>
    Object.assign(Object.create({ bogus: 1, maxEntry: 2 }), own, { [Symbol("tag")]: 3 });
  const store = new InMemoryReplayStore(inherited({ maxEntriesPerKeyid: 1 }));
  strictEqual(store.insert("k1", "n1", 1_060, 1_000), "inserted");
  strictEqual(store.capped("k1", 1_000), true); // the own option applies
  const verifier = new RequestVerifier(inherited({ keys: [], revocation: null }));
  const result = await verifier.verify(PARTS, inherited({ fallbackAuthenticated: true }));
  strictEqual(result.authentication, "fallback");
  const jwks = await fetchJwks(
    JWKS_URL,
    inherited({ fetch: () => Promise.resolve(Response.json({ keys: [] })) }),
  );
  deepStrictEqual(jwks.keys, []);
  await rejects(
    fetchJwks("http://keys.example/jwks.json", inherited({})),
    (error) => error instanceof JwksError && error.reason === "untrusted",
  );
});
