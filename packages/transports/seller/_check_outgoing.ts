// The check behind checkOutgoingAdcpError and every seller helper, on options already validated:
// the helpers validate (and key-check) their own options once, then check the error with them.
import { type ExtractedAdcpError, validateAdcpError } from "@adcp-wire/core";
import { isStandardErrorCode, isVendorErrorCode } from "@adcp-wire/recovery";
import { ADCP_VERSION, lookupErrorCode, type RecoveryClass } from "@adcp-wire/schemas";
import { jsonCopy } from "../read/_json.ts";
import { redactLeaks } from "./_leaks.ts";
import type { CheckedOptions, OutgoingErrorWarning } from "./_outgoing_options.ts";
import { shownCode } from "./_shown_code.ts";
import {
  describe,
  isJsonObject as isObject,
  type JsonRecord,
  notShown,
  own,
  utf8Length,
} from "@adcp-wire/internal";

/**
 * Largest serialized `details` a seller should send, in UTF-8 bytes: 500. `details` of this size or
 * more is still sent, with a `details_size` warning.
 *
 * Spec: Transport Error Mapping, Size Guidance.
 */
export const DETAILS_SIZE_GUIDELINE_BYTES = 500;

/** The fields of `core/error.json` an outgoing error keeps; any other field is dropped. */
const KNOWN_FIELDS: readonly string[] = [
  "code",
  "message",
  "recovery",
  "retry_after",
  "field",
  "suggestion",
  "details",
  "issues",
  "source",
  "sdk_id",
];
const RECOVERY_CLASSES: readonly string[] = ["transient", "correctable", "terminal"];
/** The shape of standard codes: upper-case words joined by underscores (`RATE_LIMITED`). */
const STANDARD_CODE_SHAPE = /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*$/;
/** The longest code buyers accept, in UTF-16 code units (Client Library Requirements 3). */
const MAX_CODE_LENGTH = 64;

/** Why an outgoing error was refused. */
export interface OutgoingErrorIssue {
  /** What was wrong. */
  readonly kind: "shape" | "code_format" | "type" | "leak" | "too_large";
  /** The field concerned. */
  readonly field: string;
  /**
   * A sentence naming the field and what was expected. It repeats no seller text but a refused
   * `code` that looks like a code and holds no leak (`"FLOOR_NOT_MET"`), so that the seller sees
   * which code was refused; any other is shown by its length.
   */
  readonly message: string;
}

/** The result of `checkOutgoingAdcpError`. */
export type OutgoingErrorCheck =
  | {
    readonly valid: true;
    /** The error to send: a new object holding only the checked fields. */
    readonly error: ExtractedAdcpError;
    /** What was fixed or reported (also passed to `onWarning`). */
    readonly warnings: readonly OutgoingErrorWarning[];
  }
  | { readonly valid: false; readonly issues: readonly OutgoingErrorIssue[] };

/**
 * What `checkOutgoingAdcpError` does once its options are validated: the cleaned error and
 * its warnings (each also passed to `onWarning`), or the issues.
 */
