// RequestVerifier's capability composition (security.mdx, "Composition with fallback
// authenticators", "Transport capability advertisement", "Downgrade and injection resistance"):
// required_for, warn_for and supported_for decide when a signature is needed, a fallback credential
// never excuses a bad signature, and a webhook authentication block always needs one.
import { strictEqual } from "node:assert/strict";
import {
  failsWith,
  flipSignatureBit,
  message,
  type Parts,
  setHeader,
  setParam,
  sign,
  type Verified,
  verified,
  verify,
} from "./_test_verify.ts";

const REQUIRED = { capability: { required_for: ["create_media_buy"] } };

Deno.test("required_for: unsigned without a credential is request_signature_required", async () => {
  const unsigned = message("3.2");
  await failsWith(verify("3.2", unsigned, REQUIRED), "request_signature_required", 0);
  // The operation may be given instead of read from the body.
  await failsWith(
    verify("3.2", { ...unsigned, body: "{}" }, REQUIRED, { operation: "create_media_buy" }),
    "request_signature_required",
    0,
  );
  // A non-boolean credential flag is no credential.
  await failsWith(
    verify("3.2", unsigned, REQUIRED, {
      fallbackAuthenticated: "yes" as unknown as boolean,
    }),
    "request_signature_required",
    0,
  );
});

Deno.test("required_for: unsigned with a fallback credential passes, no signer", async () => {
  const result = await verify("3.2", message("3.2"), REQUIRED, {
    fallbackAuthenticated: true,
  }) as Verified;
  strictEqual(result.authentication, "fallback");
  strictEqual(result.signer, undefined);
  strictEqual(result.warning, undefined);
  strictEqual(result.operation, "create_media_buy");
  strictEqual(result.payload, undefined);
});

Deno.test("an unlisted operation may be unsigned: authentication none", async () => {
  const result = await verify("3.2", message("3.2")) as Verified;
  strictEqual(result.authentication, "none");
  strictEqual(result.signer, undefined);
  const other = await verify("3.2", message("3.2"), REQUIRED, { operation: "get_products" });
  strictEqual((other as Verified).authentication, "none");
});

Deno.test("required_for: a signed request is judged on its merits, fallback or not", async () => {
  const signed = await sign("3.2");
  const ok1 = await verified("3.2", signed, REQUIRED, { fallbackAuthenticated: true });
  strictEqual(ok1.operation, "create_media_buy");
  await failsWith(
    verify("3.2", flipSignatureBit("3.2", signed, 3), REQUIRED, { fallbackAuthenticated: true }),
    "request_signature_invalid",
    10,
  );
  // Outside required_for too.
  await failsWith(
    verify("3.2", flipSignatureBit("3.2", signed, 3), {}, { fallbackAuthenticated: true }),
    "request_signature_invalid",
    10,
  );
});

Deno.test("a malformed signature blocks fallback for any operation", async () => {
  const signed = setHeader(await sign("3.2"), "signature-input", "sig1=(");
  for (const operation of ["create_media_buy", "get_products"]) {
    await failsWith(
      verify("3.2", signed, REQUIRED, { operation, fallbackAuthenticated: true }),
      "request_signature_header_malformed",
      1,
    );
  }
});

Deno.test("warn_for: failures come back as a warning and never a signer", async () => {
  const warn = { capability: { warn_for: ["create_media_buy"] } };
  // Unsigned.
  const unsigned = await verify("3.2", message("3.2"), warn) as Verified;
  strictEqual(unsigned.authentication, "none");
  strictEqual(unsigned.warning, "request_signature_required");
  strictEqual(unsigned.signer, undefined);
  const unsignedFallback = await verify("3.2", message("3.2"), warn, {
    fallbackAuthenticated: true,
  }) as Verified;
  strictEqual(unsignedFallback.authentication, "fallback");
  strictEqual(unsignedFallback.warning, "request_signature_required");
  // Well-formed signatures that fail.
  const signed = await sign("3.2");
  const failures: [Parts, string][] = [
    [flipSignatureBit("3.2", signed, 9), "request_signature_invalid"],
    [
      { ...signed, body: (signed.body as string).replace("1000", "9999") },
      "request_signature_digest_mismatch",
    ],
    [setParam(signed, "tag", '"x"'), "request_signature_tag_invalid"],
    [
      await sign("3.2", undefined, {
        components: ["@method", "@target-uri", "@authority", "content-type"],
      }),
      "request_signature_components_incomplete",
    ],
  ];
  for (const [parts, code] of failures) {
    for (const fallbackAuthenticated of [false, true]) {
      const result = await verify("3.2", parts, warn, { fallbackAuthenticated }) as Verified;
      strictEqual(result.warning, code);
      strictEqual(result.signer, undefined);
      strictEqual(result.payload, undefined);
      strictEqual(result.authentication, fallbackAuthenticated ? "fallback" : "none");
    }
  }
  // A valid signature in shadow mode still establishes the signer.
  const good = await verified("3.2", signed, warn);
  strictEqual(good.warning, undefined);
  // Malformed or partial pairs still hard-reject.
  await failsWith(
    verify("3.2", setHeader(signed, "signature-input", "sig1=("), warn, {
      fallbackAuthenticated: true,
    }),
    "request_signature_header_malformed",
  );
  await failsWith(
    verify("3.2", setHeader(signed, "signature", undefined), warn, { fallbackAuthenticated: true }),
    "request_signature_header_malformed",
  );
});

