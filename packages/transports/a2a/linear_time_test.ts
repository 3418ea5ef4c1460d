// The A2A client's work on seller data is linear in its bytes, timed against JSON.parse of the
// same bytes in the same run: agent cards up to the size cap (new A2AClient() and
// agentCardAuthHosts()), a 4 MiB task state, 45,000 streamed artifacts with distinct ids.
import { ok, strictEqual } from "node:assert/strict";
import { BOUND_MS, encoder, netTest, within } from "../_test_utils.ts";
import {
  a2aAgent,
  a2aClientAt,
  CAP,
  fastest,
  IDS,
  jsonParseMs,
  MiB,
  report,
  SSE_HEADERS,
  withHostileServer,
} from "../_test_bounds.ts";
import { MAX_CARD_LIST_ENTRIES } from "./_agent_card.ts";
import { A2AClient } from "./mod.ts";
import { agentCardAuthHosts } from "./auth_challenge.ts";
import { AgentProtocolError } from "../errors.ts";

netTest("A2AClient reads a 4 MiB task state in time independent of its length", async () => {
  const state = "W".repeat(4_000_000);
  const body = JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    result: { task: { id: "t", contextId: "c", status: { state } } },
  });
  const card = {
    supportedInterfaces: [{
      url: "https://a.example/a2a",
      protocolBinding: "JSONRPC",
      protocolVersion: "1.0",
    }],
  };
  const client = new A2AClient(card, {
    cardUrl: "https://a.example/",
    fetch: () =>
      Promise.resolve(new Response(body, { headers: { "content-type": "application/json" } })),
  });
  const started = performance.now();
  const result = await client.sendMessage(client.invocation("get_products", {}), {
    limits: { maxResponseBytes: 8_388_608 },
  });
  const elapsed = performance.now() - started;
  strictEqual(result.state?.length, 64); // an unknown state, reported cut to 64 characters
  ok(elapsed < 10 * jsonParseMs(body) + 250, `took ${elapsed.toFixed(0)} ms`);
});

type JsonObject = Record<string, unknown>;

/**
 * A card of about 3.9 MiB naming `hosts` distinct https hosts: 6% as full JSON-RPC interfaces, the
 * rest as bare interface URLs and `authOrigin` entries, plus one usable interface on the card's own
 * origin (last, so that every entry before it is looked at).
 */
function manyHostsCard(hosts: number, origin: string): { card: JsonObject; text: string } {
  const host = (index: number): string => `https://${index.toString(36)}.a.io`;
  const full = Math.floor(hosts * 0.06);
  const bare = Math.floor(hosts * 0.47);
  const interfaces: JsonObject[] = [];
  for (let index = 0; index < full; index++) {
    interfaces.push({ url: host(index), protocolBinding: "JSONRPC", protocolVersion: "1.0" });
  }
  for (let index = full; index < full + bare; index++) interfaces.push({ url: host(index) });
  interfaces.push({ url: `${origin}/a2a`, protocolBinding: "JSONRPC", protocolVersion: "1.0" });
  const authOrigin: string[] = [];
  for (let index = full + bare; index < hosts; index++) authOrigin.push(host(index));
  const card = { name: "hostile", supportedInterfaces: interfaces, authOrigin };
  const text = JSON.stringify(card);
  return { card: JSON.parse(text), text };
}

/**
 * The largest card the client accepts, in its costliest shape: every bounded list full
 * (`MAX_CARD_LIST_ENTRIES` JSON-RPC interfaces, v0.3 additional interfaces, `authOrigin` hosts and
 * extensions with an `authOrigin`), each URL `urlLength` characters on a distinct host, and the one
 * usable same-origin interface last.
 */
