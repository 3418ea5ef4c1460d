import { ok, throws } from "node:assert/strict";
import { assertTimeGrowth } from "./timing.ts";

let sink = 0;
const loop = (n: number) => {
  for (let i = 0; i < n; i++) sink += i & 1;
};
const doubleLoop = (n: number) => {
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) sink += j & 1;
};

Deno.test("assertTimeGrowth() passes linear work and refuses quadratic work", () => {
  assertTimeGrowth((n) => n, loop, 2_000_000);
  throws(() => assertTimeGrowth((n) => n, doubleLoop, 6_000, { label: "the double loop" }), {
    message: /^the double loop is not linear: /,
  });
  ok(sink > 0); // the loops ran
});

Deno.test("assertTimeGrowth() passes constant work and refuses linear work as constant", () => {
  assertTimeGrowth((n) => "x".repeat(n), (text) => text.charCodeAt(0), 4_000_000, {
    growth: "constant",
  });
  throws(
    () => assertTimeGrowth((n) => n, loop, 20_000_000, { growth: "constant", label: "the loop" }),
    { message: /^the loop is not constant: / },
  );
});
