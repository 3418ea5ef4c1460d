// The payload layer of a fatal task failure, beside the transport envelope's `adcp_error` (Error
// Handling, "Envelope vs. payload errors — the two-layer model").
import type { ExtractedAdcpError } from "@adcp-wire/core";
import { jsonCopy } from "../read/_json.ts";
import { isForwarded } from "./_forwarded.ts";
import type { CheckedOptions } from "./_outgoing_options.ts";
import { preparedError } from "./_outgoing.ts";
import { shownCode } from "./_shown_code.ts";
import {
  describe,
  isJsonObject as isObject,
  type JsonRecord,
  notShown,
  optionError,
  own,
} from "@adcp-wire/internal";

/** The task payload a helper's `payload` option asks for. */
export type PayloadOption = boolean | Readonly<Record<string, unknown>> | undefined;

/**
 * The payload layer for `error`, or `undefined` when `payload` is `undefined` or `false`: a new
 * object holding the caller's payload fields (a JSON copy), `status: "failed"` and `errors`
 * (`[error]` unless the caller gave them, each then checked like `error`, or kept as it is when it
 * came from `forwardAdcpError`).
 *
 * @throws {TypeError} Naming the option and what was expected.
 * @throws {RangeError} When a payload error is over the 4096-byte extraction limit.
 */
export function payloadLayer(
  payload: PayloadOption,
  error: ExtractedAdcpError,
  checked: CheckedOptions,
): JsonRecord | undefined {
  if (payload === undefined || payload === false) return undefined;
  if (payload === true) {
    return { status: "failed", errors: [jsonCopy(error) as ExtractedAdcpError] };
  }
  if (
    !isObject(payload) ||
    (Object.getPrototypeOf(payload) !== Object.prototype && Object.getPrototypeOf(payload) !== null)
  ) {
    throw optionError(
      TypeError,
      checked.action,
      "options.payload",
      "a boolean or a plain object",
      notShown(payload),
    );
  }
  if (Object.hasOwn(payload, "adcp_error")) {
    throw optionError(
      TypeError,
      checked.action,
      "options.payload",
      "an object with no adcp_error key (the helper sets the envelope)",
      payload,
    );
  }
  const status = own(payload, "status");
  if (status !== undefined && status !== "failed") {
    throw optionError(
      TypeError,
      checked.action,
      "options.payload.status",
      '"failed" (adcp_error marks a failed task)',
      notShown(status),
    );
  }
  const given = own(payload, "errors");
  let errors: ExtractedAdcpError[];
  if (given === undefined) {
    errors = [jsonCopy(error) as ExtractedAdcpError];
  } else {
    if (!Array.isArray(given) || given.length === 0) {
      throw optionError(
        TypeError,
        checked.action,
        "options.payload.errors",
        "a non-empty array",
        notShown(given),
      );
    }
    errors = given.map((item, index) => payloadError(item, index, checked));
    if (errors[0]!.code !== error.code) {
      // detectAdcpError, and storyboards' `check: error_code`, read adcp_error.code first and
      // errors[0].code second: the two layers must name the same failure.
      throw optionError(
        TypeError,
        checked.action,
        "options.payload.errors[0].code",
        `the code of error, ${
          describe(shownCode(error.code, checked.serviceNames))
        } (the transport and payload layers must agree)`,
        shownCode(errors[0]!.code, checked.serviceNames),
      );
    }
  }
  const rest: Record<string, unknown> = {};
  for (const key of Object.keys(payload)) {
    if (key !== "errors" && key !== "status") {
      Object.defineProperty(rest, key, {
        value: payload[key],
        writable: true,
        enumerable: true,
        configurable: true,
      });
    }
  }
  const copy = jsonCopy(rest);
  if (!isObject(copy)) {
    throw optionError(
      TypeError,
      checked.action,
      "options.payload",
      "a value that serializes as JSON",
      payload,
    );
  }
  // Spread defines properties: a JSON "__proto__" key stays an own data property.
  return { ...copy, status: "failed", errors };
}

/** One caller-given payload error: forwarded as it is, or checked like the envelope's. */
function payloadError(
  item: unknown,
  index: number,
  checked: CheckedOptions,
): ExtractedAdcpError {
  if (isForwarded(item)) return item;
  const prefix = `payload.errors[${index}]`;
  const onWarning = checked.onWarning;
  try {
    return preparedError(item, {
      ...checked,
      onWarning: onWarning === undefined
        ? undefined
        : (warning) => onWarning({ ...warning, field: `${prefix}.${warning.field}` }),
    });
  } catch (error) {
    const refused = optionError(
      error instanceof RangeError ? RangeError : TypeError,
      checked.action,
      `options.${prefix}`,
      `a sendable AdCP error (${(error as Error).message})`,
      notShown(item),
    );
    // As `new TypeError(message, { cause })` sets it: own, non-enumerable.
    Object.defineProperty(refused, "cause", {
      value: (error as Error).cause,
      writable: true,
      configurable: true,
    });
    throw refused;
  }
}