function fullListsCard(urlLength: number, origin: string): { card: JsonObject; text: string } {
  const per = MAX_CARD_LIST_ENTRIES;
  const url = (index: number): string => {
    const head = `https://h${index.toString(36)}.a.io/`;
    return head + "p".repeat(Math.max(0, urlLength - head.length));
  };
  const supportedInterfaces: JsonObject[] = [];
  for (let index = 0; index < per - 1; index++) {
    supportedInterfaces.push({
      url: url(index),
      protocolBinding: "JSONRPC",
      protocolVersion: "1.0",
    });
  }
  supportedInterfaces.push({
    url: `${origin}/a2a`,
    protocolBinding: "JSONRPC",
    protocolVersion: "1.0",
  });
  const card = {
    name: "hostile",
    protocolVersion: "0.3", // so that the v0.3 root url and additionalInterfaces are read too
    url: url(4 * per),
    supportedInterfaces,
    additionalInterfaces: Array.from({ length: per }, (_, index) => ({
      url: url(per + index),
      transport: "JSONRPC",
    })),
    authOrigin: Array.from({ length: per }, (_, index) => url(2 * per + index)),
    capabilities: {
      extensions: Array.from({ length: per }, (_, index) => ({
        uri: `https://ext.example/${index}`,
        params: { authOrigin: url(3 * per + index) },
      })),
    },
  };
  const text = JSON.stringify(card);
  return { card: JSON.parse(text), text };
}

const CARD_ORIGIN = "https://sales.example";
const CARD_URL = `${CARD_ORIGIN}/.well-known/agent-card.json`;
/** Every interface passes the policy: the longest list of usable interfaces to build. */
const ALLOW_ALL = { cardUrl: CARD_URL, allowedHosts: ["*.a.io"] };
/**
 * Timer granularity and fixed costs, in milliseconds, added to a ratio bound whose baseline is a
 * JSON.parse of a few milliseconds (a card of long strings parses at nearly memcpy speed; any
 * parser that looks at each character, URL's included, is several times slower per byte).
 */
const FLOOR_MS = 25;

/** The error `fn` throws. */
function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  ok(false, "expected a throw");
}

Deno.test(
  "new A2AClient() and agentCardAuthHosts() refuse a 3.9 MiB card of 150,000 hosts in under 10x " +
    "its JSON.parse",
  async () => {
    const { card, text } = manyHostsCard(150_000, CARD_ORIGIN);
    ok(text.length > 3.8 * MiB && text.length < CAP, `card is ${text.length} bytes`);
    await within(
      BOUND_MS,
      (async () => {
        const refused = (error: unknown): void => {
          ok(error instanceof AgentProtocolError, `expected AgentProtocolError, got ${error}`);
          strictEqual(error.reason, "agent_card");
        };
        const parseMs = await fastest(3, () => JSON.parse(text));
        const buildMs = await fastest(
          3,
          () => refused(thrown(() => new A2AClient(card, { cardUrl: CARD_URL }))),
        );
        const hostsMs = await fastest(3, () => refused(thrown(() => agentCardAuthHosts(card))));
        report(
          `150,000-host card (${(text.length / MiB).toFixed(2)} MiB) refused: constructor ` +
            `${buildMs.toFixed(2)} ms, agentCardAuthHosts ${hostsMs.toFixed(2)} ms, JSON.parse ` +
            `${parseMs.toFixed(1)} ms (${(buildMs / parseMs).toFixed(2)}x)`,
        );
        ok(buildMs < 10 * parseMs, `constructor ${buildMs} ms vs JSON.parse ${parseMs} ms`);
        ok(hostsMs < 10 * parseMs, `agentCardAuthHosts ${hostsMs} ms vs JSON.parse ${parseMs} ms`);
      })(),
    );
  },
);

Deno.test(
  "new A2AClient() and agentCardAuthHosts() take under 10x JSON.parse on the largest card they " +
    "accept",
  async () => {
    const { card, text } = fullListsCard(3_950, CARD_ORIGIN);
    ok(text.length > 3.8 * MiB && text.length < CAP, `card is ${text.length} bytes`);
    await within(
      BOUND_MS,
      (async () => {
        let client: A2AClient | undefined;
        let hosts: string[] = [];
        const parseMs = await fastest(3, () => JSON.parse(text));
        const buildMs = await fastest(3, () => client = new A2AClient(card, ALLOW_ALL));
        const hostsMs = await fastest(3, () => hosts = agentCardAuthHosts(card));
        ok(client !== undefined);
        strictEqual(client.endpoint.slice(0, 16), "https://h0.a.io/");
        strictEqual(hosts.length, 4 * MAX_CARD_LIST_ENTRIES + 1); // every list, and the root url
        strictEqual(new A2AClient(card, { cardUrl: CARD_URL }).endpoint, `${CARD_ORIGIN}/a2a`);
        report(
          `largest accepted card (${(text.length / MiB).toFixed(2)} MiB): constructor ` +
            `${buildMs.toFixed(1)} ms (${(buildMs / parseMs).toFixed(1)}x), agentCardAuthHosts ` +
            `${hostsMs.toFixed(1)} ms (${(hostsMs / parseMs).toFixed(1)}x), JSON.parse ` +
            `${parseMs.toFixed(2)} ms`,
        );
        ok(
          buildMs < 10 * parseMs + FLOOR_MS,
          `constructor ${buildMs} ms vs JSON.parse ${parseMs} ms`,
        );
        ok(
          hostsMs < 10 * parseMs + FLOOR_MS,
          `agentCardAuthHosts ${hostsMs} ms vs JSON.parse ${parseMs} ms`,
        );
      })(),
    );
  },
);

