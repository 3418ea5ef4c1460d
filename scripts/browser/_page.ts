/**
 * What the in-page runner runs and reports, without the page around it (so that Deno can test
 * it): the vector files through this project's implementation (`scripts/_impl.ts`), judged by the
 * same code as `deno task test-vectors` (`scripts/_vectors.ts`).
 *
 * @module
 */
import { handleRequest } from "../_impl.ts";
import {
  checkReply,
  fileFailure,
  type FileReport,
  type Implementation,
  runFile,
  type RunOptions,
  type SuiteName,
  suiteOf,
} from "../_vectors.ts";
import type { CheckOutcome } from "./_checks.ts";

/** A vector file as the page gets it: its display path and its text. */
export interface VectorText {
  /** The path the report shows (`vectors/local/…`). */
  file: string;
  /** The file's text, or `null` when it could not be read. */
  text: string | null;
  /** Why it could not be read. */
  error?: string;
  /**
   * Its suite, for an assembled compliance bundle (`scripts/_compliance.ts`), whose path does not
   * name it.
   * @default {suiteOf(file)}
   */
  suite?: SuiteName | null;
}

/** What the page posts to `/report`. */
export interface PageReport {
  /** The browser's `navigator.userAgent`. */
  userAgent: string;
  /** The AdCP version the vectors were checked against (the page's `?adcp-version=`). */
  adcpVersion?: string;
  /** One report per vector file, as `test_vectors.ts` makes them. */
  files: FileReport[];
  /** The checks of `@adcp-wire/validation`. */
  validation: CheckOutcome[];
  /** The checks of the clients. */
  clients: CheckOutcome[];
  /** Set when the run itself failed. */
  error?: string;
}

/**
 * The project's implementation as `test_vectors.ts` runs it in process: requests and replies pass
 * through JSON, as they would through `--impl`.
 *
 * @param request The request.
 * @returns The reply.
 */
export const pageImplementation: Implementation = async (request) => {
  const reply = await handleRequest(JSON.parse(JSON.stringify(request)));
  return checkReply(JSON.parse(JSON.stringify(reply)));
};

/**
 * Runs the vector files; a file that is not JSON (or could not be read, or assembled) is one
 * failed vector, as `test_vectors.ts` reports it.
 *
 * @param files The files.
 * @param impl The implementation.
 * @param options The AdCP version of the run (and the applicability table).
 * @returns The reports, in order.
 */
export async function runVectorTexts(
  files: readonly VectorText[],
  impl: Implementation = pageImplementation,
  options: RunOptions = {},
): Promise<FileReport[]> {
  const reports: FileReport[] = [];
  for (const { file, text, error, suite } of files) {
    let doc: unknown;
    let reason = error === undefined ? undefined : `cannot read: ${error}`;
    if (reason === undefined) {
      try {
        doc = JSON.parse(text ?? "");
      } catch (parseError) {
        reason = `cannot read: ${
          parseError instanceof Error ? parseError.message : String(parseError)
        }`;
      }
    }
    if (reason !== undefined) {
      reports.push(fileFailure(file, suite === undefined ? suiteOf(file) : suite, reason));
      continue;
    }
    reports.push(
      await runFile(file, doc, impl, { ...options, ...(suite === undefined ? {} : { suite }) }),
    );
  }
  return reports;
}
