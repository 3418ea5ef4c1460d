import { STANDARD_ERROR_CODES } from "@adcp-wire/schemas";
import fc from "fast-check";
import { strictEqual } from "node:assert/strict";
import { isStandardErrorCode, isVendorErrorCode } from "./error_code.ts";

Deno.test("isStandardErrorCode() accepts every code of the generated list", () => {
  for (const code of STANDARD_ERROR_CODES) strictEqual(isStandardErrorCode(code), true, code);
});

Deno.test("isStandardErrorCode() rejects other strings, inherited names and non-strings", () => {
  for (
    const v of [
      "rate_limited",
      "RATE_LIMITED ",
      "X_ACME_FLOOR_NOT_MET",
      "",
      "constructor",
      "__proto__",
      "toString",
      "hasOwnProperty",
      null,
      undefined,
      429,
      ["RATE_LIMITED"],
      { code: "RATE_LIMITED" },
    ]
  ) {
    strictEqual(isStandardErrorCode(v), false, String(v));
  }
});

Deno.test("isVendorErrorCode() accepts X_{VENDOR}_{CODE} at the length limits", () => {
  for (
    const code of [
      "X_STREAMHAUS_FLOOR_NOT_MET",
      "X_VENDOR_CUSTOM",
      "X_AB_CD",
      "X_A1_B2",
      "X_ACME_FLOOR_", // {CODE} may end with an underscore
      `X_A${"B".repeat(19)}_C${"D".repeat(39)}`, // longest: 63 characters
      "X_ACME_A__B",
    ]
  ) {
    strictEqual(isVendorErrorCode(code), true, code);
  }
  strictEqual(`X_A${"B".repeat(19)}_C${"D".repeat(39)}`.length, 63);
});

Deno.test("isVendorErrorCode() rejects codes outside the pattern", () => {
  for (
    const code of [
      "X_A_CD", // vendor of one character
      "X_AB_C", // code of one character
      `X_A${"B".repeat(20)}_CD`, // vendor of 21 characters
      `X_AB_C${"D".repeat(40)}`, // code of 41 characters
      "X_1AB_CD", // vendor starts with a digit
      "X_AB_1D", // code starts with a digit
      "X_AB__CD", // code starts with an underscore
      "x_ab_cd",
      "X_Ab_CD",
      "X_AB_Cd",
      "XX_AB_CD",
      "X_ABCD",
      "RATE_LIMITED",
      "X_AB_CD\n",
      " X_AB_CD",
      "",
      null,
      42,
    ]
  ) {
    strictEqual(isVendorErrorCode(code), false, String(code));
  }
});

Deno.test("isVendorErrorCode() and isStandardErrorCode() never both hold (property)", () => {
  fc.assert(
    fc.property(
      fc.oneof(
        fc.constantFrom(...STANDARD_ERROR_CODES),
        fc.stringMatching(/^X_[A-Z][A-Z0-9]{1,19}_[A-Z][A-Z0-9_]{1,39}$/),
        fc.string(),
      ),
      (code) => !(isStandardErrorCode(code) && isVendorErrorCode(code)),
    ),
  );
});

Deno.test("isVendorErrorCode() matches the spec's two component patterns (property)", () => {
  fc.assert(
    fc.property(
      fc.stringMatching(/^[A-Z][A-Z0-9]{1,19}$/),
      fc.stringMatching(/^[A-Z][A-Z0-9_]{1,39}$/),
      (vendor, code) => isVendorErrorCode(`X_${vendor}_${code}`),
    ),
  );
});
