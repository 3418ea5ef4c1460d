import { strictEqual } from "node:assert/strict";
import fc from "fast-check";
import { registrableDomain } from "./_registrable_domain.ts";

const hostOf = (url: string) => new URL(url).hostname;

Deno.test("registrableDomain() uses the PSL's ICANN section for multi-label suffixes", () => {
  strictEqual(registrableDomain("www.example.co.uk"), "example.co.uk");
  strictEqual(registrableDomain("example.co.uk"), "example.co.uk");
  strictEqual(registrableDomain("a.b.c.example.com"), "example.com");
  strictEqual(registrableDomain("www.ladepeche.fr"), "ladepeche.fr");
});

Deno.test("registrableDomain() uses the PSL's PRIVATE section: tenants are domains", () => {
  strictEqual(registrableDomain("victim.github.io"), "victim.github.io");
  strictEqual(registrableDomain("attacker.github.io"), "attacker.github.io");
  strictEqual(registrableDomain("a.b.victim.github.io"), "victim.github.io");
  strictEqual(registrableDomain("app.herokuapp.com"), "app.herokuapp.com");
  strictEqual(registrableDomain("site.pages.dev"), "site.pages.dev");
});

Deno.test("registrableDomain() has none for IPs, localhost, bare suffixes and odd dots", () => {
  for (
    const host of [
      "127.0.0.1",
      "93.184.216.34",
      "[::1]",
      "[2001:db8::1]",
      "localhost",
      "co.uk",
      "github.io",
      "com",
      "example",
      "",
      "example.com.",
      ".example.com",
      "a..example.com",
    ]
  ) {
    strictEqual(registrableDomain(host), undefined, host);
  }
});

Deno.test("registrableDomain() reads parsed hosts: lowercase, punycode, default rule", () => {
  strictEqual(registrableDomain(hostOf("https://WWW.Example.COM/")), "example.com");
  strictEqual(registrableDomain(hostOf("https://www.bücher.example/")), "xn--bcher-kva.example");
  // 個人.香港 is a public suffix listed in Unicode; the punycode host matches it too.
  strictEqual(
    registrableDomain(hostOf("https://a.個人.香港/")),
    "a.xn--gmqw5a.xn--j6w193g",
  );
  // A TLD the list does not know falls under its default rule "*".
  strictEqual(registrableDomain("cdn.pub.example"), "pub.example");
  strictEqual(registrableDomain("www.pub.localhost"), "pub.localhost");
});

Deno.test("property: registrableDomain() is a suffix of the host, or undefined", () => {
  // Labels no public suffix starts with (a generated "gr" or "br" before "com" is itself a private
  // suffix of the PSL: gr.com has no registrable domain).
  const label = fc.stringMatching(/^t[0-9]{1,6}x$/);
  const suffix = fc.constantFrom("com", "co.uk", "github.io", "example", "pages.dev", "fr");
  fc.assert(
    fc.property(fc.array(label, { minLength: 0, maxLength: 4 }), suffix, (labels, tail) => {
      const host = [...labels, tail].join(".");
      const domain = registrableDomain(host);
      if (labels.length === 0) strictEqual(domain, undefined, host);
      else {
        strictEqual(typeof domain, "string", host);
        strictEqual(host === domain || host.endsWith(`.${domain}`), true, host);
        strictEqual(domain, `${labels.at(-1)}.${tail}`, host);
      }
    }),
  );
});
