#!/usr/bin/env python3
"""A minimal port for `deno task test-vectors --impl`: the `seller-strings` suite, in Python 3.

It reads one JSON request per line on standard input and writes one JSON reply per line on
standard output (vectors/README.md, "--impl"). It implements one suite and skips the others:

    deno task test-vectors --impl "python3 vectors/examples/seller_strings_port.py"

The function under test is the seller string sanitizer (Transport Error Mapping, Security
Considerations, Buyer Agent Requirements; security.mdx, webhook verifier checklist step 14b(a)),
as `sanitizeSellerString` of @adcp-wire/security does it: lone surrogates become U+FFFD, the strip
set is removed (docs/security.md, "The strip set"), and the result is cut to `max_bytes` UTF-8
bytes on a code point boundary. Standard library only.
"""

import json
import sys

# The strip set, inclusive ranges of code points (packages/security/_strip_set.ts).
STRIP_SET = (
    (0x0000, 0x001F),  # C0 controls
    (0x007F, 0x009F),  # DEL and C1 controls
    (0x00AD, 0x00AD),  # soft hyphen
    (0x061C, 0x061C),  # Arabic letter mark
    (0x180E, 0x180E),  # Mongolian vowel separator
    (0x200B, 0x200F),  # zero-width space, non-joiner, joiner; LRM, RLM
    (0x2028, 0x202E),  # line and paragraph separators; bidi embeddings and overrides
    (0x2060, 0x2064),  # word joiner and invisible operators
    (0x2066, 0x206F),  # bidi isolates; deprecated format characters
    (0xFEFF, 0xFEFF),  # byte-order mark
    (0xFFF9, 0xFFFB),  # interlinear annotation characters
    (0xE0000, 0xE007F),  # tag characters
)


def stripped(code_point: int) -> bool:
    return any(first <= code_point <= last for first, last in STRIP_SET)


def sanitize_seller_string(value: str, max_bytes: int) -> str:
    out = []
    used = 0
    for char in value:
        code_point = ord(char)
        if 0xD800 <= code_point <= 0xDFFF:  # a lone surrogate (json.loads keeps them)
            char, code_point = "\ufffd", 0xFFFD
        if stripped(code_point):
            continue
        size = len(char.encode("utf-8"))
        if used + size > max_bytes:
            break
        out.append(char)
        used += size
    return "".join(out)


def answer(request: dict) -> dict:
    if request.get("suite") != "seller-strings":
        return {"skip": "this port implements only seller-strings"}
    value = request["input"]["value"]
    max_bytes = request["input"]["max_bytes"]
    if not isinstance(value, str):
        return {"error": {"code": "TypeError"}}
    if not isinstance(max_bytes, int) or isinstance(max_bytes, bool) or max_bytes < 0:
        return {"error": {"code": "RangeError"}}
    return {"result": sanitize_seller_string(value, max_bytes)}


def main() -> None:
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            reply = answer(json.loads(line))
        except (ValueError, KeyError, TypeError):
            reply = {"error": {"code": "bad_request"}}
        # ensure_ascii: every non-ASCII character as \uXXXX, so the reply is ASCII JSON whatever
        # the locale; flush: the runner waits for each reply before it sends the next request.
        sys.stdout.write(json.dumps(reply, ensure_ascii=True) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
