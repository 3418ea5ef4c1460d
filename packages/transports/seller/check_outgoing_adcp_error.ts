import { type ExtractedAdcpError, validateAdcpError } from "@adcp-wire/core";
import { isStandardErrorCode, isVendorErrorCode } from "@adcp-wire/recovery";
import { ADCP_VERSION, lookupErrorCode, type RecoveryClass } from "@adcp-wire/schemas";
import { jsonCopy } from "../read/_json.ts";
import { redactLeaks } from "./_leaks.ts";
import { checkOptions } from "./_outgoing.ts";
import { notShown } from "../read/_not_shown.ts";
import { describe, isJsonObject as isObject, type JsonRecord, own } from "@adcp-wire/internal";

/**
 * Largest serialized `details` a seller should send, in UTF-8 bytes: "keep `details` under 500
 * serialized JSON bytes" (Transport Error Mapping, "Size Guidance"). Exceeding it is a warning.
 *
 * @example Oversized details are sent, with a warning
 * ```ts
 * import { checkOutgoingAdcpError, DETAILS_SIZE_GUIDELINE_BYTES } from "@adcp-wire/transports";
 * import { deepStrictEqual, strictEqual } from "node:assert/strict";
 *
 * strictEqual(DETAILS_SIZE_GUIDELINE_BYTES, 500);
 * const details = { note: "x".repeat(DETAILS_SIZE_GUIDELINE_BYTES) };
 * const checked = checkOutgoingAdcpError({
 *   code: "INVALID_REQUEST",
 *   message: "Bad request",
 *   recovery: "correctable",
 *   details,
 * });
 * const kinds = checked.valid ? checked.warnings.map((warning) => warning.kind) : [];
 * deepStrictEqual(kinds, ["details_size"]);
 * ```
 */
export const DETAILS_SIZE_GUIDELINE_BYTES = 500;

/**
 * The producer target for one serialized MCP tool result, in UTF-8 bytes: 128 KiB. Above it,
 * {@linkcode adcpSuccessResult} and {@linkcode adcpErrorResult} report a `response_size` warning
 * and still return the result.
 *
 * MCP Response Extraction 3.3.0-beta.0, Security Considerations, "Size Limits": producers "SHOULD
 * target at most 128 KiB per serialized MCP response"; the 4 MiB client limit "is not a size a
 * producer may aim at". Measured on `JSON.stringify(result)` of the `CallToolResult` (the JSON-RPC
 * envelope around it is the MCP SDK's).
 *
 * @example A large success payload is sent, with a warning
 * ```ts
 * import {
 *   adcpSuccessResult,
 *   MCP_RESPONSE_SIZE_TARGET_BYTES,
 *   type OutgoingErrorWarning,
 * } from "@adcp-wire/transports";
 * import { deepStrictEqual, strictEqual } from "node:assert/strict";
 *
 * strictEqual(MCP_RESPONSE_SIZE_TARGET_BYTES, 131_072);
 * const warnings: OutgoingErrorWarning[] = [];
 * const products = Array.from({ length: 2_000 }, (_, i) => ({ product_id: `p${i}`, name: "x".repeat(64) }));
 * adcpSuccessResult({ status: "completed", products }, undefined, {
 *   onWarning: (warning) => warnings.push(warning),
 * });
 * deepStrictEqual(warnings.map((warning) => [warning.kind, warning.field]), [["response_size", "result"]]);
 * ```
 */
export const MCP_RESPONSE_SIZE_TARGET_BYTES = 131_072;

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
const encoder = new TextEncoder();

/**
 * What the leak heuristics of {@linkcode checkOutgoingAdcpError} found (Transport Error Mapping,
 * Security Considerations, "Seller Requirements"): a stack trace, a file path, an internal host
 * name, an IP address, database error text, an SQL fragment, a query plan, a Bearer token, a JWT,
 * an API key (or another long random-looking string), another credential (a password, a private
 * key, user information in a URL), a session id, or a name of `internalServiceNames`.
 *
 * @example Reading what a redaction found
 * ```ts
 * import { checkOutgoingAdcpError, type LeakKind } from "@adcp-wire/transports";
 * import { deepStrictEqual } from "node:assert/strict";
 *
 * const found: LeakKind[] = [];
 * checkOutgoingAdcpError(
 *   { code: "SERVICE_UNAVAILABLE", message: "db.internal at 10.0.3.7 is down" },
 *   { onWarning: (warning) => found.push(...(warning.leaks ?? [])) },
 * );
 * deepStrictEqual(found, ["internal_host", "ip_address"]);
 * ```
 */
