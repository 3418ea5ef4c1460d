import {
  describeShape,
  isJsonObject as isObject,
  optionError,
  type OptionKeys,
  optionKeys,
  own,
} from "@adcp-wire/internal";
import { checkKeys } from "../_options.ts";
import {
  isNonEmptyString,
  MAX_PROFILE_CARD_ENTRIES,
  publicViolation,
  type RawViolation,
  setField,
  violation,
} from "./_profile.ts";
import { ADCP_A2A_PROFILE, type AdcpProfileViolation } from "./types.ts";

export { MAX_PROFILE_CARD_ENTRIES } from "./_profile.ts";

/**
 * Why {@link checkAdcpProfileAdvertisement} refused a card (AdCP A2A Profile Extension v3,
 * "Advertisement and activation" and "Runtime discovery"):
 *
 * - `invalid_agent_card`: the card is not an object, or `capabilities`,
 *   `capabilities.extensions` or `skills` has the wrong type.
 * - `limit_exceeded`: `capabilities.extensions` or `skills` lists more than
 *   {@link MAX_PROFILE_CARD_ENTRIES} entries.
 * - `extension_not_advertised`: no entry of `capabilities.extensions` has the profile URI.
 * - `extension_not_under_capabilities`: the URI is only in a top-level `extensions` array, which
 *   is no A2A 1.0 `AgentExtension` ("MUST advertise the extension under
 *   `AgentCard.capabilities.extensions[]`").
 * - `duplicate_extension_declaration`: two entries declare the URI (which one holds?).
 * - `invalid_extension_declaration`: the entry's `required` is not a boolean or its
 *   `description` not a string.
 * - `extension_params_not_empty`: `params` is set and is not `{}` ("MUST be omitted or empty").
 * - `invalid_skill_id`: a `skills[]` entry is not an object with a non-empty string `id`.
 * - `duplicate_skill_id`: two skills share an `id` (the invocation's `skill` names one).
 * - `missing_get_adcp_capabilities_skill_id`: no skill has the `id` `get_adcp_capabilities`
 *   ("MUST appear on every interface"); a skill merely *named* so does not count.
 * - `missing_get_task_status_skill_id`: with `requireTaskStatus`, no skill has the `id`
 *   `get_task_status`.
 */
export type AdcpProfileAdvertisementCode =
  | "invalid_agent_card"
  | "limit_exceeded"
  | "extension_not_advertised"
  | "extension_not_under_capabilities"
  | "duplicate_extension_declaration"
  | "invalid_extension_declaration"
  | "extension_params_not_empty"
  | "invalid_skill_id"
  | "duplicate_skill_id"
  | "missing_get_adcp_capabilities_skill_id"
  | "missing_get_task_status_skill_id";

/** A card that advertises the profile, as {@link checkAdcpProfileAdvertisement} read it. */
export interface AdcpProfileAdvertisement {
  /** Always `true`. */
  readonly valid: true;
  /**
   * The declaration's `required` (`false` when absent, as A2A defaults it): when `true` the
   * interface rejects requests that do not activate the profile; when `false` it also takes
   * other A2A messages ("An implementation that also offers generic conversational A2A messages
   * must publish a separate Agent Card/interface that does not mark this profile required").
   */
  readonly required: boolean;
  /** Every `skills[].id`, in card order: the AdCP tasks dispatchable on this interface. */
  readonly skillIds: readonly string[];
  /** Whether a skill has the `id` `get_task_status` (needed to poll AdCP Submitted work). */
  readonly getTaskStatus: boolean;
}

/** What {@link checkAdcpProfileAdvertisement} returns. */
export type AdcpProfileAdvertisementCheck =
  | AdcpProfileAdvertisement
  | AdcpProfileViolation<AdcpProfileAdvertisementCode>;

/** Options of {@link checkAdcpProfileAdvertisement}. */
export interface CheckAdcpProfileAdvertisementOptions {
  /**
   * Also require a skill whose `id` is `get_task_status`: "An agent that can return an AdCP
   * Submitted response under this profile MUST also advertise the `get_task_status` ID". A card
   * does not say whether its agent returns Submitted responses, so only the caller who knows (a
   * seller checking its own card, a buyer about to start long-running work) can ask for it.
   * @default {false}
   */
  readonly requireTaskStatus?: boolean | undefined;
}

