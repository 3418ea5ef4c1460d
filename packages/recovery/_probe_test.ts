import fc from "fast-check";
import { lookupErrorCode } from "@adcp-wire/schemas";
Deno.test("probe", () => { fc.assert(fc.property(fc.integer(), (n) => n === n)); console.log(lookupErrorCode("RATE_LIMITED")); });
