import fc from "fast-check";
import { ok, strictEqual, throws } from "node:assert/strict";
import { hostileString } from "./_test_util.ts";
import { escapeSlackMrkdwn } from "./escape_slack_mrkdwn.ts";

Deno.test("escapeSlackMrkdwn() neutralizes special mentions", () => {
  strictEqual(escapeSlackMrkdwn("<!channel>"), "&lt;!channel&gt;");
  strictEqual(escapeSlackMrkdwn("<!here|here>"), "&lt;!here|here&gt;");
  strictEqual(escapeSlackMrkdwn("<!everyone>"), "&lt;!everyone&gt;");
});

Deno.test("escapeSlackMrkdwn() neutralizes user, group and channel mentions", () => {
  strictEqual(escapeSlackMrkdwn("<@U123ABC>"), "&lt;\uFF20U123ABC&gt;");
  strictEqual(escapeSlackMrkdwn("<!subteam^S123>"), "&lt;!subteam^S123&gt;");
  strictEqual(escapeSlackMrkdwn("<#C123|general>"), "&lt;#C123|general&gt;");
});

Deno.test("escapeSlackMrkdwn() neutralizes plain-text @here, @channel and @everyone", () => {
  strictEqual(
    escapeSlackMrkdwn("@here @channel @everyone"),
    "\uFF20here \uFF20channel \uFF20everyone",
  );
  strictEqual(escapeSlackMrkdwn("ops@seller.example"), "ops\uFF20seller.example");
});

Deno.test("escapeSlackMrkdwn() neutralizes link syntax and escapes &, <, >", () => {
  strictEqual(
    escapeSlackMrkdwn("<https://evil.example|Update billing>"),
    "&lt;https://evil.example|Update billing&gt;",
  );
  strictEqual(escapeSlackMrkdwn("a & b < c > d"), "a &amp; b &lt; c &gt; d");
  strictEqual(escapeSlackMrkdwn("&lt;!channel&gt;"), "&amp;lt;!channel&amp;gt;");
  strictEqual(escapeSlackMrkdwn("*bold* _it_ `code`"), "*bold* _it_ `code`");
});

Deno.test("escapeSlackMrkdwn() rejects a non-string with TypeError", () => {
  throws(() => escapeSlackMrkdwn(7 as never), {
    name: "TypeError",
    message: "Cannot escape Slack mrkdwn as 'value' must be a string: current value is 7",
  });
});

Deno.test("escapeSlackMrkdwn() output has no <, > or @ and no bare &", () => {
  fc.assert(
    fc.property(hostileString(), (input) => {
      const out = escapeSlackMrkdwn(input);
      ok(!/[<>@]/.test(out));
      ok(!/&(?!(amp|lt|gt);)/.test(out));
      const decoded = out.replace(
        /&(amp|lt|gt);/g,
        (_, name: string) => ({ amp: "&", lt: "<", gt: ">" })[name]!,
      ).replaceAll("\uFF20", "@");
      strictEqual(decoded, input.replaceAll("\uFF20", "@"));
    }),
  );
});
