/**
 * The in-page runner of `deno task test-browser`, bundled for the browser: runs every vector file
 * the server lists (`_page.ts`) against the AdCP version of the page's `?adcp-version=` (the
 * pinned one without it), then the checks of `@adcp-wire/validation` and of the clients,
 * shows the report in the page and posts it to `/report`.
 *
 * @module
 */
import { ADCP_VERSION } from "@adcp-wire/schemas";
import { runChecks } from "./_checks.ts";
import { clientChecks } from "./_client_checks.ts";
import { type PageReport, runVectorTexts, type VectorText } from "./_page.ts";
import { VALIDATION_CHECKS } from "./_validation_checks.ts";

/** Shows `text` in the page's report element. */
function show(text: string): void {
  const page = globalThis as {
    document?: { getElementById(id: string): { textContent: string | null } | null };
  };
  const element = page.document?.getElementById("report");
  if (element) element.textContent = text;
}

async function main(): Promise<void> {
  // `deno task test-browser --adcp-version V` opens the page with `?adcp-version=V`.
  const adcpVersion = new URLSearchParams(globalThis.location?.search ?? "").get("adcp-version") ??
    ADCP_VERSION;
  const report: PageReport = {
    userAgent: globalThis.navigator?.userAgent ?? "",
    adcpVersion,
    files: [],
    validation: [],
    clients: [],
  };
  try {
    const response = await fetch("/vectors.json");
    report.files = await runVectorTexts(await response.json() as VectorText[], undefined, {
      adcpVersion,
    });
    report.validation = await runChecks(VALIDATION_CHECKS);
    // The same server under another origin, for the cross-origin check.
    const origin = globalThis.location.origin;
    const other = origin.replace("//127.0.0.1:", "//localhost:");
    report.clients = await runChecks(clientChecks(origin, other));
  } catch (error) {
    report.error = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  }
  show(JSON.stringify(report, null, 2));
  await fetch("/report", { method: "POST", body: JSON.stringify(report) });
}

await main();