export function outgoingErrorCheck(error: unknown, checked: CheckedOptions): OutgoingErrorCheck {
  const { strict, onWarning, serviceNames, allowUnlistedCode } = checked;
  const issues: OutgoingErrorIssue[] = [];
  const warnings: OutgoingErrorWarning[] = [];
  const issue = (kind: OutgoingErrorIssue["kind"], field: string, message: string): void => {
    issues.push({ kind, field, message });
  };
  const warn = (warning: OutgoingErrorWarning): void => {
    warnings.push(warning);
  };
  if (!isObject(error)) {
    return fail([{
      kind: "shape",
      field: "error",
      message: `Expected error to be an object, got ${describe(notShown(error))}`,
    }]);
  }
  const out: JsonRecord = {};
  const code = own(error, "code");
  // A code shaped like a standard one but not in this version's table: a newer standard code
  // ("The error-code vocabulary is open [...] Senders MAY emit codes outside the receiver's pinned
  // vocabulary", Error Handling), or a seller's own code missing its X_ prefix ("Seller-specific
  // codes MUST use the format X_{VENDOR}_{CODE}"). Only the caller knows which: refused unless
  // allowUnlistedCode says it is the former.
  const unlisted = typeof code === "string" && code.length <= MAX_CODE_LENGTH &&
    !code.startsWith("X_") && STANDARD_CODE_SHAPE.test(code) && !isStandardErrorCode(code);
  if (
    typeof code !== "string" ||
    (!isStandardErrorCode(code) && !isVendorErrorCode(code) && !(unlisted && allowUnlistedCode))
  ) {
    issue(
      "code_format",
      "code",
      "Expected code to be a standard AdCP code or X_{VENDOR}_{CODE}, got " +
        refusedCode(code, unlisted, serviceNames),
    );
  } else {
    out.code = code;
    if (unlisted) {
      warn({
        kind: "unlisted_code",
        field: "code",
        message: `Code ${code} is not in the AdCP ${ADCP_VERSION} table nor a vendor code`,
      });
    }
    if (lookupErrorCode(code)?.deprecated === true) {
      warn({
        kind: "deprecated_code",
        field: "code",
        message: `Code ${code} is a deprecated alias; prefer its replacement`,
      });
    }
  }

  const text = (field: string, value: string): string => {
    const scan = redactLeaks(value, serviceNames);
    if (scan.kinds.length === 0) return value;
    if (strict) {
      issue("leak", field, `Expected ${field} to hold no ${scan.kinds.join(", ")}`);
    } else {
      warn({
        kind: "redacted",
        field,
        message: `Redacted ${scan.kinds.join(", ")} in ${field}`,
        leaks: scan.kinds,
      });
    }
    return scan.text;
  };
  // A key cannot be redacted in place: two keys could become one "[redacted]". A leaking key is
  // dropped, with the value under it; the warning or issue names the object, not the key.
  const keep = (field: string, key: string): boolean => {
    const scan = redactLeaks(key, serviceNames);
    if (scan.kinds.length === 0) return true;
    if (strict) {
      issue("leak", field, `Expected the keys of ${field} to hold no ${scan.kinds.join(", ")}`);
    } else {
      warn({
        kind: "redacted",
        field,
        message: `Dropped a key of ${field} holding ${scan.kinds.join(", ")}`,
        leaks: scan.kinds,
      });
    }
    return false;
  };

  const message = own(error, "message");
  if (typeof message !== "string" || message === "") {
    issue(
      "type",
      "message",
      `Expected message to be a non-empty string, got ${describe(notShown(message))}`,
    );
  } else {
    out.message = text("message", message);
  }

  const recovery = own(error, "recovery");
  if (recovery === undefined) {
    const fromTable: RecoveryClass | undefined = typeof code === "string"
      ? lookupErrorCode(code)?.recovery
      : undefined;
    if (fromTable !== undefined) {
      out.recovery = fromTable;
      warn({
        kind: "recovery_filled",
        field: "recovery",
        message: `Filled recovery "${fromTable}" from the standard code table`,
      });
    } else if (out.code !== undefined) {
      // "Senders MUST populate `error.recovery` on every error" (Error Handling, Forward-compatible
      // decoding): only the seller knows what its own (or a newer) code means.
      issue(
        "type",
        "recovery",
        "Expected recovery (transient, correctable or terminal) for a code outside the standard " +
          "table: senders MUST populate it",
      );
    }
  } else if (typeof recovery !== "string" || !RECOVERY_CLASSES.includes(recovery)) {
    issue(
      "type",
      "recovery",
      "Expected recovery to be transient, correctable or terminal, got " +
        (typeof recovery === "string" ? "another string" : describe(notShown(recovery))),
    );
  } else {
    out.recovery = recovery;
  }

  const retryAfter = own(error, "retry_after");
  if (retryAfter !== undefined) {
    if (typeof retryAfter !== "number" || !Number.isFinite(retryAfter)) {
      issue(
        "type",
        "retry_after",
        `Expected retry_after to be a finite number of seconds, got ${
          describe(notShown(retryAfter))
        }`,
      );
    } else {
      const seconds = Math.min(3600, Math.max(1, Math.ceil(retryAfter)));
      if (seconds !== retryAfter) {
        warn({
          kind: "retry_after_adjusted",
          field: "retry_after",
          message: `Adjusted retry_after from ${retryAfter} to ${seconds} (round up, then clamp ` +
            "to [1, 3600])",
        });
      }
      out.retry_after = seconds;
    }
  }

  for (const field of ["field", "suggestion", "source", "sdk_id"]) {
    const value = own(error, field);
    if (value === undefined) continue;
    if (typeof value !== "string") {
      issue("type", field, `Expected ${field} to be a string, got ${describe(notShown(value))}`);
    } else {
      // "Every field is client-facing" (Seller Requirements): all of them are scanned.
      out[field] = text(field, value);
    }
  }

  if (out.code === "FIELD_NOT_PERMITTED" && typeof own(error, "field") !== "string") {
    // "FIELD_NOT_PERMITTED MUST populate `error.field` with the exact offending field path".
    issue("type", "field", "Expected field with the offending field path for FIELD_NOT_PERMITTED");
  }

  const details = own(error, "details");
  if (details !== undefined) {
    const copy = isObject(details) ? jsonCopy(details) : undefined;
    if (!isObject(copy)) {
      issue(
        "type",
        "details",
        `Expected details to be a JSON object, got ${describe(notShown(details))}`,
      );
    } else {
      out.details = redactStrings(copy, "details", text, keep) as JsonRecord;
      const bytes = utf8Length(JSON.stringify(out.details));
      if (bytes >= DETAILS_SIZE_GUIDELINE_BYTES) {
        warn({
          kind: "details_size",
          field: "details",
          message: `details is ${bytes} serialized UTF-8 bytes; keep it under ` +
            `${DETAILS_SIZE_GUIDELINE_BYTES}`,
        });
      }
    }
  }

  const errorIssues = own(error, "issues");
  if (errorIssues !== undefined) {
    const copy = Array.isArray(errorIssues) ? jsonCopy(errorIssues) : undefined;
    if (!Array.isArray(copy)) {
      issue(
        "type",
        "issues",
        `Expected issues to be a JSON array, got ${describe(notShown(errorIssues))}`,
      );
    } else {
      copy.forEach((item, index) => {
        const missing = ["pointer", "message", "keyword"].filter((key) =>
          !isObject(item) || typeof own(item, key) !== "string"
        );
        if (missing.length > 0) {
          issue(
            "type",
            `issues[${index}]`,
            `Expected issues[${index}] to be an object with string ${missing.join(", ")}`,
          );
        }
      });
      out.issues = redactStrings(copy, "issues", text, keep);
      // "When `issues` is present, sellers MUST also populate `field` from `issues[0]`",
      // translating the RFC 6901 pointer to the JSONPath-lite form (core/error.json, issues).
      const first = copy[0];
      const pointer = isObject(first) ? own(first, "pointer") : undefined;
      if (out.field === undefined && typeof pointer === "string" && pointer.startsWith("/")) {
        out.field = text("field", pointerToField(pointer));
        warn({
          kind: "field_filled",
          field: "field",
          message: "Filled field from issues[0].pointer, as core/error.json requires",
        });
      }
    }
  }

  for (const key of Object.keys(error)) {
    if (!KNOWN_FIELDS.includes(key)) {
      warn({
        kind: "field_dropped",
        field: key.slice(0, 64),
        message: "Dropped a field that core/error.json does not define",
      });
    }
  }

  if (issues.length === 0 && validateAdcpError(out) === null) {
    issue(
      "too_large",
      "error",
      "Expected the error to serialize to at most 4096 UTF-8 bytes, got more",
    );
  }
  if (issues.length > 0) return fail(issues);
  for (const warning of warnings) onWarning?.(warning);
  return { valid: true, error: out as ExtractedAdcpError, warnings };
}