Deno.test(
  "new A2AClient() and agentCardAuthHosts() scale linearly with a card's bytes (4x, < 8x the time)",
  async () => {
    const full = fullListsCard(3_950, CARD_ORIGIN).card;
    const quarter = fullListsCard(987, CARD_ORIGIN).card;
    await within(
      BOUND_MS,
      (async () => {
        const buildMs = await fastest(5, () => new A2AClient(full, ALLOW_ALL));
        const buildQuarterMs = await fastest(5, () => new A2AClient(quarter, ALLOW_ALL));
        const hostsMs = await fastest(5, () => agentCardAuthHosts(full));
        const hostsQuarterMs = await fastest(5, () => agentCardAuthHosts(quarter));
        const build = (buildMs / buildQuarterMs).toFixed(2);
        const hosts = (hostsMs / hostsQuarterMs).toFixed(2);
        report(`4x the card: constructor x${build}, agentCardAuthHosts x${hosts} (linear 4)`);
        ok(buildMs < 8 * buildQuarterMs + 5, `constructor ${buildMs} ms vs ${buildQuarterMs} ms`);
        ok(hostsMs < 8 * hostsQuarterMs + 5, `hosts ${hostsMs} ms vs ${hostsQuarterMs} ms`);
      })(),
    );
  },
);

netTest(
  "A2AClient accumulates 45,000 streamed artifacts with distinct ids in linear time",
  async () => {
    const count = 45_000;
    const payloads: string[] = [];
    for (let index = 0; index < count; index++) {
      payloads.push(JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        result: {
          artifactUpdate: {
            ...IDS,
            artifact: { artifactId: `artifact-${index}`, parts: [{ text: "x" }] },
          },
        },
      }));
    }
    payloads.push(JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      result: { statusUpdate: { ...IDS, status: { state: "TASK_STATE_COMPLETED" } } },
    }));
    const sse = encoder.encode(payloads.map((payload) => `data: ${payload}\n\n`).join(""));
    const asJson = `[${payloads.join(",")}]`;
    const agent = a2aAgent((id) =>
      id === 1 ? new Response(sse, { headers: SSE_HEADERS }) : new Response(null, { status: 400 })
    );
    await within(
      BOUND_MS,
      withHostileServer(agent, async (base) => {
        const parseMs = await fastest(3, () => JSON.parse(asJson));
        const client = a2aClientAt(base);
        const started = performance.now();
        const result = await client.sendStreamingMessage(client.invocation("get_products", {}), {
          limits: {
            maxResponseBytes: 16 * MiB,
            maxArtifacts: 50_000,
            maxParts: 100_000,
            maxEvents: 100_000,
          },
        });
        const elapsed = performance.now() - started;
        strictEqual(result.state, "completed");
        const artifacts = result.task?.artifacts;
        ok(Array.isArray(artifacts) && artifacts.length === count, "artifacts lost");
        const size = (sse.length / MiB).toFixed(2);
        const ratio = (elapsed / parseMs).toFixed(1);
        report(
          `45,000 artifact frames (${size} MiB): ${elapsed.toFixed(0)} ms, ` +
            `JSON.parse ${parseMs.toFixed(1)} ms (${ratio}x)`,
        );
        ok(elapsed < 10_000, `the stream took ${elapsed} ms`);
        ok(elapsed < 20 * parseMs, `the stream took ${elapsed} ms vs JSON.parse ${parseMs} ms`);
      }),
    );
  },
);