Deno.test("required_for wins over warn_for and supported_for", async () => {
  const both = {
    capability: {
      required_for: ["create_media_buy"],
      warn_for: ["create_media_buy"],
      supported_for: ["create_media_buy"],
    },
  };
  await failsWith(verify("3.2", message("3.2"), both), "request_signature_required", 0);
  const warnSupported = {
    capability: { warn_for: ["create_media_buy"], supported_for: ["create_media_buy"] },
  };
  strictEqual(
    (await verify("3.2", message("3.2"), warnSupported) as Verified).warning,
    "request_signature_required",
  );
});

Deno.test("supported_for: unsigned passes; a bad signature is rejected", async () => {
  const supported = { capability: { supported_for: ["create_media_buy"] } };
  strictEqual((await verify("3.2", message("3.2"), supported) as Verified).authentication, "none");
  await failsWith(
    verify("3.2", flipSignatureBit("3.2", await sign("3.2"), 1), supported),
    "request_signature_invalid",
    10,
  );
});

Deno.test("supported: false ignores signatures, even broken ones", async () => {
  const off = { capability: { supported: false, required_for: ["create_media_buy"] } };
  const broken = setHeader(await sign("3.2"), "signature-input", "sig1=(");
  const result = await verify("3.2", broken, off, { fallbackAuthenticated: true }) as Verified;
  strictEqual(result.authentication, "fallback");
  strictEqual(result.signer, undefined);
  strictEqual((await verify("3.2", message("3.2"), off) as Verified).authentication, "none");
});

const CANCEL_BODY = JSON.stringify({
  jsonrpc: "2.0",
  id: 7,
  method: "tasks/cancel",
  params: { id: "task_1" },
});

Deno.test("protocol_methods_required_for: the JSON-RPC method is read from the body", async () => {
  const env = { capability: { protocol_methods_required_for: ["tasks/cancel"] } };
  const unsigned = message("3.2", CANCEL_BODY);
  await failsWith(verify("3.2", unsigned, env), "request_signature_required", 0);
  const fallback = await verify("3.2", unsigned, env, { fallbackAuthenticated: true }) as Verified;
  strictEqual(fallback.authentication, "fallback");
  strictEqual(fallback.protocolMethod, "tasks/cancel");
  strictEqual(fallback.operation, undefined);
  const signed = await verified("3.2", await sign("3.2", unsigned), env);
  strictEqual(signed.protocolMethod, "tasks/cancel");
  // The protocolMethod option is used as given.
  await failsWith(
    verify("3.2", { ...unsigned, body: "{}" }, env, { protocolMethod: "tasks/cancel" }),
    "request_signature_required",
    0,
  );
});

Deno.test("protocol_methods_warn_for: an unsigned method comes back with a warning", async () => {
  const env = { capability: { protocol_methods_warn_for: ["tasks/cancel"] } };
  const result = await verify("3.2", message("3.2", CANCEL_BODY), env) as Verified;
  strictEqual(result.warning, "request_signature_required");
  strictEqual(result.authentication, "none");
});

Deno.test("no cross-namespace match: a tools/call named tasks/cancel is not it", async () => {
  const env = { capability: { protocol_methods_required_for: ["tasks/cancel"] } };
  const body = JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: { name: "tasks/cancel", arguments: {} },
  });
  const result = await verify("3.2", message("3.2", body), env) as Verified;
  strictEqual(result.authentication, "none");
  strictEqual(result.protocolMethod, undefined);
  // And a JSON-RPC method named like an operation is not that operation.
  const rpc = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "create_media_buy", params: {} });
  const other = await verify("3.2", message("3.2", rpc), REQUIRED) as Verified;
  strictEqual(other.authentication, "none");
  strictEqual(other.operation, undefined);
  strictEqual(other.protocolMethod, "create_media_buy");
});

