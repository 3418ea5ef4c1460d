import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { formatChecks, runChecks } from "./_checks.ts";
import { clientChecks } from "./_client_checks.ts";
import { PAGE_CSP, pageServer } from "./_server.ts";
import { VALIDATION_CHECKS } from "./_validation_checks.ts";

function server() {
  return pageServer({
    boot: "// boot",
    runner: "// runner",
    vectors: [{ file: "vectors/local/x.json", text: "{}" }],
  });
}

Deno.test("pageServer() serves the page under a strict CSP, its scripts, the vectors", async () => {
  const { handler } = server();
  const page = await handler(new Request("http://127.0.0.1:1/"));
  strictEqual(page.headers.get("content-security-policy"), PAGE_CSP);
  ok(PAGE_CSP.includes("script-src 'self'") && !PAGE_CSP.includes("unsafe"));
  ok((await page.text()).includes('<script type="module" src="/runner.js">'));
  strictEqual(
    await (await handler(new Request("http://127.0.0.1:1/runner.js"))).text(),
    "// runner",
  );
  strictEqual(await (await handler(new Request("http://127.0.0.1:1/boot.js"))).text(), "// boot");
  deepStrictEqual(await (await handler(new Request("http://127.0.0.1:1/vectors.json"))).json(), [
    { file: "vectors/local/x.json", text: "{}" },
  ]);
  strictEqual((await handler(new Request("http://127.0.0.1:1/nope"))).status, 404);
});

Deno.test("pageServer() compresses /mcp-gzip only for a request that accepts gzip", async () => {
  const { handler, acceptEncodings } = server();
  const call = (encoding: string) =>
    handler(
      new Request("http://127.0.0.1:1/mcp-gzip", {
        method: "POST",
        headers: { "content-type": "application/json", "accept-encoding": encoding },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }),
      }),
    );
  const plain = await call("identity");
  strictEqual(plain.headers.get("content-encoding"), null);
  deepStrictEqual(await plain.json(), { jsonrpc: "2.0", id: 1, result: {} });
  const gzip = await call("gzip, deflate, br, zstd");
  strictEqual(gzip.headers.get("content-encoding"), "gzip");
  const body = gzip.body!.pipeThrough(new DecompressionStream("gzip"));
  deepStrictEqual(await new Response(body).json(), { jsonrpc: "2.0", id: 1, result: {} });
  deepStrictEqual(acceptEncodings, ["identity", "gzip, deflate, br, zstd"]);
});

Deno.test("pageServer() answers CORS, redirects /mcp-redirect, takes the report", async () => {
  const { handler, report } = server();
  const preflight = await handler(
    new Request("http://localhost:1/mcp", {
      method: "OPTIONS",
      headers: { origin: "http://127.0.0.1:1", "access-control-request-headers": "content-type" },
    }),
  );
  strictEqual(preflight.headers.get("access-control-allow-origin"), "http://127.0.0.1:1");
  strictEqual(preflight.headers.get("access-control-allow-headers"), "content-type");
  const redirect = await handler(
    new Request("http://127.0.0.1:1/mcp-redirect", { method: "POST" }),
  );
  deepStrictEqual([redirect.status, redirect.headers.get("location")], [307, "/mcp"]);
  const posted = await handler(
    new Request("http://127.0.0.1:1/report", { method: "POST", body: '{"ok":true}' }),
  );
  strictEqual(posted.status, 204);
  deepStrictEqual(await report, { ok: true });
});

Deno.test("the validation checks hold in Deno", async () => {
  const outcomes = await runChecks(VALIDATION_CHECKS);
  ok(outcomes.every((outcome) => outcome.passed), formatChecks("validation", outcomes));
});

Deno.test("the client checks, but the browser-only ones, hold in Deno", async () => {
  const { handler } = server();
  const http = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, handler);
  try {
    const origin = `http://127.0.0.1:${http.addr.port}`;
    const checks = clientChecks(origin, origin).filter((check) => !check.browserOnly);
    const outcomes = await runChecks(checks);
    ok(outcomes.every((outcome) => outcome.passed), formatChecks("clients", outcomes));
  } finally {
    await http.shutdown();
  }
});
