// new A2AClient() refuses a bad option with a TypeError naming it, before sending any request.
import { ok, strictEqual, throws } from "node:assert/strict";
import { BOUND_MS, netTest, within } from "../_test_utils.ts";
import { a2aCard } from "../_test_sellers.ts";
import { A2AClient, type A2AClientOptions } from "./mod.ts";

const BAD_OPTIONS: readonly [string, string, A2AClientOptions][] = [
  ["authHosts", 'authHosts: ["not a host!"]', { authHosts: ["not a host!"] }],
  ["allowedHosts", "allowedHosts: [42]", { allowedHosts: [42] as unknown as string[] }],
  ["extensions", 'extensions: ["not a uri"]', { extensions: ["not a uri"] }],
  ["allowHttp", 'allowHttp: "yes"', { allowHttp: "yes" as unknown as boolean }],
];

for (const [option, shown, options] of BAD_OPTIONS) {
  netTest(`new A2AClient() throws a TypeError naming ${option} for { ${shown} }`, async () => {
    await within(
      BOUND_MS,
      Promise.resolve().then(() => {
        const base = "https://sales.example";
        let requests = 0;
        throws(
          () =>
            new A2AClient(a2aCard(base), {
              cardUrl: `${base}/.well-known/agent-card.json`,
              fetch: () => {
                requests++;
                return Promise.resolve(new Response(null, { status: 500 }));
              },
              ...options,
            }),
          (error: unknown) => {
            ok(error instanceof TypeError, String(error));
            ok(error.message.includes(option), `message: ${error.message}`);
            return true;
          },
        );
        strictEqual(requests, 0);
      }),
    );
  });
}
