// Property tests of the signers and verifiers (fast-check) for the three profiles (3.2 requests,
// 3.1 requests, webhooks), over random methods, URLs (hosts, ports, paths with percent escapes and
// dot segments, queries), content types, extra headers and bodies: a signed message verifies; a
// change of any covered component fails (`*_signature_invalid`), unless it leaves the canonical
// form unchanged (then it verifies) or breaks it (`*_target_uri_malformed`); a change of any body
// byte under a covered digest is `*_signature_digest_mismatch`; a change of any character of the
// signature fields is a SignatureVerificationError of the profile, never a crash or a success.
// Every check uses a fresh verifier, so a fresh replay store (a verified nonce is burned).
import { ok, strictEqual } from "node:assert/strict";
import fc from "fast-check";
import { canonicalizeTargetUri } from "./canonicalize_target_uri.ts";
import { SignatureVerificationError, TargetUriMalformedError } from "./errors.ts";
import { RequestSigner, type SignatureFields, WebhookSigner } from "./sign.ts";
import { RequestVerifier } from "./verify_request.ts";
import { WebhookVerifier } from "./verify_webhook.ts";
import { makeKey, type TestAlg, type TestKey } from "./_test_keys.ts";

const NOW = 1_776_520_800;
const clock = () => NOW * 1000;
const RUNS = 250;

type Alg = TestAlg;
type ProfileName = "3.2" | "3.1" | "webhook";
const PROFILES: readonly ProfileName[] = ["3.2", "3.1", "webhook"];

const KEYS = [
  await makeKey("prop-ed25519", "ed25519"),
  await makeKey("prop-p256", "ecdsa-p256-sha256"),
];
const JWKS = KEYS.map((key) => key.jwk);

interface Parts {
  readonly method: string;
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Uint8Array;
}

function signerFor(profile: ProfileName, key: TestKey) {
  const base = { key: key.privateKey, keyid: key.kid, alg: key.alg, now: clock };
  return profile === "webhook" ? new WebhookSigner(base) : new RequestSigner({ ...base, profile });
}

/** A fresh verifier: a fresh replay store each time. */
function verifierFor(profile: ProfileName): RequestVerifier | WebhookVerifier {
  const base = { keys: JWKS, now: clock, revocation: null };
  return profile === "webhook"
    ? new WebhookVerifier(base)
    : new RequestVerifier({ ...base, profile });
}

function withFields(parts: Parts, fields: SignatureFields): Parts {
  const headers: Record<string, string> = { ...parts.headers };
  for (const [name, value] of Object.entries(fields)) headers[name.toLowerCase()] = value;
  return { ...parts, headers };
}

async function signParts(profile: ProfileName, key: TestKey, parts: Parts): Promise<Parts> {
  return withFields(parts, await signerFor(profile, key).sign(parts));
}

/** Verifies with a fresh verifier: the error, or undefined on success. */
async function outcome(profile: ProfileName, parts: Parts): Promise<unknown> {
  try {
    await verifierFor(profile).verify(parts);
    return undefined;
  } catch (error) {
    return error;
  }
}

function prefix(profile: ProfileName): string {
  return profile === "webhook" ? "webhook" : "request";
}

function assertCode(profile: ProfileName, error: unknown, failures: readonly string[]): void {
  ok(error instanceof SignatureVerificationError, `expected a rejection, got ${error}`);
  const codes = failures.map((f) => `${prefix(profile)}_${f}`);
  ok(codes.includes(error.code), `${error.code} is not one of ${codes.join(", ")}`);
}

// ---------------------------------------------------------------------------------------------
// Arbitraries

const label = fc.stringMatching(/^[a-z0-9]{1,10}$/);
const hostArb = fc.tuple(
  fc.array(label, { minLength: 1, maxLength: 3 }),
  fc.constantFrom("example", "test", "com"),
).map(([labels, tld]) => [...labels, tld].join("."));
const portArb = fc.option(fc.integer({ min: 1, max: 65_535 }), { nil: undefined });

const UNRESERVED = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~";
const SUB_DELIMS = "!$&'()*+,;=";
const ESCAPES = ["%20", "%2F", "%2f", "%41", "%7e", "%7E", "%25", "%C3%A9", "%3F"];
const pchar = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom(...UNRESERVED, ...SUB_DELIMS, ":", "@") },
  { weight: 1, arbitrary: fc.constantFrom(...ESCAPES) },
);
const segment = fc.oneof(
  { weight: 8, arbitrary: fc.array(pchar, { maxLength: 8 }).map((cs) => cs.join("")) },
  { weight: 1, arbitrary: fc.constantFrom(".", "..") },
);
const pathArb = fc.array(segment, { maxLength: 5 }).map((segments) => `/${segments.join("/")}`);
const queryArb = fc.option(
  fc.array(fc.oneof(pchar, fc.constantFrom("/", "?")), { maxLength: 16 }).map((cs) =>
    `?${cs.join("")}`
  ),
  { nil: "" },
);
const urlArb = fc.record({
  scheme: fc.constantFrom("https", "http"),
  host: hostArb,
  port: portArb,
  path: pathArb,
  query: queryArb,
}).map(({ scheme, host, port, path, query }) =>
  `${scheme}://${host}${port === undefined ? "" : `:${port}`}${path}${query}`
);

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "QUERY"];
const JSON_TYPES = [
  "application/json",
  "application/json; charset=utf-8",
  "application/vnd.adcp+json",
];
const OTHER_TYPES = ["text/plain", "application/octet-stream", "application/x-www-form-urlencoded"];
const jsonBody = fc.jsonValue({ maxDepth: 3 }).map((value) =>
  new TextEncoder().encode(JSON.stringify(value))
);
const extraHeaders = fc.dictionary(
  fc.constantFrom("x-request-id", "user-agent", "accept", "authorization", "x-adcp-trace"),
  fc.stringMatching(/^[!-~]{1,24}$/),
  { maxKeys: 3 },
);

