// The page's first script (a classic one, so that it runs even when the runner's module fails to
// load or to evaluate): posts an error the runner could not report to the server, so that
// `deno task test-browser` fails at once with the browser's message instead of waiting for a
// report that will never come.
"use strict";
let reported = false;
function reportError(message) {
  if (reported) return;
  reported = true;
  fetch("/report", { method: "POST", body: JSON.stringify({ error: message }) });
}
addEventListener("error", (event) => {
  reportError(`${event.message} (${event.filename}:${event.lineno}:${event.colno})`);
});
addEventListener("unhandledrejection", (event) => {
  const reason = event.reason;
  reportError(`Unhandled rejection: ${reason?.stack ?? String(reason)}`);
});
addEventListener("securitypolicyviolation", (event) => {
  reportError(
    `Content Security Policy violation: ${event.violatedDirective} (${event.blockedURI})`,
  );
});
