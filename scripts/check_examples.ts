/**
 * `deno task doc-lint` runs this after `deno doc --lint`: every symbol a package exports (and every module doc) must
 * carry an `@example`, which `deno test --doc` then runs. `deno doc --lint` checks that docs exist; this checks that
 * each one shows its symbol in use.
 *
 * Usage: `deno run --allow-read --allow-run scripts/check_examples.ts packages/core/mod.ts …`
 *
 * A re-export counts as documented when the symbol it names has an example where it is declared among the checked
 * packages. Generated schema types (`packages/schemas/`, written by `deno task gen`), and re-exports of them, are
 * not checked: they carry the schemas' own descriptions.
 *
 * @module
 */

interface DocTag {
  kind: string;
}
interface DocDeclaration {
  jsDoc?: { tags?: DocTag[] };
  location: { filename: string; line: number };
}
interface DocSymbol {
  name: string;
  declarations: DocDeclaration[];
}
interface DocJson {
  nodes: Record<string, { module_doc?: { tags?: DocTag[] }; symbols?: DocSymbol[] }>;
}

const hasExample = (tags: DocTag[] | undefined) => (tags ?? []).some((t) => t.kind === "example");

/** Lists `file:line name` for each exported symbol of the entry points that has no `@example`. */
export async function missingExamples(entryPoints: string[]): Promise<string[]> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["doc", "--json", ...entryPoints],
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (out.code !== 0) {
    throw new Error(`deno doc --json failed: ${new TextDecoder().decode(out.stderr)}`);
  }
  const doc = JSON.parse(new TextDecoder().decode(out.stdout)) as DocJson;
  const generated = (filename: string) => filename.includes("/packages/schemas/");
  const withExample = new Set<string>();
  const generatedNames = new Set<string>();
  for (const node of Object.values(doc.nodes)) {
    for (const symbol of node.symbols ?? []) {
      if (symbol.declarations.some((d) => hasExample(d.jsDoc?.tags))) withExample.add(symbol.name);
      if (symbol.declarations.some((d) => generated(d.location.filename))) {
        generatedNames.add(symbol.name);
      }
    }
  }
  const missing: string[] = [];
  for (const [module, node] of Object.entries(doc.nodes)) {
    if (!hasExample(node.module_doc?.tags)) missing.push(`${module}: module doc`);
    for (const symbol of node.symbols ?? []) {
      if (withExample.has(symbol.name) || generatedNames.has(symbol.name)) continue;
      const at = symbol.declarations[0]?.location;
      missing.push(`${at ? `${at.filename}:${at.line}` : module}: ${symbol.name}`);
    }
  }
  return [...new Set(missing)].sort();
}

if (import.meta.main) {
  const missing = await missingExamples(Deno.args);
  if (missing.length > 0) {
    console.error(`${missing.length} exported symbols have no @example:\n${missing.join("\n")}`);
    Deno.exit(1);
  }
  console.log(
    `check_examples: every exported symbol of ${Deno.args.length} entry points has an example`,
  );
}
