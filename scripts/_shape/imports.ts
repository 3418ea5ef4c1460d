// Finding the imports of a TypeScript file with a small tokenizer (comments, strings, template
// literals and regular expression literals are skipped), and resolving relative specifiers.
import { posix } from "node:path";

/** A token of the import scanner. */
export interface Token {
  /** A name (identifier or keyword), a string literal, punctuation or anything else. */
  type: "name" | "string" | "punct" | "other";
  /** The text; for a string literal, what is between the quotes. */
  value: string;
  /** The line it starts on, from 1. */
  line: number;
}

/** Words after which a `/` starts a regular expression literal rather than a division. */
const BEFORE_REGEX = new Set([
  "return",
  "typeof",
  "instanceof",
  "in",
  "of",
  "new",
  "delete",
  "void",
  "throw",
  "case",
  "do",
  "else",
  "yield",
  "await",
]);

const ID_START = /[A-Za-z_$\u0080-\uffff]/;
const ID_PART = /[\w$\u0080-\uffff]/;

/**
 * Splits TypeScript source into names, string literals and punctuation, dropping comments and
 * the text of template and regular expression literals. A template literal without
 * substitutions becomes a string token; one with substitutions yields the tokens of its
 * substitutions. Whether a `/` starts a regular expression is decided by the token before it,
 * the usual heuristic of tools that do not parse.
 */
export function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  const n = source.length;
  // Open `${` substitutions: the `{` depth within each.
  const substitutions: number[] = [];
  let line = 1;
  let i = 0;
  if (source.startsWith("#!")) { while (i < n && source[i] !== "\n") i++; }

  const push = (type: Token["type"], value: string, at = line) =>
    tokens.push({ type, value, line: at });
  const regexAllowed = () => {
    const last = tokens.at(-1);
    if (last === undefined) return true;
    if (last.type === "name") return BEFORE_REGEX.has(last.value);
    if (last.type !== "punct") return false;
    return last.value !== ")" && last.value !== "]" && last.value !== "}";
  };
  // Scans template text from `i` (after "`" or a substitution's "}"); returns whether it ended
  // at the closing "`" (rather than at a "${").
  const scanTemplate = (start: number, startLine: number, head: boolean) => {
    let j = i;
    for (; j < n; j++) {
      const c = source[j];
      if (c === "\\") {
        if (source[j + 1] === "\n") line++;
        j++;
      } else if (c === "\n") {
        line++;
      } else if (c === "`") {
        if (head) push("string", source.slice(start, j), startLine);
        else push("other", "`", startLine);
        i = j + 1;
        return;
      } else if (c === "$" && source[j + 1] === "{") {
        push("other", "`", startLine);
        substitutions.push(0);
        i = j + 2;
        return;
      }
    }
    i = n;
  };

  while (i < n) {
    const c = source[i]!;
    if (c === "\n") {
      line++;
      i++;
    } else if (c === " " || c === "\t" || c === "\r" || c === "\f" || c === "\v") {
      i++;
    } else if (c === "/" && source[i + 1] === "/") {
      while (i < n && source[i] !== "\n") i++;
    } else if (c === "/" && source[i + 1] === "*") {
      const end = source.indexOf("*/", i + 2);
      const stop = end < 0 ? n : end + 2;
      for (let j = i; j < stop; j++) if (source[j] === "\n") line++;
      i = stop;
    } else if (c === '"' || c === "'") {
      const at = line;
      let j = i + 1;
      while (j < n && source[j] !== c && source[j] !== "\n") {
        if (source[j] === "\\") {
          if (source[j + 1] === "\n") line++;
          j++;
        }
        j++;
      }
      push("string", source.slice(i + 1, j), at);
      i = j + 1;
    } else if (c === "`") {
      i++;
      scanTemplate(i, line, true);
    } else if (c === "{") {
      if (substitutions.length > 0) substitutions[substitutions.length - 1]!++;
      push("punct", c);
      i++;
    } else if (c === "}") {
      if (substitutions.length > 0 && substitutions.at(-1) === 0) {
        substitutions.pop();
        i++;
        scanTemplate(i, line, false);
        continue;
      }
      if (substitutions.length > 0) substitutions[substitutions.length - 1]!--;
      push("punct", c);
      i++;
    } else if (c === "/" && regexAllowed()) {
      let j = i + 1;
      let inClass = false;
      for (; j < n && source[j] !== "\n"; j++) {
        const r = source[j];
        if (r === "\\") j++;
        else if (r === "[") inClass = true;
        else if (r === "]") inClass = false;
        else if (r === "/" && !inClass) break;
      }
      if (j >= n || source[j] === "\n") {
        // Not a regular expression after all.
        push("punct", c);
        i++;
        continue;
      }
      j++;
      while (j < n && /[a-z]/.test(source[j]!)) j++;
      push("other", source.slice(i, j));
      i = j;
    } else if (ID_START.test(c)) {
      let j = i + 1;
      while (j < n && ID_PART.test(source[j]!)) j++;
      push("name", source.slice(i, j));
      i = j;
    } else if (c >= "0" && c <= "9") {
      let j = i + 1;
      while (j < n && /[\w.]/.test(source[j]!)) j++;
      push("other", source.slice(i, j));
      i = j;
    } else {
      push("punct", c);
      i++;
    }
  }
  return tokens;
}

