/**
 * The `adagents-discovery` suite: the redirect policy of the two adagents.json fetches. Reads
 * upstream's `adagents-discovery-redirects.json` and local files of the same flat form: each
 * vector has `target` (`"well_known"` or `"authoritative_location"`), `origin_url`, an ordered
 * `redirect_chain` of `{status, location}` hops the servers answer with (the request after the
 * last hop gets 200 and a small valid file), and `expected`: `{result: "resolved", final_url}` or
 * `{result: "refused", reason}`.
 *
 * The request's input is `{target, origin_url, redirect_chain}`. A reply passes when:
 *
 * - `result` equals `expected.result`;
 * - for `"resolved"`, `final_url` equals `expected.final_url`;
 * - for `"refused"`, `reason`, when the reply gives one, equals `expected.reason` when the vector
 *   gives one (upstream calls `reason` advisory: a port may omit it, but a given one must match);
 * - for `"refused"`, when the reply lists the URLs it requested as `dialed`, none of them is on a
 *   registrable domain other than the origin's (the off-domain hop "MUST NOT be dialed"), the
 *   host itself standing for an origin without one (an IP literal), compared by the Public Suffix
 *   List with its private section as the spec requires.
 *
 * @module
 */
import { getDomain } from "tldts";
import {
  type AnswerReply,
  isObject,
  objectResult,
  pretty,
  type SuiteDef,
  type Verdict,
} from "./_def.ts";

/** The registrable domain of a URL's host, or the host when it has none; `undefined` if no URL. */
function siteOf(url: unknown): string | undefined {
  if (typeof url !== "string") return undefined;
  let hostname: string;
  try {
    hostname = new URL(url).hostname;
  } catch {
    return undefined;
  }
  return getDomain(hostname, { allowPrivateDomains: true }) ?? hostname;
}

function judgeRefused(
  v: Record<string, unknown>,
  expected: Record<string, unknown>,
  result: Record<string, unknown>,
): Verdict | undefined {
  if (
    Object.hasOwn(result, "reason") && Object.hasOwn(expected, "reason") &&
    result.reason !== expected.reason
  ) {
    return { reason: "refusal reason differs", expected: expected.reason, actual: result.reason };
  }
  if (!Object.hasOwn(result, "dialed")) return undefined;
  const dialed = result.dialed;
  if (!Array.isArray(dialed)) {
    return { reason: "`dialed` must be an array of URLs", actual: dialed };
  }
  const origin = siteOf(v.origin_url);
  const offDomain = dialed.filter((url) => siteOf(url) !== origin);
  return offDomain.length === 0 ? undefined : {
    reason: "requested a URL off the origin's registrable domain",
    expected: `only URLs on ${pretty(origin)}`,
    actual: offDomain,
  };
}

/** The suite. */
export const suite: SuiteDef = {
  required: ["target", "origin_url", "redirect_chain", "expected"],
  input(v) {
    return { target: v.target, origin_url: v.origin_url, redirect_chain: v.redirect_chain };
  },
  judge(v, reply: AnswerReply) {
    const expected = v.expected;
    if (!isObject(expected) || (expected.result !== "resolved" && expected.result !== "refused")) {
      return { reason: 'vector: `expected.result` must be "resolved" or "refused"' };
    }
    const object = objectResult(reply);
    if (!object.ok) return { ...object.verdict, expected };
    const result = object.value;
    if (result.result !== expected.result) {
      return { reason: "result differs", expected, actual: result };
    }
    if (expected.result === "resolved") {
      return result.final_url === expected.final_url
        ? undefined
        : { reason: "final_url differs", expected: expected.final_url, actual: result.final_url };
    }
    return judgeRefused(v, expected, result);
  },
};
