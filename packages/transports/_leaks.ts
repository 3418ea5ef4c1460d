// Heuristics that find internal details in text a seller is about to send to a buyer (Transport
// Error Mapping, Security Considerations, "Seller Requirements": no internal service names,
// hostnames or IP addresses, no stack traces or file paths). They are deliberately eager: a false
// positive costs a "[redacted]" in an error message, a miss leaks infrastructure to every buyer.

import type { LeakKind } from "./check_outgoing_adcp_error.ts";

/** The text put in place of a redacted span. */
export const REDACTED = "[redacted]";

// One stack frame per line: V8/Java/C# "at fn (file:1:2)" / "at pkg.Cls.m(Cls.java:10)" /
// "at <anonymous>", C# "at Ns.Cls.M() in /path/File.cs:line 42", SpiderMonkey/JSC "fn@file:1:2",
// Python 'File "x.py", line 3', Ruby "from /app/x.rb:12:in `m'" (and its first line, without
// "from"), Go goroutine headers and "\tpath/file.go:12 +0x1d" lines, and the Python traceback
// header.
const FRAME_LINE = new RegExp(
  [
    String
      .raw`^\s*at\s+.*(?:\S:\d+:\d+\)?|\.\w+:\d+\)|\((?:native|<anonymous>|Unknown Source)\))\s*$`,
    String.raw`^\s*at\s+<anonymous>\s*$`,
    String.raw`^\s*[\w$.<>\[\]]*@\S+:\d+:\d+\s*$`,
    String.raw`^\s*File\s+".*",\s+line\s+\d+`,
    String.raw`^\s*Traceback \(most recent call last\):?\s*$`,
    String.raw`^\s*at\s+.*\s+in\s+\S+:line\s+\d+\s*$`,
    String.raw`^\s*(?:from\s+)?\S+:\d+:in\s+[\x60'"]`,
    String.raw`^\s*goroutine\s+\d+\s+\[`,
    String.raw`^\s+\S+\.go:\d+(?:\s+\+0x[0-9a-f]+)?\s*$`,
  ].join("|"),
  "i",
);

