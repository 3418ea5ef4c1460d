/**
 * The project's answers to the `a2a-profile-extension` suite (the AdCP A2A Profile Extension v3);
 * the requests are described in `scripts/_suites/a2a_profile_extension.ts`.
 *
 * - `advertisement`: `checkAdcpProfileAdvertisement`, with `requireTaskStatus` when the request
 *   says `require_task_status: true`.
 * - `invocation`: `checkAdcpProfileInvocation`; for a valid one, the DataPart's skill and input
 *   and the Message's ids are given back to `adcpProfileInvocation`, and `rebuilt_equal` says
 *   whether it built the same Message (TextParts aside) and headers (`A2A-Version` equal, the
 *   profile URI among the request's `A2A-Extensions`).
 * - `response`: `checkAdcpProfileResponse`, with `handlerReturn` unless it is `null`.
 *
 * The result is `{valid: true, adcp_task_id?}` or `{valid: false, error}` (the check's `code`).
 *
 * @module
 */
import { field, isObject } from "./_input.ts";
import {
  adcpProfileInvocation,
  checkAdcpProfileAdvertisement,
  checkAdcpProfileInvocation,
  checkAdcpProfileResponse,
} from "@adcp-wire/transports/a2a";

/** Deep equality of JSON values over own keys. */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ak = Object.keys(a);
  const bk = Object.keys(b);
  if (ak.length !== bk.length) return false;
  return ak.every((key) =>
    Object.hasOwn(b, key) &&
    sameJson((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key])
  );
}

/** The value of header `name` in a record of headers, names compared case-insensitively. */
function header(headers: unknown, name: string): string | undefined {
  if (!isObject(headers)) return undefined;
  const values = Object.keys(headers)
    .filter((key) => key.toLowerCase() === name)
    .map((key) => headers[key]);
  return values.every((value) => typeof value === "string") && values.length > 0
    ? values.join(", ")
    : undefined;
}

/** Whether `adcpProfileInvocation` rebuilds the vector's (valid) Message and headers. */
function rebuiltEqual(headers: unknown, message: Record<string, unknown>): boolean {
  const parts = field(message, "parts") as unknown[];
  const data = parts.find((part) => isObject(part) && field(part, "data") != null) as {
    data: { skill: string; input: Record<string, unknown> };
  };
  const ids = (key: string) =>
    typeof field(message, key) === "string" ? field(message, key) as string : undefined;
  const rebuilt = adcpProfileInvocation(data.data.skill, data.data.input, {
    messageId: ids("messageId"),
    taskId: ids("taskId"),
    contextId: ids("contextId"),
  });
  const withoutText = { ...message, parts: [data] };
  const extensions = (header(headers, "a2a-extensions") ?? "").split(",").map((item) =>
    item.trim()
  );
  return sameJson(JSON.parse(JSON.stringify(rebuilt.message)), withoutText) &&
    header(headers, "a2a-version")?.trim() === rebuilt.headers["A2A-Version"] &&
    extensions.includes(rebuilt.headers["A2A-Extensions"]);
}

/**
 * Answers one `a2a-profile-extension` request.
 *
 * @param input The request's input (see the module doc).
 * @param _options The vector's options (unused).
 * @returns The result.
 */
export function answer(
  input: unknown,
  _options: Record<string, unknown> | null,
): Promise<unknown> {
  try {
    return Promise.resolve(answerNow(input));
  } catch (error) {
    return Promise.reject(error);
  }
}

function answerNow(input: unknown): unknown {
  if (!isObject(input)) throw new TypeError("a2a-profile-extension: input must be an object");
  const kind = field(input, "kind");
  if (kind === "advertisement") {
    const result = checkAdcpProfileAdvertisement(field(input, "agent_card"), {
      requireTaskStatus: field(input, "require_task_status") === true,
    });
    return result.valid ? { valid: true } : { valid: false, error: result.code };
  }
  if (kind === "invocation") {
    const headers = field(input, "headers");
    const message = field(input, "message");
    const result = checkAdcpProfileInvocation({ headers, message } as never);
    if (!result.valid) return { valid: false, error: result.code };
    return {
      valid: true,
      rebuilt_equal: rebuiltEqual(headers, message as Record<string, unknown>),
    };
  }
  if (kind === "response") {
    const handlerReturn = field(input, "handler_return");
    const result = checkAdcpProfileResponse(field(input, "response"), {
      handlerReturn: handlerReturn === null ? undefined : handlerReturn as never,
    });
    if (!result.valid) return { valid: false, error: result.code };
    return result.adcpTaskId === undefined
      ? { valid: true }
      : { valid: true, adcp_task_id: result.adcpTaskId };
  }
  throw new TypeError("a2a-profile-extension: kind must be advertisement, invocation or response");
}
