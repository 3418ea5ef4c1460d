// The clients sign every request when given a signer; a seller verifies each with one call.
import { deepStrictEqual, ok, rejects, strictEqual, throws } from "node:assert/strict";
import { withRetry } from "@adcp-wire/recovery";
import {
  RequestSigner,
  RequestVerifier,
  SignatureVerificationError,
  SigningFailedError,
} from "@adcp-wire/signing";
import { NetworkError } from "../errors.ts";
import { A2AClient, fetchAgentCard } from "../a2a/mod.ts";
import { AdcpAgent, connectAgent } from "../agent/mod.ts";
import { McpClient } from "../mcp/mod.ts";
import { adcpSuccessResult } from "../seller/mod.ts";
import { fakeA2AAgent, fakeMcpAgent } from "../testing/mod.ts";
import type { FetchLike } from "../read/bounded_fetch.ts";

async function keyPair(kid: string) {
  const pair = await crypto.subtle.generateKey({ name: "Ed25519" }, true, [
    "sign",
    "verify",
  ]) as CryptoKeyPair;
  const jwk = await crypto.subtle.exportKey("jwk", pair.publicKey);
  return {
    signer: new RequestSigner({ key: pair.privateKey, keyid: kid, alg: "ed25519" }),
    jwk: {
      ...jwk,
      kid,
      alg: "EdDSA",
      use: "sig",
      key_ops: ["verify"],
      adcp_use: "request-signing",
    },
  };
}

/** A seller front: verifies every request, records the outcome, then hands it to `inner`. */
function verifyingSeller(verifier: RequestVerifier, inner: FetchLike) {
  const seen: string[] = [];
  const fetch: FetchLike = async (input, init) => {
    const request = new Request(input, init);
    try {
      const result = await verifier.verify(request.clone());
      seen.push(`${result.authentication}:${result.operation ?? result.protocolMethod ?? "-"}`);
    } catch (error) {
      if (!(error instanceof SignatureVerificationError)) throw error;
      seen.push(error.code);
      return new Response(null, {
        status: 401,
        headers: { "www-authenticate": error.wwwAuthenticate },
      });
    }
    return inner(request);
  };
  return { fetch, seen };
}

Deno.test("McpClient with a signer: every request verifies as signed, body bound", async () => {
  const { signer, jwk } = await keyPair("buyer-1");
  const verifier = new RequestVerifier({
    revocation: null,
    keys: [jwk],
    capability: { required_for: ["create_media_buy"] },
  });
  const seller = verifyingSeller(
    verifier,
    fakeMcpAgent({ tools: { create_media_buy: () => adcpSuccessResult({ media_buy_id: "mb" }) } }),
  );
  const client = new McpClient("https://seller.example/mcp", { fetch: seller.fetch, signer });
  const result = await client.callTool("create_media_buy", { plan_id: "p" });
  deepStrictEqual(result, { kind: "success", data: { media_buy_id: "mb" } });
  deepStrictEqual(seller.seen, [
    "signature:initialize",
    "signature:notifications/initialized",
    "signature:create_media_buy",
  ]);
});

Deno.test("McpClient without a signer is refused by a seller that requires signing", async () => {
  const { jwk } = await keyPair("buyer-1");
  const verifier = new RequestVerifier({
    revocation: null,
    keys: [jwk],
    capability: { required_for: ["create_media_buy"] },
  });
  const seller = verifyingSeller(
    verifier,
    fakeMcpAgent({ tools: { create_media_buy: () => adcpSuccessResult({}) } }),
  );
  const client = new McpClient("https://seller.example/mcp", { fetch: seller.fetch });
  await rejects(client.callTool("create_media_buy", {}));
  strictEqual(seller.seen.at(-1), "request_signature_required");
});