// Every check below runs on one token at a time, anchored, with patterns whose repetitions cannot
// overlap, so the cost is linear in the text: an unanchored scan with nested repetitions over a
// long run like "a.a.a.a..." costs quadratic time (measured: over a second for 16 KiB).
const TOKEN = /[^\s"'`<>(){}\[\],;=|]+/g;
/** Characters that end a sentence after a token: `.`, `:`, `!`, `?` (kept after a redaction). */
const SENTENCE_END: ReadonlySet<number> = new Set([0x2e, 0x3a, 0x21, 0x3f]);
const URL_START = /^[a-z][a-z0-9+.-]*:\/\//i;
const INTERNAL_SUFFIX =
  /\.(?:internal|local|localdomain|lan|corp|intranet|intra|private|svc|home\.arpa)$/i;
const DOTTED_HOST = /^[a-z0-9_-]+(?:\.[a-z0-9_-]+)+$/i;
const PORT = /:\d{1,5}$/;
const IPV4 = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;
const IPV6_CHARS = /^[0-9a-f:.]+(?:%[\w.-]+)?$/i;
const SOURCE_EXTENSIONS =
  "ts|tsx|mts|cts|js|jsx|mjs|cjs|py|pyc|rb|go|java|kt|scala|cs|php|rs|c|cc|cpp|h|hpp|swift|sql|log|conf|cfg|yaml|yml|ini|env|pem|key|sh";
/** A path-like token: path characters only, with an optional `:line[:column]`. */
const PATH_CHARS = /^[\w.@~\/-]+(?::\d+){0,2}$/;
/** A source or config file name at the end of a token, with an optional `:line[:column]`. */
const SOURCE_TAIL = new RegExp(String.raw`\.(?:${SOURCE_EXTENSIONS})(?::\d+){0,2}$`, "i");
const LINE_SUFFIX = /:\d+(?::\d+)?$/;
/** What follows a location in Ruby and C# frames: `:in` and `:line`. */
const FRAME_SUFFIX = /:(?:in|line)$/i;
const UNIX_ROOT =
  /^(?:~|\/(?:home|usr|var|etc|opt|srv|tmp|app|apps|root|Users|private|proc|sys|mnt|lib|lib64|bin|sbin|workspace|code|data|run|dev|nix|snap|Volumes|Library|System))\//;
const WINDOWS_PATH = /^(?:[a-z]:\\|\\\\[^\\]+\\)/i;

function isIpv6(token: string): boolean {
  if (!IPV6_CHARS.test(token)) return false;
  const bare = token.replace(/%.*$/, "");
  if (!bare.includes("::") && bare.split(":").length !== 8) return false;
  try {
    new URL(`http://[${bare}]/`);
    return true;
  } catch {
    return false;
  }
}

function isIpv4(host: string): boolean {
  return IPV4.test(host);
}

/** The leak a URL holds: `file:`, or an IP, single-label, `localhost` or internal host. */
function urlLeak(token: string): LeakKind | undefined {
  let url: URL;
  try {
    url = new URL(token);
  } catch {
    return "file_path";
  }
  if (url.protocol === "file:") return "file_path";
  const host = url.hostname.toLowerCase().replace(/\.$/, "");
  if (host.startsWith("[") || isIpv4(host)) return "ip_address";
  if (host === "localhost" || !host.includes(".") || INTERNAL_SUFFIX.test(host)) {
    return "internal_host";
  }
  return undefined;
}

/** The leak one token (no whitespace, no trailing punctuation) holds, if any. */
function tokenLeak(raw: string): LeakKind | undefined {
  if (URL_START.test(raw)) return urlLeak(raw);
  // Ruby "file.rb:12:in" and C# "File.cs:line" (before the line number): the path is the leak.
  const token = raw.replace(FRAME_SUFFIX, "");
  if (WINDOWS_PATH.test(token)) return "file_path";
  if (token.length <= 4096 && PATH_CHARS.test(token)) {
    if (UNIX_ROOT.test(token)) return "file_path";
    if (SOURCE_TAIL.test(token) && (token.includes("/") || LINE_SUFFIX.test(token))) {
      return "file_path";
    }
  }
  if (token.length <= 300) {
    const port = PORT.test(token);
    const host = port ? token.replace(PORT, "") : token;
    if (isIpv4(host)) return "ip_address";
    if (host.toLowerCase() === "localhost") return "internal_host";
    if (DOTTED_HOST.test(host) && (port || INTERNAL_SUFFIX.test(host))) return "internal_host";
    if (token.includes(":") && isIpv6(token)) return "ip_address";
  }
  return undefined;
}

/** Redacts every leaking token of `text`, keeping the punctuation that ends a sentence. */
function redactTokens(text: string, found: Set<LeakKind>): string {
  return text.replace(TOKEN, (raw) => {
    let end = raw.length;
    while (end > 0 && SENTENCE_END.has(raw.charCodeAt(end - 1))) end--;
    const punctuation = raw.slice(end);
    const token = raw.slice(0, end);
    const leak = token === "" ? undefined : tokenLeak(token);
    if (leak === undefined) return raw;
    found.add(leak);
    return REDACTED + punctuation;
  });
}

/**
 * Finds and redacts internal details in `text`: stack-frame lines (each run replaced by one
 * `[redacted]`), file paths, internal host names, IP addresses, and URLs whose scheme is `file:`
 * or whose host is an IP literal, a single-label name, `localhost` or an internal suffix. Other
 * URLs (a public `https://seller.example/setup`) are kept whole.
 */
export function redactLeaks(text: string): { text: string; kinds: LeakKind[] } {
  const found = new Set<LeakKind>();
  const lines = text.split(/\r\n|\r|\n/);
  const kept: string[] = [];
  let inTrace = false;
  for (const line of lines) {
    if (FRAME_LINE.test(line)) {
      found.add("stack_trace");
      if (!inTrace) kept.push(REDACTED);
      inTrace = true;
      continue;
    }
    inTrace = false;
    kept.push(line);
  }
  const joined = found.has("stack_trace") ? kept.join("\n") : text;
  return { text: redactTokens(joined, found), kinds: [...found] };
}
