import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import fc from "fast-check";
import { checkOutgoingAdcpError } from "./check_outgoing_adcp_error.ts";
import { translateUpstreamError } from "./translate_upstream_error.ts";

Deno.test("translateUpstreamError() turns 429 into RATE_LIMITED with a clamped Retry-After", () => {
  const cases: [unknown, number][] = [
    [{ status: 429, headers: { "Retry-After": "30" } }, 30],
    [{ status: 429, headers: { "retry-after": 0 } }, 1],
    [{ status: 429, headers: new Headers({ "retry-after": "86400" }) }, 3600],
    [{ status: 429, headers: { "retry-after": ["2.1"] } }, 3],
    [{ status: 429, headers: { "retry-after": "Wed, 21 Oct 2015 07:28:00 GMT" } }, 10],
    [{ status: 429, headers: { "retry-after": "-5" } }, 10],
    [{ status: 429 }, 10],
    [new Response(null, { status: 429, headers: { "retry-after": "4" } }), 4],
  ];
  for (const [upstream, seconds] of cases) {
    deepStrictEqual(translateUpstreamError(upstream), {
      code: "RATE_LIMITED",
      message: "Request rate exceeded",
      recovery: "transient",
      retry_after: seconds,
    });
  }
});

Deno.test("translateUpstreamError() turns 5xx and everything else into SERVICE_UNAVAILABLE", () => {
  strictEqual(translateUpstreamError({ status: 503 }).message, "Service temporarily unavailable");
  strictEqual(
    translateUpstreamError(new Response(null, { status: 500 })).message,
    "Service temporarily unavailable",
  );
  for (
    const upstream of [
      { status: 404 },
      { status: 400 },
      new Error("boom"),
      null,
      "x",
      42,
      undefined,
    ]
  ) {
    deepStrictEqual(translateUpstreamError(upstream), {
      code: "SERVICE_UNAVAILABLE",
      message: "An internal error occurred",
      recovery: "transient",
    });
  }
});

Deno.test(
  "translateUpstreamError() never leaks upstream text " +
    "and always passes the outgoing check (property)",
  () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.anything(),
          fc.record({
            status: fc.integer({ min: 100, max: 599 }),
            headers: fc.dictionary(
              fc.constantFrom("retry-after", "Retry-After", "x-secret"),
              fc.string(),
            ),
            body: fc.string(),
          }),
        ),
        (upstream) => {
          const error = translateUpstreamError(upstream);
          ok(error.code === "RATE_LIMITED" || error.code === "SERVICE_UNAVAILABLE");
          const checked = checkOutgoingAdcpError(error, { strict: true });
          ok(checked.valid);
          deepStrictEqual(checked.warnings, []);
        },
      ),
      { numRuns: 500 },
    );
  },
);
