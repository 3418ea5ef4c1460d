// Private: the parts of the pinned `core/mcp-webhook-payload.json` (AdCP 3.2.0-beta.5) that the
// envelope check enforces, as data. Each table is typed by the type @adcp-wire/schemas generates
// from the same schema, so a schema version that adds or drops a value fails to compile here until
// the table follows; `_envelope_schema_test.ts` compares every table with the pinned JSON files.
import type { AdcpProtocol, TaskStatus, TaskType } from "@adcp-wire/schemas";

/** The values of `enums/task-status.json`, the envelope's `status`. */
export const TASK_STATUSES: Readonly<Record<TaskStatus, true>> = Object.freeze({
  submitted: true,
  working: true,
  "input-required": true,
  completed: true,
  canceled: true,
  failed: true,
  rejected: true,
  "auth-required": true,
  unknown: true,
});

/** The values of `enums/task-type.json`, the envelope's `task_type`. */
export const TASK_TYPES: Readonly<Record<TaskType, true>> = Object.freeze({
  create_media_buy: true,
  update_media_buy: true,
  buy_products: true,
  accept_proposal: true,
  control_media_buy: true,
  media_buy_delivery: true,
  sync_creatives: true,
  build_creative: true,
  preview_creative: true,
  activate_signal: true,
  get_products: true,
  request_proposals: true,
  refine_proposals: true,
  decline_proposals: true,
  get_signals: true,
  create_property_list: true,
  update_property_list: true,
  get_property_list: true,
  list_property_lists: true,
  delete_property_list: true,
  sync_accounts: true,
  get_account_financials: true,
  get_creative_delivery: true,
  sync_event_sources: true,
  sync_audiences: true,
  sync_catalogs: true,
  log_event: true,
  get_brand_identity: true,
  search_brands: true,
  get_rights: true,
  acquire_rights: true,
  update_rights: true,
  sync_agent_notification_configs: true,
});

/** The values of `enums/adcp-protocol.json`, the envelope's optional `protocol`. */
export const ADCP_PROTOCOLS: Readonly<Record<AdcpProtocol, true>> = Object.freeze({
  "media-buy": true,
  signals: true,
  governance: true,
  creative: true,
  brand: true,
  "sponsored-intelligence": true,
  measurement: true,
});

/** The required envelope members other than `idempotency_key`, in the schema's order. */
export const REQUIRED_FIELDS = [
  "operation_id",
  "task_id",
  "task_type",
  "status",
  "timestamp",
] as const;

/** `idempotency_key`: `pattern` `^[A-Za-z0-9_.:-]{16,255}$` (implies `minLength` and `maxLength`). */
export const IDEMPOTENCY_KEY_PATTERN = /^[A-Za-z0-9_.:-]{16,255}$/;
/** Shortest `idempotency_key`. */
export const IDEMPOTENCY_KEY_MIN_LENGTH = 16;
/** Longest `idempotency_key`. */
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;

/** `notification_id`: `pattern` `^[A-Za-z0-9_.:-]{1,255}$`. */
export const NOTIFICATION_ID_PATTERN = /^[A-Za-z0-9_.:-]{1,255}$/;

/** `token`: `minLength` 16, `maxLength` 4096 (UTF-16 code units, as JSON Schema counts them). */
export const TOKEN_MIN_LENGTH = 16;
/** Longest `token`. */
export const TOKEN_MAX_LENGTH = 4096;

/** Whether `value` is own-key member of `table` (no inherited name such as `constructor`). */
export function isMember(table: Readonly<Record<string, true>>, value: unknown): boolean {
  return typeof value === "string" && Object.hasOwn(table, value);
}

/**
 * RFC 3339 §5.6 `date-time`: `YYYY-MM-DD` `T` `HH:MM:SS[.frac]` and `Z` or `±HH:MM`, `T` and `Z` in
 * either case (RFC 3339 §5.6 NOTE). Linear: no nested quantifier.
 */
const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:[Zz]|([+-])(\d{2}):(\d{2}))$/;

/** Days per month of a common year. */
const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * Whether `value` is an RFC 3339 `date-time` with a real calendar date, hours 00-23, minutes and
 * offset minutes 00-59, offset hours 00-23, and seconds 00-59, or 60 for a leap second at 23:59
 * UTC (the reading of `ajv-formats`, which validates the same field in `@adcp-wire/validation`).
 */
export function isRfc3339DateTime(value: string): boolean {
  const match = DATE_TIME.exec(value);
  if (match === null) return false;
  const [, y, mo, d, h, mi, s, sign, oh, om] = match;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  if (month < 1 || month > 12 || day < 1) return false;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  if (day > (month === 2 && leap ? 29 : DAYS[month - 1]!)) return false;
  const hour = Number(h);
  const minute = Number(mi);
  const second = Number(s);
  const offsetHour = oh === undefined ? 0 : Number(oh);
  const offsetMinute = om === undefined ? 0 : Number(om);
  if (hour > 23 || minute > 59 || second > 60 || offsetHour > 23 || offsetMinute > 59) {
    return false;
  }
  if (second < 60) return true;
  // A leap second: only at 23:59:60 UTC.
  const direction = sign === "-" ? -1 : 1;
  const utcMinutes = ((hour * 60 + minute - direction * (offsetHour * 60 + offsetMinute)) %
      1440 + 1440) % 1440;
  return utcMinutes === 23 * 60 + 59;
}
