/**
 * Named checks for the in-page runner (`scripts/browser/`), for what the vector suites do not
 * cover: `@adcp-wire/validation` and the clients against a same-origin agent. Only Web APIs and
 * `_vectors.ts` (no `node:` modules), so they run in a page, and in Deno for their tests.
 *
 * @module
 */
import { jsonEqual } from "../_vectors.ts";

/** Compact JSON for a message, cut at 300 characters. */
function show(value: unknown): string {
  const text = value === undefined ? "(nothing)" : JSON.stringify(value);
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}

/** One check: a name saying what holds, and the code that throws when it does not. */
export interface Check {
  /** What holds when the check passes. */
  name: string;
  /** Throws (or rejects) when the check fails. */
  run(): Promise<void> | void;
  /**
   * Holds only in a browser, where `fetch` differs from the runtimes' (the checks' tests in Deno
   * leave it out).
   * @default {false}
   */
  browserOnly?: boolean;
}

/** The outcome of one check. */
export interface CheckOutcome {
  /** The check's name. */
  name: string;
  /** Whether it passed. */
  passed: boolean;
  /** Why it failed. */
  reason?: string;
}

/** A failed expectation inside a check. */
export class CheckFailure extends Error {
  /** The class name, a literal so that minifiers cannot change it. */
  override readonly name: string = "CheckFailure";
}

/**
 * Throws a {@link CheckFailure} unless `actual` deep-equals `expected` as JSON values.
 *
 * @param actual The value seen.
 * @param expected The value expected.
 * @param what What the value is, for the message.
 * @throws {CheckFailure} When they differ.
 */
export function expectEqual(actual: unknown, expected: unknown, what: string): void {
  if (!jsonEqual(actual, expected)) {
    throw new CheckFailure(`${what}: expected ${show(expected)}, saw ${show(actual)}`);
  }
}

/**
 * Awaits `promise` and throws a {@link CheckFailure} unless it rejects with an error whose `name`
 * is `name` (and whose fields include `fields`, when given).
 *
 * @param promise The operation.
 * @param name The expected error's `name`.
 * @param fields Fields the error must have, compared as JSON values.
 * @returns When it rejected as expected.
 * @throws {CheckFailure} When it resolved or rejected otherwise.
 */
export async function expectRejection(
  promise: Promise<unknown>,
  name: string,
  fields: Record<string, unknown> = {},
): Promise<void> {
  let value: unknown;
  try {
    value = await promise;
  } catch (error) {
    const seen = error as Record<string, unknown> | null;
    if (seen?.name !== name) {
      throw new CheckFailure(
        `expected ${name}, saw ${String(seen?.name)}: ${String((error as Error)?.message)}`,
      );
    }
    for (const [key, expected] of Object.entries(fields)) {
      expectEqual(seen[key], expected, `${name}.${key}`);
    }
    return;
  }
  throw new CheckFailure(`expected ${name}, but it resolved to ${show(value)}`);
}

/**
 * Runs checks one after another; a check that throws fails with the error's message.
 *
 * @param checks The checks.
 * @returns Their outcomes, in order.
 */
export async function runChecks(checks: readonly Check[]): Promise<CheckOutcome[]> {
  const outcomes: CheckOutcome[] = [];
  for (const check of checks) {
    try {
      await check.run();
      outcomes.push({ name: check.name, passed: true });
    } catch (error) {
      const reason = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      outcomes.push({ name: check.name, passed: false, reason });
    }
  }
  return outcomes;
}

/**
 * The outcomes as report lines: a title, `✓`/`✗` and the name per check (with the reason under a
 * failure), and a count.
 *
 * @param title What the checks are about.
 * @param outcomes The outcomes.
 * @returns The text.
 */
export function formatChecks(title: string, outcomes: readonly CheckOutcome[]): string {
  const lines = [title];
  for (const outcome of outcomes) {
    lines.push(`  ${outcome.passed ? "✓" : "✗"} ${outcome.name}`);
    if (!outcome.passed) lines.push(`      ${outcome.reason ?? "failed"}`);
  }
  const failed = outcomes.filter((outcome) => !outcome.passed).length;
  lines.push(`  ${outcomes.length - failed} passed, ${failed} failed`);
  return lines.join("\n");
}