const ACTION = "check the AdCP profile advertisement";

/** The keys of {@link CheckAdcpProfileAdvertisementOptions}. */
const OPTION_KEYS: OptionKeys = optionKeys<CheckAdcpProfileAdvertisementOptions>({
  requireTaskStatus: true,
});

/**
 * Checks that an agent card advertises the AdCP A2A Profile Extension v3 as the page requires: the
 * URI under `capabilities.extensions[]` (exact, case-sensitive string equality), once, with
 * `params` omitted or empty, and `get_adcp_capabilities` among the `skills[].id` values. Never
 * throws on a card, whatever JSON value it is; the codes are {@link AdcpProfileAdvertisementCode}.
 *
 * Spec: AdCP A2A Profile Extension v3, "Advertisement and activation", "Runtime discovery".
 *
 * @param card The agent card: any JSON value.
 * @param options Whether to require `get_task_status` too.
 * @returns The declaration read, or the first rule broken.
 * @throws {TypeError} When `options` or `options.requireTaskStatus` has the wrong type, or
 * `options` a key it does not define.
 *
 * @example A card that advertises the profile, and one that names the skill wrongly
 * ```ts
 * import { ADCP_A2A_PROFILE, checkAdcpProfileAdvertisement } from "@adcp-wire/transports/a2a";
 * import { deepStrictEqual, strictEqual } from "node:assert/strict";
 *
 * const capabilities = { extensions: [{ uri: ADCP_A2A_PROFILE, required: true }] };
 * const skills = [{ id: "get_adcp_capabilities", name: "Discover" }];
 * deepStrictEqual(checkAdcpProfileAdvertisement({ capabilities, skills }), {
 *   valid: true,
 *   required: true,
 *   skillIds: ["get_adcp_capabilities"],
 *   getTaskStatus: false,
 * });
 * const named = [{ id: "discovery", name: "get_adcp_capabilities" }];
 * const result = checkAdcpProfileAdvertisement({ capabilities, skills: named });
 * strictEqual(result.valid === false && result.code, "missing_get_adcp_capabilities_skill_id");
 * ```
 */
export function checkAdcpProfileAdvertisement(
  card: unknown,
  options: CheckAdcpProfileAdvertisementOptions = {},
): AdcpProfileAdvertisementCheck {
  if (!isObject(options)) throw optionError(TypeError, ACTION, "options", "an object", options);
  checkKeys(ACTION, "options", options, OPTION_KEYS);
  const requireTaskStatus = options.requireTaskStatus ?? false;
  if (typeof requireTaskStatus !== "boolean") {
    throw optionError(
      TypeError,
      ACTION,
      "options.requireTaskStatus",
      "a boolean",
      requireTaskStatus,
    );
  }
  const checked = advertisement(card, requireTaskStatus);
  return checked.valid ? checked : publicViolation(checked);
}

type Raw = RawViolation<AdcpProfileAdvertisementCode>;

