// Verifying a signature over a 4 MiB body against hashing those bytes, which verification must
// do anyway (content-digest, step 11): the rest of the checklist (parsing, key checks, the
// signature base, one Ed25519 verify) should cost little beside it.
//
//   deno task bench (ratios with targets), or
//   deno bench --allow-read packages/signing/verify_bench.ts
//
// Target: verifying a signed 4 MiB request whose body is one JSON string (steps 1-14; the strict
// parse of step 14 is then about a copy) within 1.20x of `crypto.subtle.digest` SHA-256 of the
// same bytes. The replay store is one that records nothing, so that every iteration
// verifies the same message afresh (the state's own cost is measured by its tests). A second
// benchmark adds step 14 on a 4 MiB JSON body (a strict parse: the parse a consumer needs anyway)
// against `JSON.parse` of the same text, for reference.
import { RequestSigner } from "./sign.ts";
import { RequestVerifier } from "./verify_request.ts";
import type { ReplayStore } from "./replay.ts";

const SIZE = 4 * 1_048_576;
const NOW = 1_776_520_800_000;
const RUNS = { n: 60, warmup: 10 } as const;

const pair = await crypto.subtle.generateKey({ name: "Ed25519" }, true, [
  "sign",
  "verify",
]) as CryptoKeyPair;
const jwk = await crypto.subtle.exportKey("jwk", pair.publicKey);
const keys = [{
  ...jwk,
  kid: "bench",
  alg: "EdDSA",
  use: "sig",
  key_ops: ["verify"],
  adcp_use: "request-signing",
}];
const forgetful: ReplayStore = { capped: () => false, seen: () => false, insert: () => "inserted" };
const verifier = new RequestVerifier({ revocation: null, keys, replay: forgetful, now: () => NOW });
const signer = new RequestSigner({
  key: pair.privateKey,
  keyid: "bench",
  alg: "ed25519",
  now: () => NOW,
});

async function signed(body: Uint8Array, contentType: string) {
  const url = "https://seller.example/adcp/sync_creatives";
  const headers: Record<string, string> = { "content-type": contentType };
  const fields = await signer.sign({ method: "POST", url, headers, body });
  return {
    method: "POST",
    url,
    headers: { ...headers, ...fields } as Record<string, string>,
    body,
  };
}

// Every AdCP request body is JSON, and step 14 parses every body strictly: the body here is one
// JSON string of printable ASCII, so that the parse (a copy) costs little beside the digest.
const bytes = new Uint8Array(SIZE).map((_, i) => 0x21 + ((i * 31) % 90)).map((b) =>
  b === 0x22 || b === 0x5c ? 0x41 : b
);
bytes[0] = 0x22;
bytes[SIZE - 1] = 0x22;
const binary = await signed(bytes, "application/json");
const items: unknown[] = [];
for (let i = 0, size = 0; size < SIZE - 128; i++) {
  const item = { creative_id: `c${i}`, name: `Creative ${i}`, format: "video", weight: i % 9 };
  size += JSON.stringify(item).length + 1;
  items.push(item);
}
const jsonText = JSON.stringify({ creatives: items });
const json = await signed(new TextEncoder().encode(jsonText), "application/json");

/** What `deno task bench` (scripts/bench.ts) holds each benchmark to, against its baseline. */
export const BENCH_TARGETS: Record<string, string> = {
  "verify a signed 4 MiB request, one JSON string (steps 1-14)": "time <= 1.20x",
};

Deno.bench({
  name: "crypto.subtle.digest SHA-256 of 4 MiB",
  group: "verify-4mib",
  baseline: true,
  ...RUNS,
  async fn() {
    await crypto.subtle.digest("SHA-256", bytes);
  },
});

Deno.bench({
  name: "verify a signed 4 MiB request, one JSON string (steps 1-14)",
  group: "verify-4mib",
  ...RUNS,
  async fn() {
    const result = await verifier.verify(binary, { operation: "sync_creatives" });
    if (result.authentication !== "signature") throw new Error("not verified");
  },
});

Deno.bench({
  name: "JSON.parse of 4 MiB",
  group: "verify-4mib-json",
  baseline: true,
  ...RUNS,
  fn() {
    JSON.parse(jsonText);
  },
});

Deno.bench({
  name: "verify a signed 4 MiB JSON request (steps 1-14)",
  group: "verify-4mib-json",
  ...RUNS,
  async fn() {
    const result = await verifier.verify(json, { operation: "sync_creatives" });
    if (result.payload === undefined) throw new Error("not parsed");
  },
});
