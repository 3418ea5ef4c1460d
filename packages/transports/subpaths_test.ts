// The package's layout as users see it: each subpath exports its concern, the root re-exports the
// same bindings (never copies), and the deprecated spellings still work.
import { deepStrictEqual, ok, strictEqual, throws } from "node:assert/strict";
import { AdcpWireError } from "@adcp-wire/internal";
import * as security from "@adcp-wire/security";
import * as a2a from "./a2a/mod.ts";
import * as mcp from "./mcp/mod.ts";
import * as read from "./read/mod.ts";
import * as root from "./mod.ts";
import * as seller from "./seller/mod.ts";
import * as testing from "./testing/mod.ts";

const subpaths = { a2a, mcp, read, seller };

Deno.test("each subpath exports its concern", () => {
  ok(typeof mcp.McpClient === "function");
  ok(typeof a2a.A2AClient === "function" && typeof a2a.fetchAgentCard === "function");
  for (const name of ["readJsonResponse", "readSseEvents", "readStdioMessages", "boundedFetch"]) {
    ok(name in read, name);
  }
  for (const name of ["adcpErrorResult", "adcpJsonRpcError", "checkOutgoingAdcpError"]) {
    ok(name in seller, name);
  }
  // The clients' shared pieces come with both clients, not with the seller side.
  for (const name of ["withIdempotencyKey", "DEFAULT_MAX_TOOLS"]) {
    ok(name in mcp && name in a2a, name);
    ok(!(name in seller), name);
  }
  // The agent card's auth-challenge check is A2A's alone.
  ok("checkAuthChallenge" in a2a && !("checkAuthChallenge" in mcp));
  ok(!("McpClient" in read) && !("McpClient" in seller) && !("A2AClient" in mcp));
});

Deno.test("the root re-exports every subpath's bindings, identical, and not the test fakes", () => {
  for (const [path, module] of Object.entries(subpaths)) {
    for (const [name, value] of Object.entries(module)) {
      strictEqual((root as Record<string, unknown>)[name], value, `${path}: ${name}`);
    }
  }
  ok(!("fakeMcpAgent" in root));
  ok("fakeMcpAgent" in testing && "fakeA2AAgent" in testing);
});

Deno.test(
  "errors: one root, the JSON bounds declared once, core's classes usable with instanceof",
  () => {
    strictEqual(root.JsonDepthLimitError, security.JsonDepthLimitError);
    strictEqual(root.JsonNodeLimitError, security.JsonNodeLimitError);
    strictEqual(root.AdcpWireError, AdcpWireError);
    ok(new root.NetworkError(new TypeError("reset")) instanceof AdcpWireError);
    ok(new root.WrapperDetectedError(0) instanceof root.AdcpCoreError);
    ok(new root.WrapperDetectedError(0) instanceof AdcpWireError);
    strictEqual(new root.WrapperDetectedError(0).code, "WRAPPER_DETECTED");
  },
);

Deno.test(
  "the pre-release limit layer spellings are unknown options, the layer named instead",
  () => {
    throws(() => new mcp.McpClient("https://a.example/", { defaults: {} } as never), {
      name: "TypeError",
      message: "Cannot create an McpClient as 'options.defaults' must be a known option (the " +
        "nearest is 'options.defaultLimits'): current value is an object",
    });
    throws(() => root.resolveLimits({ call: {} } as never), {
      name: "TypeError",
      message: "Cannot resolve limits as 'options.call' must be a known option (the nearest is " +
        "'options.callLimits'): current value is an object",
    });
    throws(() => new mcp.McpClient("https://a.example/", { agentLimits: null as never }), {
      name: "TypeError",
      message: "Cannot create an McpClient as 'options.agentLimits' must be an object: current " +
        "value is null",
    });
  },
);

Deno.test("a client's defaultLimits layer is applied through the subpaths", async () => {
  const fetch = testing.fakeMcpAgent({ tools: { t: () => ({ content: [] }) } });
  const client = new mcp.McpClient("https://agent.example/mcp", {
    fetch,
    defaultLimits: { maxTools: 0 },
  });
  await client.connect();
  // A cap of zero tools refuses the first tool listed.
  const error = await client.listTools().catch((caught: unknown) => caught);
  ok(error instanceof root.ItemLimitError, String(error));
  deepStrictEqual([error.item, error.limit], ["tools", 0]);
});
