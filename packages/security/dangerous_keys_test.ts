import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { DANGEROUS_KEYS, isDangerousKey } from "./dangerous_keys.ts";

Deno.test("isDangerousKey() matches exactly __proto__, constructor and prototype", () => {
  deepStrictEqual(DANGEROUS_KEYS, ["__proto__", "constructor", "prototype"]);
  ok(Object.isFrozen(DANGEROUS_KEYS));
  for (const key of DANGEROUS_KEYS) strictEqual(isDangerousKey(key), true);
  for (
    const key of ["", "__proto", "proto", "Constructor", "PROTOTYPE", " __proto__", "toString"]
  ) {
    strictEqual(isDangerousKey(key), false, key);
  }
});
