/**
 * What `deno task test-browser` serves to the page: the page, its scripts, the vector files, the
 * agents the in-page clients call, and the endpoint the page posts its report to. One handler,
 * `Request` to `Response`, so that it can be tested without a network.
 *
 * The page is served under a strict Content Security Policy (scripts from the page's origin only,
 * no `eval`, no inline script), so a package that compiled code at run time would fail here.
 *
 * @module
 */
import { a2aAgent, mcpAgent } from "./_agents.ts";
import type { VectorText } from "./_page.ts";

/** What the server serves. */
export interface PageFiles {
  /** The classic script that reports load errors (`boot.js`). */
  boot: string;
  /** The bundled runner (an ES module). */
  runner: string;
  /** The vector files. */
  vectors: readonly VectorText[];
}

/** The page's server. */
export interface PageServer {
  /** Answers one request. */
  handler(request: Request): Promise<Response>;
  /** The report the page posted (the parsed JSON body of `POST /report`). */
  report: Promise<unknown>;
  /** The `Accept-Encoding` of each request to the MCP endpoints, in order. */
  acceptEncodings: string[];
}

/** The Content Security Policy of the page. */
export const PAGE_CSP = "default-src 'none'; script-src 'self'; connect-src 'self' " +
  "http://localhost:*; base-uri 'none'; form-action 'none'";

/** The page. */
export const PAGE_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>adcp-wire in the browser</title>
<script src="/boot.js"></script>
<script type="module" src="/runner.js"></script>
</head>
<body>
<pre id="report">Running…</pre>
</body>
</html>
`;

/** The largest report body accepted, in bytes. */
const MAX_REPORT_BYTES = 64 * 1024 * 1024;

function text(body: string, type: string, headers: HeadersInit = {}): Response {
  return new Response(body, {
    headers: { "content-type": `${type}; charset=utf-8`, "cache-control": "no-store", ...headers },
  });
}

/** The answer in gzip, when the request accepts gzip (as a server that compresses does). */
async function gzipped(request: Request, response: Response): Promise<Response> {
  const accepts = (request.headers.get("accept-encoding") ?? "").split(",")
    .some((coding) => coding.split(";")[0]!.trim().toLowerCase() === "gzip");
  if (!accepts || response.body === null) return response;
  const headers = new Headers(response.headers);
  headers.set("content-encoding", "gzip");
  headers.delete("content-length");
  headers.set("vary", "accept-encoding");
  const body = await new Response(response.body.pipeThrough(new CompressionStream("gzip")))
    .arrayBuffer();
  return new Response(body, { status: response.status, headers });
}

/** The CORS headers of the MCP endpoint, for a request from `origin`. */
function cors(request: Request): Record<string, string> {
  const origin = request.headers.get("origin");
  if (origin === null) return {};
  return {
    "access-control-allow-origin": origin,
    "access-control-allow-methods": "POST, GET, DELETE",
    "access-control-allow-headers": request.headers.get("access-control-request-headers") ?? "",
    "access-control-expose-headers": "mcp-session-id",
    "vary": "origin",
  };
}

/**
 * A copy of a request for an agent's `fetch`: the fakes make a `new Request` from what they are
 * given, which would read (and so tie to the connection) the served request's `signal`.
 */
async function detached(request: Request): Promise<Request> {
  return new Request(request.url, {
    method: request.method,
    headers: request.headers,
    body: await request.arrayBuffer(),
  });
}

function withHeaders(response: Response, extra: Record<string, string>): Response {
  const headers = new Headers(response.headers);
  for (const [name, value] of Object.entries(extra)) headers.set(name, value);
  return new Response(response.body, { status: response.status, headers });
}

/**
 * The server: `GET /` (the page, under {@link PAGE_CSP}), `/boot.js`, `/runner.js`,
 * `/vectors.json`; the MCP agent at `POST /mcp`, and at `POST /mcp-gzip` gzip-compressed when the
 * request accepts gzip (both with CORS headers for a request from another origin), and a 307 to
 * `/mcp` at `POST /mcp-redirect`; the A2A agent's card at `GET /.well-known/agent-card.json` and
 * its JSON-RPC at `POST /a2a`; and `POST /report`, which resolves `report`.
 *
 * @param files What to serve.
 * @returns The server.
 */
export function pageServer(files: PageFiles): PageServer {
  const mcp = mcpAgent();
  const acceptEncodings: string[] = [];
  let a2a: ReturnType<typeof a2aAgent> | undefined;
  let resolveReport!: (report: unknown) => void;
  const report = new Promise<unknown>((resolve) => resolveReport = resolve);

  const handler = async (request: Request): Promise<Response> => {
    const url = new URL(request.url);
    const route = `${request.method} ${url.pathname}`;
    switch (route) {
      case "GET /":
        return text(PAGE_HTML, "text/html", { "content-security-policy": PAGE_CSP });
      case "GET /boot.js":
        return text(files.boot, "text/javascript");
      case "GET /runner.js":
        return text(files.runner, "text/javascript");
      case "GET /vectors.json":
        return Response.json(files.vectors, { headers: { "cache-control": "no-store" } });
      case "OPTIONS /mcp":
      case "OPTIONS /mcp-gzip":
        return new Response(null, { status: 204, headers: cors(request) });
      case "POST /mcp":
      case "POST /mcp-gzip": {
        acceptEncodings.push(request.headers.get("accept-encoding") ?? "(none)");
        const response = await mcp(await detached(request));
        return withHeaders(
          route === "POST /mcp" ? response : await gzipped(request, response),
          cors(request),
        );
      }
      case "POST /mcp-redirect":
        await request.body?.cancel();
        return new Response(null, { status: 307, headers: { location: "/mcp" } });
      case "GET /.well-known/agent-card.json":
        a2a ??= a2aAgent(url.origin);
        return Response.json(a2a.card);
      case "POST /a2a":
        a2a ??= a2aAgent(url.origin);
        return await a2a.fetch(await detached(request));
      case "POST /report": {
        const body = await request.text();
        if (body.length > MAX_REPORT_BYTES) return new Response(null, { status: 413 });
        try {
          resolveReport(JSON.parse(body));
        } catch {
          resolveReport({
            error: `the page posted a report that is not JSON: ${body.slice(0, 200)}`,
          });
        }
        return new Response(null, { status: 204 });
      }
      default:
        await request.body?.cancel();
        return new Response("Not found", { status: 404 });
    }
  };
  return { handler, report, acceptEncodings };
}
