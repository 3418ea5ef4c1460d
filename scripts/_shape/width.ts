// Line width: which lines are too wide, and which are exempt because no reflow can shorten them.

/** The widest line allowed, in columns; the same as `fmt.lineWidth` in `deno.json`. */
export const MAX_COLUMNS = 100;

/** How a file's lines are exempted: code comments, shell comments or Markdown. */
export type TextKind = "code" | "shell" | "markdown";

/**
 * Whether `text` (a line without its comment, list or quote marker) is one link or URL that no
 * reflow can shorten: a run without spaces (a bare URL, `<url>`), a Markdown link or image, a
 * link reference definition or a JSDoc `{@link …}`, optionally followed by punctuation.
 */
export function isLoneLink(text: string): boolean {
  const t = text.trim();
  return /^\S+$/.test(t) ||
    /^!?\[[^\]]*\]\([^)\s]+(?:\s+"[^"]*")?\)[.,;:]?$/.test(t) ||
    /^\[[^\]]+\]:\s+\S+(?:\s+"[^"]*")?$/.test(t) ||
    /^\{@link(?:code|plain)?\s+\S+(?:\s*\|[^}]*)?\}[.,;:]?$/.test(t);
}

/** The columns of a line: its Unicode code points. */
function columns(line: string): number {
  let count = 0;
  for (const _ of line) count++;
  return count;
}

/** The lines of `text` wider than `max` columns, less the exempt ones of its kind. */
export function longLines(
  text: string,
  kind: TextKind,
  max = MAX_COLUMNS,
): { line: number; columns: number }[] {
  const out: { line: number; columns: number }[] = [];
  let fence: string | undefined; // the open Markdown fence, "```" or "~~~~"…
  text.split("\n").forEach((raw, index) => {
    const line = raw.replace(/\r$/, "");
    let exempt = false;
    if (kind === "markdown") {
      const marker = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
      if (fence !== undefined) {
        exempt = true;
        const closes = marker !== undefined && marker[0] === fence[0] &&
          marker.length >= fence.length && line.trim() === marker;
        if (closes) {
          fence = undefined;
        }
      } else if (marker !== undefined) {
        exempt = true;
        fence = marker;
      } else {
        const content = line.replace(/^\s*(?:>\s*)*(?:[-*+]\s+|\d+[.)]\s+)?/, "");
        exempt = /^\s*\|/.test(line) || isLoneLink(content);
      }
    } else {
      const comment = kind === "code"
        ? /^\s*(?:\/\/+|\/\*+|\*)\s*(.*?)(?:\*\/)?$/.exec(line)
        : /^\s*#+\s*(.*)$/.exec(line);
      exempt = comment !== null && isLoneLink(comment[1]!);
    }
    const width = columns(line);
    if (width > max && !exempt) out.push({ line: index + 1, columns: width });
  });
  return out;
}

// ---------------------------------------------------------------------------------------------
// The whole check
