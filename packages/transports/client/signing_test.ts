// The clients sign every request when given a signer; a seller verifies each with one call.
import { deepStrictEqual, ok, rejects, strictEqual } from "node:assert/strict";
import { RequestSigner, RequestVerifier, SignatureVerificationError } from "@adcp-wire/signing";
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
