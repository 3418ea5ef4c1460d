// How the verifiers read a body: one over maxBodyBytes (by default 1 MiB for webhooks, 4 MiB for
// requests) or slower than bodyTimeoutMs is stopped, and checklist step 14 refuses a body that does
// not parse strictly, signed (its nonce burned first) or not.
import { ok, strictEqual } from "node:assert/strict";
import {
  codeOf,
  failsWith,
  message,
  NOW,
  PROFILES,
  rejection,
  sign,
  TOOL_BODY,
  verify,
} from "./_test_verify.ts";
import { BodyTimeoutError, BodyTooLargeError } from "./errors.ts";
import { InMemoryReplayStore } from "./replay.ts";
import { RequestVerifier } from "./verify_request.ts";
import { WebhookVerifier } from "./verify_webhook.ts";

for (const profile of PROFILES) {
  Deno.test(`${profile}: a body with duplicate keys is body_malformed, nonce burned`, async () => {
    const body = profile === "webhook"
      ? '{"task_id":"t1","status":"completed","status":"failed"}'
      : '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"create_media_buy",' +
        '"arguments":{"budget":1,"budget":1000000}}}';
    const signed = await sign(profile, message(profile, body));
    const replay = new InMemoryReplayStore();
    await failsWith(verify(profile, signed, { replay }), codeOf(profile, "body_malformed"), 14);
    // Step 13 ran before step 14: a retry of the frame is a replay.
    strictEqual(replay.stats(NOW).entries, 1);
    await failsWith(verify(profile, signed, { replay }), codeOf(profile, "signature_replayed"), 12);
  });

  Deno.test(`${profile}: a JSON body that is not JSON or not UTF-8 is body_malformed`, async () => {
    const code = codeOf(profile, "body_malformed");
    await failsWith(verify(profile, await sign(profile, message(profile, "{not json"))), code, 14);
    const latin1 = message(profile);
    const bytes = new Uint8Array([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d]); // {"\xff":1}
    await failsWith(verify(profile, await sign(profile, { ...latin1, body: bytes })), code, 14);
  });
}

Deno.test("verifiers stop reading a body over maxBodyBytes", async () => {
  for (const profile of PROFILES) {
    const signed = await sign(profile);
    const error = await rejection(verify(profile, signed, { maxBodyBytes: 10 }));
    ok(error instanceof BodyTooLargeError, `${error}`);
    strictEqual(error.maxBytes, 10);
    // A streamed Request body is cancelled at the cap.
    let pulled = 0;
    let cancelled = false;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++;
        controller.enqueue(new Uint8Array(64));
      },
      cancel() {
        cancelled = true;
      },
    });
    const request = new Request(signed.url, {
      method: "POST",
      headers: signed.headers,
      body: stream,
    });
    ok(
      (await rejection(verify(profile, request, { maxBodyBytes: 1_000 }))) instanceof
        BodyTooLargeError,
    );
    ok(cancelled);
    ok(pulled < 40, `pulled ${pulled} chunks`);
    // A declared Content-Length over the cap is refused before reading.
    const declared = new Request(signed.url, {
      method: "POST",
      headers: { ...signed.headers, "content-length": "999999999" },
      body: "{}",
    });
    ok(
      (await rejection(verify(profile, declared, { maxBodyBytes: 1_000 }))) instanceof
        BodyTooLargeError,
    );
  }
});

Deno.test("verifiers stop a body that trickles past bodyTimeoutMs (BodyTimeoutError)", async () => {
  for (const profile of PROFILES) {
    let cancelled = false;
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode("{"));
      },
      cancel() {
        cancelled = true;
      },
    });
    const request = new Request("https://seller.example/adcp", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: stream,
    });
    const started = performance.now();
    const error = await rejection(verify(profile, request, { bodyTimeoutMs: 100 }));
    ok(error instanceof BodyTimeoutError, `${error}`);
    strictEqual(error.timeoutMs, 100);
    ok(performance.now() - started < 2_000);
    ok(cancelled);
  }
});

Deno.test("webhook bodies are capped at 1 MiB by default, request bodies at 4 MiB", async () => {
  const big = JSON.stringify("x".repeat(1_048_577));
  const hook = rejection(
    new WebhookVerifier({ revocation: null, keys: [] }).verify({
      method: "POST",
      url: "https://b.example/h",
      body: big,
    }),
  );
  ok((await hook) instanceof BodyTooLargeError);
  strictEqual(((await hook) as BodyTooLargeError).maxBytes, 1_048_576);
  const request = await new RequestVerifier({ revocation: null, keys: [] }).verify({
    method: "POST",
    url: "https://s.example/adcp",
    body: big,
  });
  strictEqual(request.authentication, "none");
});

Deno.test("unsigned bodies that do not parse strictly are refused", async () => {
  const required = { capability: { required_for: ["create_media_buy"] } };
  const duplicate = TOOL_BODY.replace('"id":1', '"id":1,"id":2');
  const deep = `${"[".repeat(70)}${"]".repeat(70)}`;
  for (const body of [duplicate, deep, "not json"]) {
    await failsWith(
      verify(
        "3.2",
        { ...message("3.2", body), headers: { "content-type": "text/plain" } },
        required,
      ),
      "request_body_malformed",
      0,
    );
  }
  // A JSON-RPC batch is classified element by element: the strictest mode wins.
  const batch = `[{"jsonrpc":"2.0","id":1,"method":"ping"},${TOOL_BODY}]`;
  await failsWith(verify("3.2", message("3.2", batch), required), "request_signature_required", 0);
});

Deno.test("step 14 runs on every signed body, and is never shadowed", async () => {
  const body = '{"budget":1,"budget":1000000}';
  const plain = await sign("3.2", {
    ...message("3.2", body),
    headers: { "content-type": "text/plain" },
  });
  await failsWith(verify("3.2", plain), "request_body_malformed", 14);
  const json = await sign("3.2", message("3.2", body));
  await failsWith(
    verify("3.2", json, { capability: { warn_for: ["create_media_buy"] } }, {
      operation: "create_media_buy",
      fallbackAuthenticated: true,
    }),
    "request_body_malformed",
    14,
  );
});
