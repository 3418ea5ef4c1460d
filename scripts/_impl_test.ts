import { deepStrictEqual, ok } from "node:assert/strict";
import { handleRequest } from "./_impl.ts";
import { LOCAL_VECTORS_DIR } from "./_sources.ts";
import { requestSigningSuite, webhookSigningSuite } from "./_suites/message_signing.ts";
import type { SuiteName, VectorRequest } from "./_vectors.ts";

function request(suite: SuiteName, input: unknown): VectorRequest {
  return { suite, id: "t", input, options: null };
}

async function localVector(file: string, id: string, signing = requestSigningSuite) {
  const doc = JSON.parse(await Deno.readTextFile(`${LOCAL_VECTORS_DIR}/${file}`));
  const v = (signing.collect!(doc) as Record<string, unknown>[]).find((x) => x.id === id);
  ok(v, `${file}#${id}`);
  return signing.input(v);
}

Deno.test("handleRequest() replies a signing failure with the spec's code", async () => {
  deepStrictEqual(
    await handleRequest(
      request(
        "request-signing",
        await localVector("request-signing.json", "negative/host-header-other-vhost"),
      ),
    ),
    { error: { code: "request_target_uri_malformed" } },
  );
  deepStrictEqual(
    await handleRequest(
      request(
        "webhook-signing",
        await localVector(
          "webhook-signing.json",
          "negative/duplicate-keys-body",
          webhookSigningSuite,
        ),
      ),
    ),
    { error: { code: "webhook_body_malformed" } },
  );
  deepStrictEqual(
    await handleRequest(request("target-uri-canonicalization", { url: "https://[fe80::1%25x]/" })),
    { error: { code: "request_target_uri_malformed" } },
  );
});

Deno.test("handleRequest() answers a verified request with its signer", async () => {
  const reply = await handleRequest(
    request(
      "request-signing",
      await localVector("request-signing.json", "positive/userinfo-stripped"),
    ),
  );
  ok("result" in reply, JSON.stringify(reply));
  const result = reply.result as Record<string, unknown>;
  deepStrictEqual([result.verified, result.authentication, result.keyid], [
    true,
    "signature",
    "test-ed25519-2026",
  ]);
  ok(String(result.signature_base).includes('"@target-uri": https://seller.example.com/adcp/'));
});

Deno.test("handleRequest() answers hostile signing input with an error reply", async () => {
  const hostile: [SuiteName, unknown][] = [
    ["request-signing", null],
    ["request-signing", "text"],
    ["request-signing", { now: "soon", request: {} }],
    ["request-signing", { now: 1, request: { method: "POST", url: 7, headers: {}, body: "" } }],
    ["request-signing", {
      now: 1,
      request: { method: "POST", url: "https://a.example/", headers: [], body: "" },
    }],
    ["request-signing", {
      now: 1,
      request: { method: "POST", url: "https://a.example/", headers: {}, body: "" },
      jwks: "not a set",
    }],
    ["webhook-signing", { now: 1, request: null }],
    ["webhook-signing", {
      now: 1,
      request: { method: "POST", url: "https://a.example/", headers: {}, body: "" },
      jwks: { keys: [] },
      state: "not an object",
    }],
    ["target-uri-canonicalization", { url: 42 }],
    ["target-uri-canonicalization", { url: "x".repeat(100_000) }],
    ["body-integrity-policy", { mode: "no_such_mode" }],
    ["body-integrity-policy", []],
  ];
  for (const [suite, input] of hostile) {
    const reply = await handleRequest(request(suite, input));
    ok(
      "error" in reply && typeof reply.error.code === "string" && reply.error.code !== "",
      `${suite} ${JSON.stringify(input)?.slice(0, 80)}: ${JSON.stringify(reply)}`,
    );
  }
});

Deno.test("handleRequest() skips a suite it does not know", async () => {
  deepStrictEqual(
    await handleRequest({ suite: "nope" as SuiteName, id: "t", input: null, options: null }),
    { skip: 'no such suite here: "nope"' },
  );
});