function advertisement(card: unknown, requireTaskStatus: boolean): AdcpProfileAdvertisement | Raw {
  if (!isObject(card)) {
    return violation("invalid_agent_card", "an agent card object", describeShape(card));
  }
  const capabilities = setField(card, "capabilities");
  if (capabilities !== undefined && !isObject(capabilities)) {
    return violation(
      "invalid_agent_card",
      "capabilities as an object",
      describeShape(capabilities),
    );
  }
  const list = capabilities === undefined ? undefined : setField(capabilities, "extensions");
  const declared = entriesWithProfile(list, "capabilities.extensions");
  if (!Array.isArray(declared)) return declared;
  if (declared.length === 0) {
    const topLevel = entriesWithProfile(setField(card, "extensions"), "extensions");
    return Array.isArray(topLevel) && topLevel.length > 0
      ? violation(
        "extension_not_under_capabilities",
        "the AdCP profile declared under capabilities.extensions",
        "it only in a top-level extensions array",
      )
      : violation(
        "extension_not_advertised",
        "the AdCP profile URI in capabilities.extensions",
        "no entry with that URI",
      );
  }
  if (declared.length > 1) {
    return violation(
      "duplicate_extension_declaration",
      "one capabilities.extensions entry for the AdCP profile",
      `${declared.length}`,
    );
  }
  const entry = declared[0]!;
  const required = setField(entry, "required");
  if (required !== undefined && typeof required !== "boolean") {
    return violation(
      "invalid_extension_declaration",
      "the profile declaration's required as a boolean",
      describeShape(required),
    );
  }
  const description = setField(entry, "description");
  if (description !== undefined && typeof description !== "string") {
    return violation(
      "invalid_extension_declaration",
      "the profile declaration's description as a string",
      describeShape(description),
    );
  }
  const params = setField(entry, "params");
  if (params !== undefined && !(isObject(params) && Object.keys(params).length === 0)) {
    return violation(
      "extension_params_not_empty",
      "the profile declaration's params omitted or empty (runtime capabilities belong in " +
        "get_adcp_capabilities)",
      isObject(params)
        ? `an object with ${Object.keys(params).length} members`
        : describeShape(params),
    );
  }
  const skills = setField(card, "skills");
  if (skills !== undefined && !Array.isArray(skills)) {
    return violation("invalid_agent_card", "skills as an array", describeShape(skills));
  }
  const skillList = skills ?? [];
  if (skillList.length > MAX_PROFILE_CARD_ENTRIES) {
    return violation(
      "limit_exceeded",
      `at most ${MAX_PROFILE_CARD_ENTRIES} skills`,
      `${skillList.length}`,
    );
  }
  const skillIds: string[] = [];
  const seen = new Set<string>();
  for (let index = 0; index < skillList.length; index++) {
    const skill = Object.hasOwn(skillList, index) ? skillList[index] : undefined;
    const id = isObject(skill) ? own(skill, "id") : undefined;
    if (!isNonEmptyString(id)) {
      return violation(
        "invalid_skill_id",
        `skills[${index}] as an object with a non-empty string id`,
        isObject(skill) ? `an id that is ${describeShape(id)}` : describeShape(skill),
      );
    }
    if (seen.has(id)) {
      return violation("duplicate_skill_id", "unique skills[].id values", `a repeat at ${index}`);
    }
    seen.add(id);
    skillIds.push(id);
  }
  if (!seen.has("get_adcp_capabilities")) {
    return violation(
      "missing_get_adcp_capabilities_skill_id",
      'a skill whose id is "get_adcp_capabilities" (AgentSkill.id, not name)',
      "none",
    );
  }
  const getTaskStatus = seen.has("get_task_status");
  if (requireTaskStatus && !getTaskStatus) {
    return violation(
      "missing_get_task_status_skill_id",
      'a skill whose id is "get_task_status" (AgentSkill.id, not name)',
      "none",
    );
  }
  return { valid: true, required: required === true, skillIds, getTaskStatus };
}

/**
 * The object entries of a card's extension list whose `uri` is the profile's, exactly; a list of
 * the wrong type or length is a violation. Absent (or `null`): none.
 */
function entriesWithProfile(
  list: unknown,
  path: string,
): Record<string, unknown>[] | Raw {
  if (list === undefined) return [];
  if (!Array.isArray(list)) {
    return violation("invalid_agent_card", `${path} as an array`, describeShape(list));
  }
  if (list.length > MAX_PROFILE_CARD_ENTRIES) {
    return violation(
      "limit_exceeded",
      `at most ${MAX_PROFILE_CARD_ENTRIES} entries in ${path}`,
      `${list.length}`,
    );
  }
  const found: Record<string, unknown>[] = [];
  for (let index = 0; index < list.length; index++) {
    const entry = Object.hasOwn(list, index) ? list[index] : undefined;
    if (isObject(entry) && own(entry, "uri") === ADCP_A2A_PROFILE) found.push(entry);
  }
  return found;
}