Deno.test("A2AClient with a signer: the invocation verifies as signed", async () => {
  const { signer, jwk } = await keyPair("buyer-2");
  const verifier = new RequestVerifier({ revocation: null, keys: [jwk] });
  const agent = fakeA2AAgent({ skills: { get_products: (input) => ({ data: { echo: input } }) } });
  const seller = verifyingSeller(verifier, agent.fetch);
  const card = await fetchAgentCard(agent.cardUrl, { fetch: agent.fetch });
  const client = new A2AClient(card, { fetch: seller.fetch, signer });
  const result = await client.sendMessage(client.invocation("get_products", { brief: "CTV" }));
  ok(result.kind === "success");
  deepStrictEqual(seller.seen, ["signature:SendMessage"]);
});

Deno.test("a signer option that is not a signer is a TypeError naming it", () => {
  let message = "";
  try {
    new McpClient("https://seller.example/mcp", { signer: {} as never });
  } catch (error) {
    message = (error as Error).message;
    ok(error instanceof TypeError);
  }
  ok(message.includes("'options.signer' must be a RequestSigner"), message);
});

Deno.test("over real HTTP: a seller behind Deno.serve verifies every signed request", async () => {
  const { signer, jwk } = await keyPair("buyer-3");
  const verifier = new RequestVerifier({
    revocation: null,
    keys: [jwk],
    capability: { required_for: ["create_media_buy"] },
  });
  const agent = fakeMcpAgent({
    tools: { create_media_buy: () => adcpSuccessResult({ media_buy_id: "mb" }) },
  });
  const seen: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (request) => {
    // The request as received: its URL and Host header come from the wire.
    try {
      const result = await verifier.verify(request.clone());
      seen.push(`${result.authentication}:${request.headers.get("host") !== null}`);
    } catch (error) {
      seen.push((error as SignatureVerificationError).code);
      return new Response(null, { status: 401 });
    }
    return agent(request);
  });
  try {
    const url = `http://127.0.0.1:${server.addr.port}/mcp`;
    let last: Request | undefined;
    const recording = (input: string | URL | Request, init?: RequestInit) => {
      const request = new Request(input, init);
      last = request.clone();
      return fetch(request);
    };
    const client = new McpClient(url, { signer, fetch: recording });
    const result = await client.callTool("create_media_buy", { plan_id: "p" });
    deepStrictEqual(result, { kind: "success", data: { media_buy_id: "mb" } });
    deepStrictEqual(seen, ["signature:true", "signature:true", "signature:true"]);
    // The same signed bytes sent again are refused: the nonce is burned.
    const replayed = await fetch(last!);
    await replayed.body?.cancel();
    strictEqual(replayed.status, 401);
    strictEqual(seen.at(-1), "request_signature_replayed");
  } finally {
    await server.shutdown();
  }
});

Deno.test("connectAgent passes the signer on: the agent's calls verify as signed", async () => {
  const { signer, jwk } = await keyPair("buyer-3");
  const verifier = new RequestVerifier({ revocation: null, keys: [jwk] });
  const mcp = verifyingSeller(
    verifier,
    fakeMcpAgent({ tools: { get_products: () => adcpSuccessResult({ products: [] }) } }),
  );
  // The card probe is an unsigned GET, refused with 401: the origin is taken to speak MCP.
  const agent = await connectAgent("https://seller.example/mcp", { fetch: mcp.fetch, signer });
  strictEqual(agent.protocol, "mcp");
  const result = await agent.call("get_products", { buying_mode: "brief", brief: "CTV" });
  ok(result.kind === "success");
  deepStrictEqual(mcp.seen.slice(1), [
    "signature:initialize",
    "signature:notifications/initialized",
    "signature:get_products",
  ]);
  const a2a = fakeA2AAgent({ skills: { get_products: () => ({ data: { products: [] } }) } });
  const front = verifyingSeller(verifier, a2a.fetch);
  const card = await fetchAgentCard(a2a.cardUrl, { fetch: a2a.fetch });
  const a2aAgent = new AdcpAgent(new A2AClient(card, { fetch: front.fetch, signer }));
  ok(
    (await a2aAgent.call("get_products", { buying_mode: "brief", brief: "CTV" })).kind ===
      "success",
  );
  deepStrictEqual(front.seen, ["signature:SendMessage"]);
});