function fail(issues: readonly OutgoingErrorIssue[]): OutgoingErrorCheck {
  return { valid: false, issues };
}

/**
 * What a refused `code` was, for the `code_format` message: the code itself where `shownCode`
 * allows it, and why it is neither standard nor a vendor code.
 */
function refusedCode(code: unknown, unlisted: boolean, serviceNames: RegExp | undefined): string {
  if (typeof code !== "string") return describe(notShown(code));
  if (code.length > MAX_CODE_LENGTH) {
    return `a code of ${code.length} characters (at most ${MAX_CODE_LENGTH})`;
  }
  const shown = shownCode(code, serviceNames);
  // In full when shown: a code-like string of at most 64 ASCII characters needs no cut or escape.
  const named = shown === code ? JSON.stringify(code) : describe(shown);
  if (unlisted) {
    // "Seller-specific codes MUST use the format X_{VENDOR}_{CODE}" ({CODE} of 2 to 40 characters).
    const vendorForm = shown === code && code.length <= 40 ? `, as X_{VENDOR}_${code}` : "";
    return `${named}, which is in neither: seller-specific codes MUST use the X_{VENDOR}_{CODE} ` +
      `form${vendorForm} (set allowUnlistedCode for a standard code newer than this library)`;
  }
  if (code.startsWith("X_")) {
    return `${named}, which is not of the X_{VENDOR}_{CODE} form ({VENDOR} matching ` +
      "/^[A-Z][A-Z0-9]{1,19}$/, {CODE} matching /^[A-Z][A-Z0-9_]{1,39}$/)";
  }
  const upper = code.toUpperCase();
  if (upper !== code && isStandardErrorCode(upper) && shown === code) {
    return `${named}: codes are case-sensitive, and the standard code is ${upper}`;
  }
  return named;
}

/**
 * An RFC 6901 JSON Pointer in the JSONPath-lite form of `field`: `/packages/0/targeting` is
 * `packages[0].targeting` (array indexes in brackets, `~1` and `~0` unescaped).
 */
function pointerToField(pointer: string): string {
  let field = "";
  for (const raw of pointer.slice(1).split("/")) {
    const token = raw.replaceAll("~1", "/").replaceAll("~0", "~");
    field += /^(?:0|[1-9]\d*)$/.test(token) ? `[${token}]` : field === "" ? token : `.${token}`;
  }
  return field;
}

/**
 * Applies `text` to every string value inside a JSON value, naming each by its path, and `keep` to
 * every key: a key it turns down is deleted with the value under it.
 */
function redactStrings(
  value: unknown,
  path: string,
  text: (field: string, value: string) => string,
  keep: (field: string, key: string) => boolean,
): unknown {
  if (typeof value === "string") return text(path, value);
  if (Array.isArray(value)) {
    return value.map((item, index) => redactStrings(item, `${path}[${index}]`, text, keep));
  }
  if (isObject(value)) {
    for (const key of Object.keys(value)) {
      if (!keep(path, key)) {
        Reflect.deleteProperty(value, key);
        continue;
      }
      // defineProperty, not assignment: a JSON "__proto__" key is an own data property here.
      Object.defineProperty(value, key, {
        value: redactStrings(value[key], `${path}.${key.slice(0, 64)}`, text, keep),
        writable: true,
        enumerable: true,
        configurable: true,
      });
    }
  }
  return value;
}
