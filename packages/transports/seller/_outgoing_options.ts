// The options every outgoing helper takes, their checks, and the warnings they report. Kept apart
// from check_outgoing_adcp_error.ts so that the helpers and the check share them without a cycle.
import { notShown, optionError, type OptionKeys } from "@adcp-wire/internal";
import { compileServiceNames, type LeakKind } from "./_leaks.ts";
import { checkSellerOptionKeys } from "./_option_keys.ts";

/** Most names `internalServiceNames` takes, and the longest name, in UTF-16 code units. */
const MAX_SERVICE_NAMES = 1024;
const MAX_SERVICE_NAME_LENGTH = 256;

/** Options of the seller-side helpers that send an AdCP error; see `docs/outgoing-errors.md`. */
export interface OutgoingErrorOptions {
  /**
   * Refuse, rather than redact, an error whose strings, or keys inside `details` and `issues`,
   * hold a leak (see {@link LeakKind}).
   * @default {false}
   */
  readonly strict?: boolean | undefined;
  /**
   * Called with each warning of an accepted error (a redaction, an oversized `details` or tool
   * result, an adjusted `retry_after`, a filled `recovery`, `field` or `message`, a deprecated or
   * unlisted code, a dropped field), for the seller's logs.
   * @default {undefined}
   */
  readonly onWarning?: ((warning: OutgoingErrorWarning) => void) | undefined;
  /**
   * Names of the seller's internal services (`"inventory-svc"`, `"billing"`), redacted (or, in
   * strict mode, refused) wherever they appear as a whole word, case-insensitively: "MUST NOT
   * include internal service names". At most 1,024 names of 1 to 256 characters.
   * @default {[]}
   */
  readonly internalServiceNames?: readonly string[] | undefined;
  /**
   * Accept a code of the standard shape (`NEWER_CODE`) that is neither in the pinned standard
   * table nor a vendor code `X_{VENDOR}_{CODE}`, with an `unlisted_code` warning: for a standard
   * code newer than this library. Without it such a code is refused, since "Seller-specific codes
   * MUST use the format `X_{VENDOR}_{CODE}`".
   * @default {false}
   */
  readonly allowUnlistedCode?: boolean | undefined;
}

/**
 * Every key of {@link OutgoingErrorOptions}, for the key sets of the helpers whose options extend
 * it: `optionKeys<AdcpErrorResultOptions>({ ...OUTGOING_ERROR_OPTION_NAMES, summary: true })`.
 */
export const OUTGOING_ERROR_OPTION_NAMES = {
  strict: true,
  onWarning: true,
  internalServiceNames: true,
  allowUnlistedCode: true,
} as const satisfies { readonly [K in keyof Required<OutgoingErrorOptions>]: true };

/** A problem that was fixed, or only reported, on an outgoing error. */
export interface OutgoingErrorWarning {
  /** What happened. */
  readonly kind:
    | "redacted"
    | "details_size"
    | "retry_after_adjusted"
    | "recovery_filled"
    | "message_filled"
    | "deprecated_code"
    | "field_dropped"
    | "field_filled"
    | "unlisted_code"
    | "response_size";
  /** The field concerned (`message`, `details.reason`, ...; `result` for `response_size`). */
  readonly field: string;
  /** A sentence for the seller's logs; it never repeats the redacted text. */
  readonly message: string;
  /** For `"redacted"`: what was found. */
  readonly leaks?: readonly LeakKind[];
}

/** The outgoing options, validated. */
export interface CheckedOptions {
  readonly strict: boolean;
  readonly onWarning: ((warning: OutgoingErrorWarning) => void) | undefined;
  readonly serviceNames: RegExp | undefined;
  readonly allowUnlistedCode: boolean;
  /** What the helper does, for its option errors: `"build the error result"`. */
  readonly action: string;
}

/**
 * Options validated for the outgoing helpers; `action` (`"build the error result"`) opens the
 * message of an option error, and `keys` are the keys of the helper's own options interface (an
 * unknown key is refused). Internal service names are never shown in one.
 */
export function checkOptions(
  options: OutgoingErrorOptions,
  action: string,
  keys: OptionKeys,
): CheckedOptions {
  if (typeof options !== "object" || options === null) {
    throw optionError(TypeError, action, "options", "an object", options);
  }
  checkSellerOptionKeys(action, options, keys);
  const strict = options.strict ?? false;
  if (typeof strict !== "boolean") {
    throw optionError(TypeError, action, "options.strict", "a boolean", strict);
  }
  const onWarning = options.onWarning;
  if (onWarning !== undefined && typeof onWarning !== "function") {
    throw optionError(TypeError, action, "options.onWarning", "a function", onWarning);
  }
  const allowUnlistedCode = options.allowUnlistedCode ?? false;
  if (typeof allowUnlistedCode !== "boolean") {
    throw optionError(
      TypeError,
      action,
      "options.allowUnlistedCode",
      "a boolean",
      allowUnlistedCode,
    );
  }
  const names = options.internalServiceNames ?? [];
  if (!Array.isArray(names)) {
    throw optionError(
      TypeError,
      action,
      "options.internalServiceNames",
      "an array of strings",
      notShown(names),
    );
  }
  if (names.length > MAX_SERVICE_NAMES) {
    throw optionError(
      RangeError,
      action,
      "options.internalServiceNames.length",
      `at most ${MAX_SERVICE_NAMES}`,
      names.length,
    );
  }
  names.forEach((name: unknown, index) => {
    // Blank or not a string: nothing of a name to show.
    if (typeof name !== "string" || name.trim() === "") {
      throw optionError(
        TypeError,
        action,
        `options.internalServiceNames[${index}]`,
        "a non-empty string",
        name,
      );
    }
    if (name.length > MAX_SERVICE_NAME_LENGTH) {
      throw optionError(
        RangeError,
        action,
        `options.internalServiceNames[${index}].length`,
        `at most ${MAX_SERVICE_NAME_LENGTH}`,
        name.length,
      );
    }
  });
  return {
    strict,
    onWarning,
    serviceNames: compileServiceNames(names),
    allowUnlistedCode,
    action,
  };
}
