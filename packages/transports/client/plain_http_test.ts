// Plain http: to a host off loopback is refused by every client entry point unless the caller
// opens it with allowHttp (Security, "Request Safety", step 1: reject non-HTTPS): bearer headers
// would travel in clear.
import { ok, rejects, strictEqual, throws } from "node:assert/strict";
import { A2AClient } from "../a2a/client.ts";
import { fetchAgentCard, FetchedAgentCard } from "../a2a/fetch_agent_card.ts";
import { connectAgent } from "../agent/connect_agent.ts";
import { McpClient } from "../mcp/client.ts";
import { fakeA2AAgent } from "../testing/fake_agent.ts";

const OFF_LOOPBACK = [
  "http://seller.example/mcp",
  "http://10.0.0.1/mcp",
  "http://0.0.0.0/mcp",
  "http://x.localhost/mcp",
  "http://127.0.0.1.example/mcp",
  "http://[::2]/mcp",
];
const LOOPBACK = [
  "http://localhost:8080/mcp",
  "http://127.0.0.1/mcp",
  "http://127.9.9.9/mcp",
  "http://[::1]:9/mcp",
];

function refusesPlainHttp(error: unknown): boolean {
  return error instanceof TypeError && error.message.includes("options.allowHttp");
}

Deno.test("McpClient refuses http: off loopback unless allowHttp", () => {
  for (const url of OFF_LOOPBACK) {
    throws(() => new McpClient(url), refusesPlainHttp, url);
    strictEqual(new McpClient(url, { allowHttp: true }).url, url);
  }
  for (const url of LOOPBACK) ok(new McpClient(url).url.startsWith("http://"), url);
  throws(() => new McpClient(LOOPBACK[0]!, { allowHttp: "yes" as never }), TypeError);
});

Deno.test("connectAgent refuses http: off loopback before sending anything", async () => {
  let sent = 0;
  const fetch = () => (sent++, Promise.resolve(new Response(null, { status: 404 })));
  for (const url of OFF_LOOPBACK) {
    for (const protocol of ["auto", "mcp", "a2a"] as const) {
      await rejects(() => connectAgent(url, { fetch, protocol }), refusesPlainHttp);
    }
  }
  strictEqual(sent, 0);
  const agent = await connectAgent("http://seller.example/mcp", { fetch, allowHttp: true });
  strictEqual([agent.protocol, sent].join(), "mcp,1");
  strictEqual((await connectAgent(LOOPBACK[1]!, { fetch })).protocol, "mcp");
});

Deno.test("fetchAgentCard and A2AClient refuse an http: card off loopback", async () => {
  const fake = fakeA2AAgent({ skills: {} });
  const cardUrl = "http://agent.example/.well-known/agent-card.json";
  await rejects(() => fetchAgentCard(cardUrl, { fetch: fake.fetch }), refusesPlainHttp);
  const card = fake.card;
  throws(() => new A2AClient(card, { cardUrl }), refusesPlainHttp);
  throws(() => new A2AClient(new FetchedAgentCard(card, cardUrl)), refusesPlainHttp);
  // A card served over https names its https interface: unchanged.
  const fetched = await fetchAgentCard(fake.cardUrl, { fetch: fake.fetch });
  strictEqual(new A2AClient(fetched).endpoint, "https://agent.example/a2a");
});