export type LeakKind =
  | "stack_trace"
  | "file_path"
  | "internal_host"
  | "ip_address"
  | "database_error"
  | "sql_fragment"
  | "query_plan"
  | "bearer_token"
  | "jwt"
  | "api_key"
  | "credential"
  | "session_id"
  | "internal_service";

/**
 * Options of the seller-side helpers that send an AdCP error.
 *
 * @example Strict mode refuses what the default mode redacts
 * ```ts
 * import { checkOutgoingAdcpError, type OutgoingErrorOptions } from "@adcp-wire/transports";
 * import { deepStrictEqual } from "node:assert/strict";
 *
 * const error = { code: "SERVICE_UNAVAILABLE", message: "Upstream 10.0.3.7 refused" };
 * const options: OutgoingErrorOptions = { strict: true };
 * deepStrictEqual(checkOutgoingAdcpError(error, options), {
 *   valid: false,
 *   issues: [{
 *     kind: "leak",
 *     field: "message",
 *     message: "Expected message to hold no ip_address",
 *   }],
 * });
 * const lenient = checkOutgoingAdcpError(error);
 * deepStrictEqual(lenient.valid && lenient.error.message, "Upstream [redacted] refused");
 * ```
 */
export interface OutgoingErrorOptions {
  /**
   * Refuse, rather than redact, an error whose strings, or keys inside `details` and `issues`,
   * hold a leak (see {@linkcode LeakKind}).
   * @default {false}
   */
  readonly strict?: boolean | undefined;
  /**
   * Called with each warning (a redaction, an oversized `details` or tool result, an adjusted
   * `retry_after`, a filled `recovery`, a deprecated or unlisted code, a dropped field), for the
   * seller's logs.
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
 * A problem that was fixed, or only reported, on an outgoing error.
 *
 * @example Logging the warnings of a deprecated code
 * ```ts
 * import { checkOutgoingAdcpError, type OutgoingErrorWarning } from "@adcp-wire/transports";
 * import { deepStrictEqual } from "node:assert/strict";
 *
 * const warnings: OutgoingErrorWarning[] = [];
 * checkOutgoingAdcpError(
 *   { code: "AUTH_REQUIRED", message: "Sign in first", recovery: "correctable" },
 *   { onWarning: (warning) => warnings.push(warning) },
 * );
 * deepStrictEqual(warnings, [{
 *   kind: "deprecated_code",
 *   field: "code",
 *   message: "Code AUTH_REQUIRED is a deprecated alias; prefer its replacement",
 * }]);
 * ```
 */
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

/**
 * Why an outgoing error was refused.
 *
 * @example Every problem is an issue
 * ```ts
 * import { checkOutgoingAdcpError, type OutgoingErrorIssue } from "@adcp-wire/transports";
 * import { deepStrictEqual } from "node:assert/strict";
 *
 * const checked = checkOutgoingAdcpError({ code: "RATE_LIMITED", message: "", retry_after: "5" });
 * const issues: readonly OutgoingErrorIssue[] = checked.valid ? [] : checked.issues;
 * deepStrictEqual(issues.map((issue) => [issue.kind, issue.field]), [
 *   ["type", "message"],
 *   ["type", "retry_after"],
 * ]);
 * ```
 */
export interface OutgoingErrorIssue {
  /** What was wrong. */
  readonly kind: "shape" | "code_format" | "type" | "leak" | "too_large";
  /** The field concerned. */
  readonly field: string;
  /** A sentence naming the field and what was expected; it never repeats seller text. */
  readonly message: string;
}

/**
 * The result of {@linkcode checkOutgoingAdcpError}.
 *
 * @example Sending the checked error, or logging why not
 * ```ts
 * import { checkOutgoingAdcpError, type OutgoingErrorCheck } from "@adcp-wire/transports";
 * import { deepStrictEqual } from "node:assert/strict";
 *
 * const checked: OutgoingErrorCheck = checkOutgoingAdcpError({
 *   code: "X_ACME_FLOOR_NOT_MET",
 *   message: "Bid below the floor",
 *   recovery: "correctable",
 *   internal_trace_id: "abc123",
 * });
 * if (!checked.valid) throw new Error(checked.issues[0]?.message);
 * deepStrictEqual(checked.error, {
 *   code: "X_ACME_FLOOR_NOT_MET",
 *   message: "Bid below the floor",
 *   recovery: "correctable",
 * });
 * deepStrictEqual(checked.warnings.map((warning) => warning.kind), ["field_dropped"]);
 * ```
 */
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
 * Checks, and cleans, an AdCP error a seller is about to send (Transport Error Mapping, "MCP
 * Server Implementation", "Seller-Specific Error Codes", "Recovery Behavior", "Size Guidance" and
 * Security Considerations, "Seller Requirements"). The result is a new object; the input is not
 * modified.
 *
 * Refused (an issue each):
 * - a value that is not an object (`shape`), a `code` that is neither a standard code
 *   (`isStandardErrorCode`, deprecated aliases included) nor a vendor code `X_{VENDOR}_{CODE}`
 *   (`isVendorErrorCode`) (`code_format`): "Seller-specific codes MUST use the format
 *   `X_{VENDOR}_{CODE}`". A code of the standard shape (`NEWER_CODE`) that is in neither is
 *   accepted, with an `unlisted_code` warning, only when `allowUnlistedCode` says it is a standard
 *   code newer than this library (the vocabulary is open: "Senders MAY emit codes outside the
 *   receiver's pinned vocabulary", Error Handling);
 * - a code outside the standard table without `recovery` ("Senders MUST populate
 *   `error.recovery` on every error", Error Handling), and `FIELD_NOT_PERMITTED` without `field`
 *   ("MUST populate `error.field` with the exact offending field path") (`type`);
 * - a `message` that is not a non-empty string (`core/error.json` requires it), a `field` or
 *   `suggestion` that is not a string, a `recovery` outside `transient`/`correctable`/`terminal`,
 *   a `retry_after` that is not a finite number, `details` that is not a JSON object, `issues`
 *   that is not an array of objects with string `pointer`, `message` and `keyword`, `source` or
 *   `sdk_id` that is not a string, or JSON that does not serialize (`type`);
 * - in `strict` mode, any leak the heuristics below find, in a string or in a key of `details` or
 *   `issues` (`leak`);
 * - a result that our own extraction would discard: `validateAdcpError` of `@adcp-wire/core`
 *   (code at most 64 characters, at most 4096 serialized UTF-8 bytes) (`too_large`).
 *
 * Fixed, with a warning:
 * - `retry_after` is rounded up, then clamped to [1, 3600] ("A producer converting a computed
 *   fractional delay MUST round up before clamping");
 * - a missing `recovery` of a standard code is filled from the code table, so Level 1 clients
 *   get the seller's intent;
 * - fields outside `core/error.json` are dropped;
 * - a missing `field` is filled from `issues[0].pointer`, in the JSONPath-lite form
 *   (`/packages/0/targeting` → `packages[0].targeting`): "When `issues` is present, sellers MUST
 *   also populate `field` from `issues[0]`" (`core/error.json`). `field` is only ever a string
 *   here: it is never used as a property path ("Never use `field` as a dynamic property path");
 * - leaks found in `message`, `field`, `suggestion`, `source`, `sdk_id` and every string value
 *   inside `details` and `issues` are replaced with `[redacted]` (outside `strict` mode): "Every
 *   field is client-facing". Keys inside `details` and `issues` are scanned too; a key cannot be
 *   redacted in place (two keys could collide), so a leaking key is dropped with the value under
 *   it, and the warning names the object (`details`, `issues[0]`) and the kind, never the key.
 *
 * Reported only: a deprecated standard code (for example `AUTH_REQUIRED`, alias of
 * `AUTH_MISSING`), and `details` of 500 serialized UTF-8 bytes or more. The 128 KiB target of a
 * whole tool result ({@linkcode MCP_RESPONSE_SIZE_TARGET_BYTES}) is reported, with the same
 * `onWarning`, by the helpers that build the result: an error this function accepts is at most
 * 4096 bytes.
 *
 * Leak heuristics (Security Considerations, "Seller Requirements": "Implementations MUST NOT
 * include" internal service names, hostnames or IP addresses; database error text, SQL fragments
 * or query plans; stack traces or file paths; credentials, tokens or session identifiers). Each
 * runs in time linear in the text.
 * - Whole lines: stack frames (V8, Java and C# `at ...` frames with a location, C# `in
 *   File.cs:line 42`, `fn@file:1:2`, Python tracebacks, Ruby `file.rb:12:in` frames, Go goroutine
 *   dumps); database errors of PostgreSQL (`relation "x" does not exist`, `duplicate key value
 *   violates unique constraint`, `permission denied for table`, `invalid input syntax for type`,
 *   `Key (c)=(v)`, psql's `ERROR:  `, `SQLSTATE`), MySQL (`You have an error in your SQL syntax`,
 *   `a foreign key constraint fails`, `Data too long for column`, `ER_*`, `ERROR 1146 (42S02)`),
 *   SQLite (`SQLITE_*`, `no such table:`, `near "x": syntax error`), SQL Server (`Msg 208, Level
 *   16`, `Invalid column name`, `Cannot insert the value NULL into column`), Oracle
 *   (`ORA-00942`), MongoDB and Mongoose (`E11000 duplicate key`, `MongoServerError`,
 *   `MongoServerSelectionError`, `Cast to ObjectId failed`) and common driver and ORM exception
 *   names; query plans (`Seq Scan on`, `Index Scan using i on`, `->  Hash Join`, `(cost=0.00..1.00
 *   rows=1`, `Filter: (`, `Index Cond: (`, `Sort Key:`, `Planning Time: 0.1 ms`, upper-case
 *   `EXPLAIN` and `QUERY PLAN`, SQLite `SCAN t` and MySQL EXPLAIN rows); SQL fragments, found over
 *   the whole text, so a statement written over several lines redacts each of them and the clause
 *   lines that continue it (upper-case `SELECT ... FROM` within 1024 characters, `INSERT INTO`,
 *   `UPDATE t SET`, `DELETE FROM`, `MERGE INTO`, `WHERE c =`; in any case `select * from`, `select
 *   "id", "name" from` with a quoted, qualified or comma-separated column list, `insert into t (`,
 *   `delete from t where`, `update t set c =`, `union select` and `DROP`/`ALTER`/`CREATE`/`TRUNCATE
 *   TABLE`).
 * - Spans: private key blocks; JWTs (three base64url segments, the first starting `eyJ`);
 *   `Bearer <token>` (8+ characters with a digit, mixed case or punctuation); `Basic <base64 of
 *   user:password>`; the value of an `Authorization:` or `Proxy-Authorization:` header, whatever
 *   its scheme, to the end of the line; key shapes (`sk_live_`/`sk_test_`/`rk_live_`, `AKIA`/`ASIA`
 *   + 16, `ghp_` and the other GitHub prefixes, `github_pat_`, `xoxb-` and the other Slack
 *   prefixes, `AIza` + 35, `glpat-`, `npm_`, `sk-proj-`/`sk-ant-`, SendGrid `SG.`, Slack webhook
 *   URLs); `api_key=`, `access_token=`, `token=`, `auth=`, `password=`, `secret=` and similar pairs
 *   (`=`, a quoted `"key": "value"`, or `key: value` with a digit in the value); session cookies
 *   (`session=`, `sessionid=`, `sid=`, `PHPSESSID=` or `PHPSESSID:`, `JSESSIONID=`,
 *   `ASP.NET_SessionId=`, `connect.sid=`, `laravel_session=`, Rails' `_app_session=`, `session
 *   <uuid>`, `Cookie:` and `Set-Cookie:` lines); runs of 32+ base64 or base64url characters that
 *   look random (hex with digits and letters and 3+ bits of entropy a character; or upper, lower
 *   and digits and 3.9+ bits); and the names of `internalServiceNames`, as whole words.
 * - Tokens: Windows paths and UNC shares; Unix paths under common system and application roots
 *   (`/home/`, `/usr/`, `/var/`, `/app/`, `/srv/`, `~/`, ...); source and config files given with
 *   a directory or a line number (`src/db.ts`, `db.ts:42`); host names under internal suffixes
 *   (`.internal`, `.local`, `.lan`, `.corp`, `.svc`, `.intranet`, `.private`, `.home.arpa`),
 *   `localhost`, dotted host names with a port; IPv4 and IPv6 addresses; and URLs whose scheme is
 *   `file:`, that carry user information, or whose host is an IP, a single-label name,
 *   `localhost` or an internal suffix. Public `https:` URLs (`setup_url`, `policy_url`) are kept.
 *
 * A line is replaced whole (one `[redacted]` for a run of lines), a span or token alone. Not
 * detected: a bare service name that is not in `internalServiceNames`, secrets shorter or less
 * random than the shapes above, and SQL that reads as English (`select name from users`, `delete
 * from users` in lower case); keep those out of errors by construction (see
 * {@linkcode translateUpstreamError}).
 *
 * @param error The error to send (any value).
 * @param options Strict mode, a warning callback, internal service names, unlisted codes.
 * @returns The cleaned error and the warnings, or the issues.
 * @throws {TypeError} When `options` is malformed.
 * @throws {RangeError} When `options.internalServiceNames` has too many or too long names.
 *
 * @example Cleaning an error, and refusing a malformed code
 * ```ts
 * import { checkOutgoingAdcpError } from "@adcp-wire/transports";
 * import { deepStrictEqual } from "node:assert/strict";
 *
 * const checked = checkOutgoingAdcpError({
 *   code: "SERVICE_UNAVAILABLE",
 *   message: "connect ECONNREFUSED 10.0.3.7:5432",
 *   retry_after: 2.5,
 * });
 * deepStrictEqual(checked.valid && checked.error, {
 *   code: "SERVICE_UNAVAILABLE",
 *   message: "connect ECONNREFUSED [redacted]",
 *   recovery: "transient",
 *   retry_after: 3,
 * });
 * deepStrictEqual(checkOutgoingAdcpError({ code: "floor_not_met", message: "Too low" }), {
 *   valid: false,
 *   issues: [{
 *     kind: "code_format",
 *     field: "code",
 *     message: "Expected code to be a standard AdCP code or X_{VENDOR}_{CODE}, got another string",
 *   }],
 * });
 * ```
 *
 * @example Database text, tokens and internal service names
 * ```ts
 * import { checkOutgoingAdcpError, type LeakKind } from "@adcp-wire/transports";
 * import { deepStrictEqual } from "node:assert/strict";
 *
 * const leaks: LeakKind[] = [];
 * const checked = checkOutgoingAdcpError({
 *   code: "SERVICE_UNAVAILABLE",
 *   message: "Lookup failed\nERROR:  relation \"line_items\" does not exist",
 *   suggestion: "Ask inventory-svc owners; use Bearer 4f9a1c2e8b7d6a5f",
 * }, {
 *   internalServiceNames: ["inventory-svc"],
 *   onWarning: (warning) => leaks.push(...(warning.leaks ?? [])),
 * });
 * deepStrictEqual(checked.valid && [checked.error.message, checked.error.suggestion], [
 *   "Lookup failed\n[redacted]",
 *   "Ask [redacted] owners; use [redacted]",
 * ]);
 * deepStrictEqual(leaks, ["database_error", "internal_service", "bearer_token"]);
 * ```
 *
 * @example A key that leaks is dropped, or refused in strict mode
 * ```ts
 * import { checkOutgoingAdcpError } from "@adcp-wire/transports";
 * import { deepStrictEqual } from "node:assert/strict";
 *
 * const error = {
 *   code: "SERVICE_UNAVAILABLE",
 *   message: "Upstream timed out",
 *   details: { "10.0.3.7:5432": "timeout", attempts: 3 },
 * };
 * const checked = checkOutgoingAdcpError(error);
 * deepStrictEqual(checked.valid && checked.error.details, { attempts: 3 });
 * deepStrictEqual(checkOutgoingAdcpError(error, { strict: true }), {
 *   valid: false,
 *   issues: [{
 *     kind: "leak",
 *     field: "details",
 *     message: "Expected the keys of details to hold no ip_address",
 *   }],
 * });
 * ```
 */
export function checkOutgoingAdcpError(
  error: unknown,
  options: OutgoingErrorOptions = {},
): OutgoingErrorCheck {
  const { strict, onWarning, serviceNames, allowUnlistedCode } = checkOptions(
    options,
    "check the outgoing error",
  );
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
  const unlisted = typeof code === "string" && !code.startsWith("X_") &&
    STANDARD_CODE_SHAPE.test(code) && !isStandardErrorCode(code);
  if (
    typeof code !== "string" ||
    (!isStandardErrorCode(code) && !isVendorErrorCode(code) && !(unlisted && allowUnlistedCode))
  ) {
    issue(
      "code_format",
      "code",
      `Expected code to be a standard AdCP code or X_{VENDOR}_{CODE}, got ${
        typeof code === "string"
          ? unlisted
            ? "a code that is in neither: seller-specific codes MUST use the X_{VENDOR}_{CODE} " +
              "form (set allowUnlistedCode for a standard code newer than this library)"
            : "another string"
          : describe(notShown(code))
      }`,
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
      const bytes = encoder.encode(JSON.stringify(out.details)).length;
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