// ---------------------------------------------------------------------------------------------
// A signer that cannot sign: refused when it is made, or a local failure that is never retried.

/** Retry at once, without waiting, up to 3 times. */
const FAST_RETRY = { maxRetries: 3, sleep: () => Promise.resolve() } as const;

/** Runs `body` with `crypto.subtle.sign` rejecting as Web Crypto does for an unusable key. */
async function withFailingSign(body: () => Promise<void>): Promise<void> {
  const subtle = crypto.subtle as unknown as { sign: unknown };
  const original = subtle.sign;
  subtle.sign = () => Promise.reject(new DOMException("Key not usable", "InvalidAccessError"));
  try {
    await body();
  } finally {
    subtle.sign = original;
  }
}

/** A signer that counts its calls, signing with `inner`. */
function counting(inner: Pick<RequestSigner, "signRequest">) {
  const counter = { signs: 0 };
  const signer = {
    signRequest(request: Request) {
      counter.signs++;
      return inner.signRequest(request);
    },
  };
  return { signer, counter };
}

/** A fetch that counts what reaches it, answering with `inner`. */
function countingFetch(inner: FetchLike) {
  const counter = { sent: 0 };
  const fetch: FetchLike = (input, init) => {
    counter.sent++;
    return inner(input, init);
  };
  return { fetch, counter };
}

Deno.test("a signer holding a public key is a TypeError naming the key", async () => {
  const pair = await crypto.subtle.generateKey({ name: "Ed25519" }, true, [
    "sign",
    "verify",
  ]) as CryptoKeyPair;
  throws(
    () => new RequestSigner({ key: pair.publicKey, keyid: "k", alg: "ed25519" }),
    (error: unknown) =>
      error instanceof TypeError &&
      error.message.startsWith("Cannot create the request signer as 'key.type' must be"),
  );
  // A P-256 key under alg ed25519, too.
  const ec = await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, false, [
    "sign",
    "verify",
  ]) as CryptoKeyPair;
  throws(
    () => new RequestSigner({ key: ec.privateKey, keyid: "k", alg: "ed25519" }),
    (error: unknown) => error instanceof TypeError && error.message.includes("'key.algorithm'"),
  );
});

Deno.test("McpClient: a signing failure is SigningFailedError, never retried", async () => {
  const { signer: real } = await keyPair("buyer-9");
  const { signer, counter } = counting(real);
  const seller = countingFetch(
    fakeMcpAgent({ tools: { get_products: () => adcpSuccessResult({ products: [] }) } }),
  );
  const client = new McpClient("https://seller.example/mcp", {
    fetch: seller.fetch,
    signer,
    retry: FAST_RETRY,
  });
  await withFailingSign(async () => {
    const error = await client.callTool("get_products", {}).then(() => undefined, (e) => e);
    ok(error instanceof SigningFailedError, String(error));
    ok(!(error instanceof NetworkError));
    strictEqual(error.phase, "sign");
    strictEqual(error.keyid, "buyer-9");
    ok(error.cause instanceof DOMException);
  });
  strictEqual(counter.signs, 1);
  strictEqual(seller.counter.sent, 0);
  // Web Crypto working again, the same client signs and is answered.
  const result = await client.callTool("get_products", {});
  ok(result.kind === "success");
});

Deno.test("the client retries a network failure (the control)", async () => {
  const { signer } = await keyPair("buyer-10");
  const down = countingFetch(() => Promise.reject(new TypeError("connection refused")));
  const client = new McpClient("https://seller.example/mcp", {
    fetch: down.fetch,
    signer,
    retry: FAST_RETRY,
  });
  await rejects(client.callTool("get_products", {}), NetworkError);
  strictEqual(down.counter.sent, 4); // 1 + 3 retries
});