Deno.test("non-JSON-RPC bodies name no operation; non-strict JSON is refused", async () => {
  for (
    const body of [
      '{"jsonrpc":"1.0","method":"tools/call","params":{"name":"create_media_buy"}}',
      '{"method":"tools/call","params":{"name":"create_media_buy"}}',
      '{"jsonrpc":"2.0","method":"tools/call","params":{"name":7}}',
    ]
  ) {
    const result = await verify("3.2", message("3.2", body), REQUIRED) as Verified;
    strictEqual(result.authentication, "none", body);
    strictEqual(result.operation, undefined, body);
  }
  for (
    const body of [
      "not json",
      '{"jsonrpc":"2.0","method":"tools/call","params":{"name":"create_media_buy","name":"x"}}',
    ]
  ) {
    await failsWith(verify("3.2", message("3.2", body), REQUIRED), "request_body_malformed", 0);
  }
  // The operation of a text/plain body is read all the same.
  const plain = { ...message("3.2"), headers: { "content-type": "text/plain" } };
  await failsWith(verify("3.2", plain, REQUIRED), "request_signature_required", 0);
});

Deno.test("an unsigned webhook authentication block is signature_required, always", async () => {
  const auth = { schemes: ["HMAC-SHA256"], credentials: "x".repeat(32) };
  const bodies = [
    // tools/call arguments.
    {
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: {
        name: "create_media_buy",
        arguments: {
          push_notification_config: { url: "https://b.example/h", authentication: auth },
        },
      },
    },
    // accounts[].notification_configs[].
    {
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: {
        name: "sync_accounts",
        arguments: {
          accounts: [{
            notification_configs: [{ url: "https://b.example/h" }, { authentication: auth }],
          }],
        },
      },
    },
    // sync_agent_notification_configs.
    {
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: {
        name: "sync_agent_notification_configs",
        arguments: { notification_configs: [{ url: "https://b.example/h", authentication: auth }] },
      },
    },
    // A plain JSON body (A2A or REST-style routes).
    { push_notification_config: { url: "https://b.example/h", authentication: auth } },
    // A2A message params.
    {
      jsonrpc: "2.0",
      id: 1,
      method: "message/send",
      params: { configuration: { push_notification_config: { authentication: auth } } },
    },
  ];
  for (const body of bodies) {
    for (const fallbackAuthenticated of [false, true]) {
      await failsWith(
        verify("3.2", message("3.2", JSON.stringify(body)), {}, { fallbackAuthenticated }),
        "request_signature_required",
        0,
      );
      await failsWith(
        verify("3.2", message("3.2", JSON.stringify(body)), {}, {
          fallbackAuthenticated,
          operation: "create_media_buy",
        }),
        "request_signature_required",
        0,
      );
    }
    // Signed, it passes.
    await verified("3.2", await sign("3.2", message("3.2", JSON.stringify(body))));
  }
  // A null or absent authentication is no block.
  const none = {
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: {
      name: "create_media_buy",
      arguments: { push_notification_config: { url: "https://b.example/h", authentication: null } },
    },
  };
  strictEqual(
    (await verify("3.2", message("3.2", JSON.stringify(none))) as Verified).authentication,
    "none",
  );
});

Deno.test({
  name: "a webhook authentication block requires a signature when operation and method are given",
  async fn() {
    const body = JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: {
        name: "create_media_buy",
        arguments: { push_notification_config: { url: "https://b.example/h", authentication: {} } },
      },
    });
    await failsWith(
      verify("3.2", message("3.2", body), {}, {
        operation: "create_media_buy",
        protocolMethod: "tools/call",
        fallbackAuthenticated: true,
      }),
      "request_signature_required",
      0,
    );
  },
});

Deno.test({
  name: "a webhook authentication block in a JSON array body requires a signature",
  async fn() {
    const body = JSON.stringify([{
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: {
        name: "create_media_buy",
        arguments: { push_notification_config: { url: "https://b.example/h", authentication: {} } },
      },
    }]);
    await failsWith(
      verify("3.2", message("3.2", body), {}, { fallbackAuthenticated: true }),
      "request_signature_required",
      0,
    );
  },
});

Deno.test({
  name: "a webhook authentication block nested deeper than 32 levels still requires a signature",
  async fn() {
    let inner: unknown = {
      push_notification_config: { url: "https://b.example/h", authentication: {} },
    };
    for (let i = 0; i < 40; i++) inner = { ext: inner };
    const body = JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "create_media_buy", arguments: inner },
    });
    await failsWith(
      verify("3.2", message("3.2", body), {}, { fallbackAuthenticated: true }),
      "request_signature_required",
      0,
    );
  },
});

const AUTH_TOOL_BODY = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "tools/call",
  params: {
    name: "create_media_buy",
    arguments: {
      plan_id: "p1",
      push_notification_config: { url: "https://b.example/h", authentication: { x: 1 } },
    },
  },
});

Deno.test("warn_for: an authentication block injected into a signed request", async () => {
  const signed = await sign("3.2"); // a valid signature over TOOL_BODY
  const injected = { ...signed, body: AUTH_TOOL_BODY }; // the digest no longer matches
  await failsWith(
    verify("3.2", injected, { capability: { warn_for: ["create_media_buy"] } }, {
      fallbackAuthenticated: true,
    }),
    "request_signature_required",
    0,
  );
});
