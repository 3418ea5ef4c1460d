// The configuration-time floor on legacy webhook HMAC secrets (deprecated scheme, removed in AdCP
// 4.0). Not an entropy estimate: a few exact rules that refuse the well-known weak shapes and that
// a secret drawn from a CSPRNG fails with negligible probability. The rules are listed on
// importLegacyWebhookSecret and in WeakWebhookSecretError.

/** Shortest accepted secret, in bytes ("Minimum secret length: 32 bytes", security.mdx). */
export const MIN_SECRET_BYTES = 32;

/** Fewest distinct byte values an accepted secret holds. */
export const MIN_DISTINCT_BYTES = 4;

/** Why a secret is refused, and which rule refused it (a fixed phrase, never secret content). */
export interface WeakSecretFinding {
  /** `too_short` below {@link MIN_SECRET_BYTES}, `low_entropy` for a weak shape. */
  readonly reason: "too_short" | "low_entropy";
  /** The rule, as a phrase for the message. */
  readonly rule: string;
}

/**
 * The first rule `bytes` breaks, or `undefined` when the secret is accepted. Linear time. Rules,
 * in order:
 *
 * 1. `too_short`: fewer than 32 bytes.
 * 2. `low_entropy`: fewer than 4 distinct byte values (one byte repeated: all-zero, all-`a`;
 *    two values alternating: `abab…`, binary `0101…`).
 * 3. `low_entropy`: a repetition of a shorter block: the smallest period is at most half the
 *    length (`0123` eight times, `password` four times, `abcabc…ab`).
 * 4. `low_entropy`: a sequential run: at least half of the steps between neighbouring bytes are
 *    +1 or −1 modulo 256 (`abcdefgh…`, `0123456789…`, `zyxw…`, `abc…xyz012345`).
 */
export function findWeakSecret(bytes: Uint8Array): WeakSecretFinding | undefined {
  const n = bytes.length;
  if (n < MIN_SECRET_BYTES) {
    return { reason: "too_short", rule: `at least ${MIN_SECRET_BYTES} bytes` };
  }
  const seen = new Uint8Array(256);
  let distinct = 0;
  for (const byte of bytes) {
    if (seen[byte] === 0) {
      seen[byte] = 1;
      distinct++;
    }
  }
  if (distinct < MIN_DISTINCT_BYTES) {
    return { reason: "low_entropy", rule: `at least ${MIN_DISTINCT_BYTES} distinct byte values` };
  }
  if (2 * smallestPeriod(bytes) <= n) {
    return { reason: "low_entropy", rule: "no repetition of a shorter block" };
  }
  let sequential = 0;
  for (let i = 1; i < n; i++) {
    const step = (bytes[i]! - bytes[i - 1]! + 256) & 0xff;
    if (step === 1 || step === 0xff) sequential++;
  }
  if (2 * sequential >= n - 1) {
    return { reason: "low_entropy", rule: "no sequential run over half of its bytes" };
  }
  return undefined;
}

/**
 * The smallest p > 0 such that `bytes[i] === bytes[i + p]` for every valid i (the length when
 * there is none smaller), from the Knuth–Morris–Pratt failure function: linear time.
 */
export function smallestPeriod(bytes: Uint8Array): number {
  const n = bytes.length;
  if (n === 0) return 0;
  const failure = new Uint32Array(n);
  let k = 0;
  for (let i = 1; i < n; i++) {
    while (k > 0 && bytes[i] !== bytes[k]) k = failure[k - 1]!;
    if (bytes[i] === bytes[k]) k++;
    failure[i] = k;
  }
  return n - failure[n - 1]!;
}
