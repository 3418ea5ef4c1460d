// Redirects are refused everywhere the library fetches (Security, "Webhook URL validation (SSRF)",
// step 4); this is the one test of whether an answer is one.

/**
 * Whether a response is a redirect the runtime handed back instead of following (`redirect:
 * "manual"`: a 3xx other than 304 Not Modified, or a browser's opaque redirect with status 0), or
 * one a custom `fetch` followed anyway (`redirected`).
 */
export function isRedirect(response: Response): boolean {
  return response.type === "opaqueredirect" || response.redirected === true ||
    (response.status >= 300 && response.status <= 399 && response.status !== 304);
}
