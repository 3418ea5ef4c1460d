// Deprecations before a first release: a package that has shipped nothing has nothing to
// deprecate (STYLE.md, "Deprecate only what a release has shipped, and name the removal version").
// What the protocol itself deprecates may still be marked, naming the AdCP version that removes
// it, so that users see the spec's warning in their editor.

/** A `@deprecated` tag that names the AdCP version removing a protocol feature. */
const PROTOCOL_DEPRECATION = /\bremoved in AdCP \d/;

/** The versions CHANGELOG.md says were released: its `## x.y.z` or `## [x.y.z]` headings. */
export function releasedVersions(changelog: string): string[] {
  return [...changelog.matchAll(/^##\s+\[?v?(\d+\.\d+\.\d+[^\]\s]*)\]?/gm)].map((m) => m[1]!);
}

/**
 * The lines of `source` that carry a `@deprecated` tag of ours: one whose text (the tag's line
 * and the next) does not name the AdCP version that removes a deprecated protocol feature.
 * Returns 1-based line numbers.
 */
export function ownDeprecations(source: string): number[] {
  const lines = source.split("\n");
  const found: number[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!/@deprecated\b/.test(lines[i]!)) continue;
    const text = `${lines[i]} ${lines[i + 1] ?? ""}`;
    if (!PROTOCOL_DEPRECATION.test(text)) found.push(i + 1);
  }
  return found;
}