/** A module specifier a file imports. */
export interface ImportRef {
  /** The specifier as written. */
  specifier: string;
  /** The line of its `import` or `export` keyword. */
  line: number;
  /** Whether it is an `import("…")` expression (or type). */
  dynamic: boolean;
  /** Whether it is an `import type` or `export type` clause, which leaves no runtime import. */
  typeOnly: boolean;
}

/**
 * Finds the source of an `import`/`export` clause starting at token `j`: names, `*`, `,` and at
 * most one `{ … }` list, then `from "…"`. Returns undefined for declarations (`export const`,
 * `export interface X { … }`) and `import x = require(…)`.
 */
function clauseSource(tokens: Token[], j: number): Token | undefined {
  let list = false;
  for (; j < tokens.length; j++) {
    const token = tokens[j]!;
    if (token.type === "name") {
      if (token.value === "from" && tokens[j + 1]?.type === "string") return tokens[j + 1];
      if (token.value === "import" || token.value === "export") return undefined;
    } else if (token.value === "{" && !list) {
      list = true;
      for (j++; j < tokens.length && tokens[j]!.value !== "}"; j++) {
        const inner = tokens[j]!;
        if (inner.type === "punct" && inner.value !== ",") return undefined;
        if (inner.type === "other") return undefined;
      }
      if (tokens[j + 1]?.value !== "from") return undefined;
    } else if (token.value !== "*" && token.value !== ",") {
      return undefined;
    }
  }
  return undefined;
}

/**
 * Lists the specifiers `source` imports: `import … from`, `import type`, side-effect imports,
 * `export … from` and `import("…")` with a literal specifier, in source order.
 */
export function parseImports(source: string): ImportRef[] {
  const tokens = tokenize(source);
  const refs: ImportRef[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (token.type !== "name" || (token.value !== "import" && token.value !== "export")) continue;
    if (tokens[i - 1]?.value === ".") continue; // `x.import`
    const next = tokens[i + 1];
    if (token.value === "import" && next?.value === "(") {
      const arg = tokens[i + 2];
      const after = tokens[i + 3]?.value;
      if (arg?.type === "string" && (after === ")" || after === ",")) {
        refs.push({ specifier: arg.value, line: token.line, dynamic: true, typeOnly: false });
      }
    } else if (token.value === "import" && next?.type === "string") {
      refs.push({ specifier: next.value, line: token.line, dynamic: false, typeOnly: false });
    } else if (next?.value !== ".") {
      const from = clauseSource(tokens, i + 1);
      // `import type from "./x.ts"` and `import type, { y } …` import a default named `type`.
      const typeOnly = next?.type === "name" && next.value === "type" &&
        tokens[i + 2]?.value !== "," && tokens[i + 3] !== from;
      if (from) refs.push({ specifier: from.value, line: token.line, dynamic: false, typeOnly });
    }
  }
  return refs;
}

/** Whether a specifier is relative (`./x.ts`, `../x.ts`). */
export function isRelative(specifier: string): boolean {
  return specifier.startsWith("./") || specifier.startsWith("../");
}

/** Resolves a relative specifier of `file` to a path relative to the root. */
export function resolveRelative(file: string, specifier: string): string {
  return posix.normalize(posix.join(posix.dirname(file), specifier.replace(/[?#].*$/, "")));
}

// ---------------------------------------------------------------------------------------------
// Cycles
