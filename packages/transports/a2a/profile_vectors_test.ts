// The local edge-case vectors (vectors/local/a2a-profile-extension-edge-cases.json) against the
// three checks, with exact outcomes: what the conformance runner judges, asserted here too.
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { localProfileVectors } from "./_test_profile.ts";
import {
  type AdcpProfileAdvertisementCode,
  type AdcpProfileHandlerReturn,
  type AdcpProfileInvocationCode,
  type AdcpProfileResponseCode,
  checkAdcpProfileAdvertisement,
  checkAdcpProfileInvocation,
  checkAdcpProfileResponse,
} from "./mod.ts";

const ALL_CODES: readonly (
  | AdcpProfileAdvertisementCode
  | AdcpProfileInvocationCode
  | AdcpProfileResponseCode
)[] = [
  "invalid_agent_card",
  "limit_exceeded",
  "extension_not_advertised",
  "extension_not_under_capabilities",
  "duplicate_extension_declaration",
  "invalid_extension_declaration",
  "extension_params_not_empty",
  "invalid_skill_id",
  "duplicate_skill_id",
  "missing_get_adcp_capabilities_skill_id",
  "missing_get_task_status_skill_id",
  "invalid_headers",
  "extension_not_activated",
  "unsupported_a2a_version",
  "invalid_a2a_message",
  "invalid_continuation",
  "unsupported_part_type",
  "multiple_invocation_dataparts",
  "missing_invocation_datapart",
  "invalid_invocation_shape",
  "invalid_send_message_response",
  "invalid_a2a_task",
  "multiple_artifacts",
  "framework_wrapper",
  "missing_adcp_datapart",
  "missing_adcp_task_id",
  "adcp_task_id_metadata_duplication",
  "submitted_handler_return_not_a2a_completed",
  "handler_return_not_a2a_completed",
  "handler_return_mismatch",
];

function check(vector: Record<string, unknown>) {
  switch (vector.kind) {
    case "advertisement":
      return checkAdcpProfileAdvertisement(vector.agent_card, {
        requireTaskStatus: vector.require_task_status === true,
      });
    case "invocation":
      return checkAdcpProfileInvocation(vector);
    default:
      return checkAdcpProfileResponse(vector.response, {
        handlerReturn: vector.handler_return as AdcpProfileHandlerReturn | undefined,
      });
  }
}

Deno.test(
  "the local A2A profile vectors each name a rule and get their exact outcome",
  async () => {
    const vectors = await localProfileVectors();
    ok(vectors.length >= 20);
    const codes = new Set<string>();
    for (const vector of vectors) {
      const label = String(vector.id);
      ok(/\.mdx|Profile Extension v3|A2A Response/.test(String(vector.description)), label);
      const result = check(vector);
      strictEqual(result.valid, vector.valid, label);
      if (!result.valid) {
        strictEqual(result.code, vector.expected_error, label);
        codes.add(result.code);
      } else if ("expected_adcp_task_id" in vector) {
        strictEqual(
          "adcpTaskId" in result && result.adcpTaskId,
          vector.expected_adcp_task_id,
          label,
        );
      }
    }
    // Every code the three checks return has a local vector.
    deepStrictEqual([...codes].sort(), [...ALL_CODES].sort());
  },
);
