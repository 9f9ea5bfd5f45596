import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";

/** One fenced TypeScript code block of a markdown file. */
export interface DocsSample {
  /** The markdown file, relative to the repository root with `/` separators (e.g. `docs/ports.md`). */
  readonly file: string;
  /** 1-based line of the opening fence in the markdown file. */
  readonly line: number;
  /** The code between the fences, with the fence's own indentation removed. */
  readonly code: string;
  /** How many columns of indentation were removed (the opening fence's). */
  readonly indent: number;
}

/** The info strings (first word after the fence) that mark a TypeScript sample. */
const TYPESCRIPT_LANGUAGES = new Set(["ts", "typescript"]);

/**
 * Every fenced ```ts / ```typescript block of one markdown text.
 *
 * Fences are backtick or tilde runs of three or more, possibly indented (a
 * block inside a list item); the closing fence is a run of the same character
 * at least as long. The indentation of the opening fence is stripped from
 * every code line, so a block nested in a list compiles like a top-level one.
 *
 * @param markdown - the markdown text
 * @param file - the name the samples report as their `file`
 */
export function extractSamples(markdown: string, file: string): DocsSample[] {
  const lines = markdown.split(/\r?\n/);
  const samples: DocsSample[] = [];
  let open: { fence: string; indent: number; line: number; typescript: boolean; body: string[] } | undefined;
  for (const [index, text] of lines.entries()) {
    if (open === undefined) {
      const opening = /^([ \t]*)(`{3,}|~{3,})\s*([^\s`]*)/.exec(text);
      if (opening === null) continue;
      const [, indent = "", fence = "", info = ""] = opening;
      open = { fence, indent: indent.length, line: index + 1, typescript: TYPESCRIPT_LANGUAGES.has(info.toLowerCase()), body: [] };
      continue;
    }
    const closing = /^\s*(`{3,}|~{3,})\s*$/.exec(text);
    if (closing !== null && closing[1]?.[0] === open.fence[0] && (closing[1]?.length ?? 0) >= open.fence.length) {
      if (open.typescript) samples.push({ file, line: open.line, code: open.body.join("\n"), indent: open.indent });
      open = undefined;
      continue;
    }
    open.body.push(stripIndent(text, open.indent));
  }
  return samples;
}

/** Removes up to `indent` leading whitespace characters. */
function stripIndent(text: string, indent: number): string {
  let cut = 0;
  while (cut < indent && (text[cut] === " " || text[cut] === "\t")) cut++;
  return text.slice(cut);
}

/**
 * The markdown files whose samples are checked, relative to `root`:
 * `README.md`, `docs/*.md`, `docs/<topic>/*.md` (all but the generated
 * `docs/api`) and the `README.md` of every `packages/*` and
 * `examples/*` directory, in a stable order.
 */
export function docsFiles(root: string): string[] {
  const files = ["README.md"];
  files.push(...markdownIn(root, "docs"));
  // Topic folders (docs/durable/...), not the generated API reference.
  const docs = path.join(root, "docs");
  if (existsSync(docs)) {
    for (const entry of readdirSync(docs, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      if (entry.isDirectory() && entry.name !== "api") files.push(...markdownIn(root, `docs/${entry.name}`));
    }
  }
  for (const parent of ["packages", "examples"]) {
    const directory = path.join(root, parent);
    if (!existsSync(directory)) continue;
    for (const entry of readdirSync(directory, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      if (entry.isDirectory() && existsSync(path.join(directory, entry.name, "README.md"))) files.push(`${parent}/${entry.name}/README.md`);
    }
  }
  return files.filter((file) => existsSync(path.join(root, file)));
}

/** The `*.md` files directly inside `root/directory` (not recursive: `docs/api` is generated). */
function markdownIn(root: string, directory: string): string[] {
  const absolute = path.join(root, directory);
  if (!existsSync(absolute)) return [];
  return readdirSync(absolute, { withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(".md"))
    .map((entry) => `${directory}/${entry.name}`)
    .sort();
}

/** Every TypeScript sample of every checked markdown file under `root`. */
export function collectSamples(root: string): DocsSample[] {
  return docsFiles(root).flatMap((file) => extractSamples(readFileSync(path.join(root, file), "utf8"), file));
}