/** A message the profile's signer can sign and its verifier must accept. */
function messageArb(profile: ProfileName, requireBody = false): fc.Arbitrary<Parts> {
  // Step 14 parses every body of both profiles: JSON always, under any declared type.
  const typed = profile === "webhook"
    ? fc.tuple(fc.constantFrom(...JSON_TYPES, ...OTHER_TYPES), jsonBody)
    : fc.oneof(
      fc.tuple(fc.constantFrom(...JSON_TYPES, ...OTHER_TYPES), jsonBody),
      ...(requireBody ? [] : [fc.constant(["", new Uint8Array(0)] as [string, Uint8Array])]),
    );
  return fc.record({
    method: fc.constantFrom(...METHODS),
    url: urlArb,
    typed,
    extra: extraHeaders,
  }).map(({ method, url, typed: [type, body], extra }) => ({
    method,
    url,
    headers: { ...extra, ...(type === "" ? {} : { "content-type": type }) },
    body,
  }));
}

const keyArb = fc.constantFrom(...KEYS);

/** What canonicalization says of a URL change: same, different, or malformed. */
function compareTargets(before: string, after: string): "same" | "different" | "malformed" {
  let changed;
  try {
    changed = canonicalizeTargetUri(after);
  } catch (error) {
    if (error instanceof TargetUriMalformedError) return "malformed";
    throw error;
  }
  const original = canonicalizeTargetUri(before);
  return original.targetUri === changed.targetUri && original.authority === changed.authority
    ? "same"
    : "different";
}

/** Checks the verifier's answer for a URL change against canonicalization's. */
async function checkUrlChange(profile: ProfileName, signed: Parts, url: string): Promise<string> {
  const verdict = compareTargets(signed.url, url);
  const error = await outcome(profile, { ...signed, url });
  if (verdict === "same") strictEqual(error, undefined, `${signed.url} -> ${url}: ${error}`);
  else if (verdict === "malformed") assertCode(profile, error, ["target_uri_malformed"]);
  else assertCode(profile, error, ["signature_invalid"]);
  return verdict;
}

// ---------------------------------------------------------------------------------------------
// Properties