Deno.test("A2AClient: a signing failure is SigningFailedError, never retried", async () => {
  const { signer: real } = await keyPair("buyer-11");
  const { signer, counter } = counting(real);
  const agent = fakeA2AAgent({ skills: { get_products: () => ({ data: { products: [] } }) } });
  const card = await fetchAgentCard(agent.cardUrl, { fetch: agent.fetch });
  const client = new A2AClient(card, { fetch: agent.fetch, signer, retry: FAST_RETRY });
  await withFailingSign(async () => {
    await rejects(
      client.sendMessage(client.invocation("get_products", { brief: "CTV" })),
      (e: unknown) => e instanceof SigningFailedError && !(e instanceof NetworkError),
    );
  });
  strictEqual(counter.signs, 1);
});

Deno.test("AdcpAgent.call: a signing failure is failed, with no retry decision", async () => {
  const { signer: real } = await keyPair("buyer-12");
  const { signer, counter } = counting(real);
  const seller = countingFetch(
    fakeMcpAgent({ tools: { get_products: () => adcpSuccessResult({ products: [] }) } }),
  );
  const agent = new AdcpAgent(
    new McpClient("https://seller.example/mcp", {
      fetch: seller.fetch,
      signer,
      retry: FAST_RETRY,
    }),
  );
  await withFailingSign(async () => {
    const result = await agent.call("get_products", { buying_mode: "brief", brief: "CTV" });
    strictEqual(result.kind, "failed");
    ok(result.kind === "failed");
    ok(result.error instanceof SigningFailedError, String(result.error));
    strictEqual(result.decision, null);
  });
  strictEqual(counter.signs, 1);
  strictEqual(seller.counter.sent, 0);
});

Deno.test("withRetry around a client does not retry a signing failure", async () => {
  const { signer: real } = await keyPair("buyer-13");
  const { signer, counter } = counting(real);
  const client = new McpClient("https://seller.example/mcp", {
    fetch: fakeMcpAgent({ tools: {} }),
    signer,
  });
  let attempts = 0;
  await withFailingSign(async () => {
    await rejects(
      withRetry(() => {
        attempts++;
        return client.callTool("get_products", {});
      }, { policy: FAST_RETRY }),
      SigningFailedError,
    );
  });
  strictEqual(attempts, 1);
  strictEqual(counter.signs, 1);
});

Deno.test("a custom signer that throws is SigningFailedError (cause kept)", async () => {
  const thrown = new TypeError("no key loaded");
  const signer = { signRequest: () => Promise.reject(thrown) };
  const seller = countingFetch(fakeMcpAgent({ tools: {} }));
  const client = new McpClient("https://seller.example/mcp", {
    fetch: seller.fetch,
    signer,
    retry: FAST_RETRY,
  });
  const error = await client.callTool("get_products", {}).then(() => undefined, (e) => e);
  ok(error instanceof SigningFailedError, String(error));
  strictEqual(error.cause, thrown);
  strictEqual(error.keyid, undefined);
  strictEqual(seller.counter.sent, 0);
});

Deno.test("a request to https://h:/p is signed as https://h/p and verifies", async () => {
  const { signer, jwk } = await keyPair("buyer-14");
  // A fresh verifier for each check: each has its own replay cache.
  const verifier = () => new RequestVerifier({ revocation: null, keys: [jwk] });
  // The message parts as a server without Request objects holds them: the URL and Host header
  // with the empty port, as sent.
  const parts = {
    method: "POST",
    url: "https://seller.example:/mcp",
    headers: { "content-type": "application/json", host: "seller.example:" },
    body: "{}",
  };
  const fields = await signer.sign(parts);
  const result = await verifier().verify({ ...parts, headers: { ...parts.headers, ...fields } });
  strictEqual(result.authentication, "signature");
  // A Host header without the port is the same authority; so is the Request form.
  const plain = await verifier().verify({
    ...parts,
    headers: { "content-type": "application/json", host: "seller.example", ...fields },
  });
  strictEqual(plain.authentication, "signature");
  const signed = await signer.signRequest(
    new Request("https://seller.example:/mcp", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    }),
  );
  strictEqual((await verifier().verify(signed)).authentication, "signature");
});
