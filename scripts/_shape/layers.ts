// The package layers and the direction rule between them.

/** The package layers, lowest first: a package may import only packages of earlier layers. */
export const LAYERS: readonly (readonly string[])[] = [
  ["@adcp-wire/internal"],
  ["@adcp-wire/schemas"],
  ["@adcp-wire/core"],
  // The middle level (recovery, security, validation), with validation one step up:
  // it copies validated payloads with security's `toSafeJson`, and security must never need it.
  ["@adcp-wire/recovery", "@adcp-wire/security"],
  // Signing (RFC 9421 requests and webhooks, JWKS discovery) needs security's strict JSON and
  // reserved-address checks, and nothing of validation; webhooks and transports build on it.
  ["@adcp-wire/validation", "@adcp-wire/signing"],
  // Webhook receiving (envelope checks, dedup, A2A pushes, legacy HMAC) needs no client code.
  ["@adcp-wire/webhooks"],
  ["@adcp-wire/transports"],
];

/** The scope whose packages the layer rule governs. */
const SCOPE = "@adcp-wire/";

/** The package of ours a specifier names: `@adcp-wire/core/x` → `@adcp-wire/core`. */
export function packageOf(specifier: string): string | undefined {
  const match = /^(?:jsr:|npm:)?(@adcp-wire\/[^/@]+)/.exec(specifier);
  return match?.[1];
}

/** The layer of a package in `layers`, or undefined when it is not in the table. */
export function layerOf(name: string, layers = LAYERS): number | undefined {
  const layer = layers.findIndex((names) => names.includes(name));
  return layer < 0 ? undefined : layer;
}

/**
 * Why package `from` may not import `specifier` (which names our package `to`), or undefined
 * when it may. `test` says whether the importing file is a test file.
 */
export function directionProblem(
  from: string,
  specifier: string,
  test: boolean,
  layers = LAYERS,
): string | undefined {
  const to = packageOf(specifier);
  if (to === undefined) return undefined;
  if (to === from) {
    if (test) return undefined;
    return `Source file of ${from} imports its own package by name: expected a relative import, ` +
      `found "${specifier}"`;
  }
  const own = layerOf(from, layers);
  if (own === undefined) return undefined; // reported once per member
  const allowed = layers.slice(0, own).flat();
  const expected = allowed.length === 0
    ? `expected no ${SCOPE}* package`
    : `expected only ${allowed.join(", ")}`;
  const theirs = layerOf(to, layers);
  const what = theirs === undefined
    ? "a package missing from the layer table"
    : theirs === own
    ? "a package of its own layer"
    : theirs > own
    ? "a package of a higher layer"
    : undefined;
  if (what === undefined) return undefined;
  return `Package ${from} imports ${what}: ${expected}, found "${specifier}"`;
}

// ---------------------------------------------------------------------------------------------
// Names