for (const profile of PROFILES) {
  Deno.test(`property (${profile}): every signed message verifies`, async () => {
    await fc.assert(
      fc.asyncProperty(messageArb(profile), keyArb, async (parts, key) => {
        const signed = await signParts(profile, key, parts);
        const result = await verifierFor(profile).verify(signed) as {
          signer?: { keyid: string };
          body: Uint8Array;
        };
        strictEqual(result.signer?.keyid, key.kid);
        strictEqual(result.body.length, parts.body.length);
        ok(result.body.every((b, i) => b === parts.body[i]));
        // And only once.
        const verifier = verifierFor(profile);
        await verifier.verify(signed);
        const replay = await outcome(profile, signed); // another fresh store: accepted again
        strictEqual(replay, undefined);
        let replayed: unknown;
        try {
          await verifier.verify(signed);
        } catch (error) {
          replayed = error;
        }
        assertCode(profile, replayed, ["signature_replayed"]);
      }),
      { numRuns: RUNS },
    );
  });

  Deno.test(`property (${profile}): a different method fails`, async () => {
    await fc.assert(
      fc.asyncProperty(
        messageArb(profile),
        keyArb,
        fc.constantFrom(...METHODS),
        async (parts, key, method) => {
          fc.pre(method !== parts.method);
          const signed = await signParts(profile, key, parts);
          assertCode(profile, await outcome(profile, { ...signed, method }), ["signature_invalid"]);
          // Case alone is no change: @method is upper-cased.
          strictEqual(
            await outcome(profile, { ...signed, method: parts.method.toLowerCase() }),
            undefined,
          );
        },
      ),
      { numRuns: RUNS },
    );
  });

  Deno.test(`property (${profile}): a changed path/query byte fails unless canonical`, async () => {
    const replacement = fc.oneof(
      { weight: 6, arbitrary: fc.constantFrom(...UNRESERVED) },
      { weight: 2, arbitrary: fc.constantFrom(...SUB_DELIMS, ":", "@", "/", "?", "%") },
      { weight: 1, arbitrary: fc.constantFrom("#", "[", "]", "\\", "^", "`", "{", "}", "|", '"') },
    );
    const seen = { same: 0, different: 0, malformed: 0 };
    await fc.assert(
      fc.asyncProperty(
        messageArb(profile),
        keyArb,
        fc.nat(),
        replacement,
        async (parts, key, at, char) => {
          const signed = await signParts(profile, key, parts);
          // Only the path and query: from the "/" after the authority to the end.
          const start = signed.url.indexOf("/", signed.url.indexOf("//") + 2) + 1;
          const span = signed.url.length - start;
          fc.pre(span > 0);
          const i = start + (at % span);
          fc.pre(signed.url[i] !== char);
          const url = signed.url.slice(0, i) + char + signed.url.slice(i + 1);
          seen[await checkUrlChange(profile, signed, url) as keyof typeof seen]++;
        },
      ),
      { numRuns: RUNS * 2 },
    );
    // The generator reaches the interesting outcome.
    ok(seen.different > RUNS / 2, JSON.stringify(seen));
  });

  Deno.test(`property (${profile}): a changed authority fails unless canonical`, async () => {
    await fc.assert(
      fc.asyncProperty(
        messageArb(profile),
        keyArb,
        hostArb,
        portArb,
        fc.boolean(),
        async (parts, key, host, port, upper) => {
          const signed = await signParts(profile, key, parts);
          const url = new URL(signed.url);
          const authority = `${upper ? host.toUpperCase() : host}${
            port === undefined ? "" : `:${port}`
          }`;
          const changed = signed.url.replace(url.host, authority);
          fc.pre(changed !== signed.url);
          await checkUrlChange(profile, signed, changed);
          // A Host header naming the other authority is refused whatever the URL.
          const host2 = { ...signed, headers: { ...signed.headers, host: authority } };
          const verdict = compareTargets(signed.url, changed);
          const error = await outcome(profile, host2);
          if (verdict === "same") strictEqual(error, undefined);
          else assertCode(profile, error, ["target_uri_malformed"]);
        },
      ),
      { numRuns: RUNS },
    );
  });

  Deno.test(`property (${profile}): a changed content-type fails when it is covered`, async () => {
    await fc.assert(
      fc.asyncProperty(
        messageArb(profile, true),
        keyArb,
        fc.constantFrom(...JSON_TYPES, ...OTHER_TYPES, "application/json;v=2", "text/html"),
        async (parts, key, type) => {
          fc.pre(type !== parts.headers["content-type"]);
          const signed = await signParts(profile, key, parts);
          const changed = { ...signed, headers: { ...signed.headers, "content-type": type } };
          assertCode(profile, await outcome(profile, changed), ["signature_invalid"]);
          // Removing it fails too.
          const { "content-type": _, ...rest } = signed.headers;
          assertCode(profile, await outcome(profile, { ...signed, headers: rest }), [
            "signature_invalid",
          ]);
        },
      ),
      { numRuns: RUNS },
    );
  });

  Deno.test(`property (${profile}): any changed body byte is digest_mismatch`, async () => {
    await fc.assert(
      fc.asyncProperty(
        messageArb(profile, true),
        keyArb,
        fc.nat(),
        fc.integer({ min: 1, max: 255 }),
        async (parts, key, at, xor) => {
          fc.pre(parts.body.length > 0);
          const signed = await signParts(profile, key, parts);
          ok(signed.headers["content-digest"] !== undefined);
          const body = signed.body.slice();
          body[at % body.length]! ^= xor;
          assertCode(profile, await outcome(profile, { ...signed, body }), [
            "signature_digest_mismatch",
          ]);
          // Truncated or extended bodies too.
          assertCode(profile, await outcome(profile, { ...signed, body: body.subarray(1) }), [
            "signature_digest_mismatch",
          ]);
          const longer = new Uint8Array(signed.body.length + 1);
          longer.set(signed.body);
          assertCode(profile, await outcome(profile, { ...signed, body: longer }), [
            "signature_digest_mismatch",
          ]);
        },
      ),
      { numRuns: RUNS },
    );
  });

  Deno.test(`property (${profile}): a changed signature-field char never verifies`, async () => {
    const printable = fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c));
    await fc.assert(
      fc.asyncProperty(
        messageArb(profile),
        keyArb,
        fc.constantFrom("signature-input", "signature", "content-digest"),
        fc.nat(),
        fc.oneof(printable, fc.constant("")),
        async (parts, key, name, at, char) => {
          const signed = await signParts(profile, key, parts);
          const value = signed.headers[name];
          fc.pre(value !== undefined);
          const i = at % value.length;
          fc.pre(value[i] !== char);
          const changed = value.slice(0, i) + char + value.slice(i + 1);
          // Headers trim surrounding whitespace; a change there is no change.
          fc.pre(changed.trim() !== value);
          const error = await outcome(profile, {
            ...signed,
            headers: { ...signed.headers, [name]: changed },
          });
          ok(error instanceof SignatureVerificationError, `${name}: ${changed}: ${error}`);
          ok(error.code.startsWith(`${prefix(profile)}_`), error.code);
        },
      ),
      { numRuns: RUNS },
    );
  });
}
