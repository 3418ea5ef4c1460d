// The registrable domain (eTLD+1) of a host, for the same-registrable-domain redirect rule of the
// adagents.json discovery fetch (managed-networks.mdx, "Why not HTTP redirects?"; Security,
// "Webhook URL validation (SSRF)", step 4).
import { getDomain } from "tldts";

const OPTIONS = { allowPrivateDomains: true, extractHostname: false } as const;

/**
 * The registrable domain of `hostname` by the Public Suffix List, its PRIVATE section included
 * (`victim.github.io` and `attacker.github.io` are two registrable domains, not one `github.io`),
 * or `undefined` when the host has none: an IP literal, `localhost`, a bare public suffix
 * (`co.uk`, `github.io`), or a host with a trailing dot, a leading dot or an empty label.
 *
 * `hostname` is what the WHATWG URL parser outputs (`new URL(url).hostname`): lowercase, IDN labels
 * as punycode A-labels, IPv4 in dotted decimal, IPv6 in brackets. The PSL has every IDN rule in
 * both forms, so `a.xn--gmqw5a.xn--j6w193g` (a.個人.香港) gets `a.xn--gmqw5a.xn--j6w193g`.
 *
 * Names under a TLD the list does not know (`pub.example`, `pub.test`) follow the list's default
 * rule (`*`): the last label is the suffix, so `cdn.pub.example` belongs to `pub.example`.
 */
export function registrableDomain(hostname: string): string | undefined {
  // The WHATWG parser keeps these; tldts would silently drop a trailing dot. Names of that form
  // are refused before they reach here, and fail closed if they do.
  if (
    hostname === "" || hostname.startsWith(".") || hostname.endsWith(".") ||
    hostname.includes("..") || hostname.startsWith("[")
  ) {
    return undefined;
  }
  return getDomain(hostname, OPTIONS) ?? undefined;
}
