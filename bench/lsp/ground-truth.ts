/**
 * Ground truth for definition, references and workspace symbols on the
 * corpus, found by text search alone (no compiler, no language server), so a
 * test can check the server's answers against something it did not compute.
 *
 * The rule: a class declared by `export declare class Name` whose name is
 * declared nowhere else in the project (no merged interface or namespace, no
 * second class of that name), imported by name without an alias
 * (`import { Name } from "./relative"`, the specifier naming the declaring
 * file) by 2 to 20 other files. Each such file is a usage: its lines that
 * hold the identifier outside comments are references the server must
 * report, and the first of them after the import is where definition is
 * asked. Candidates are sorted by name and `count` of them taken at even
 * steps, so the choice spreads over the package's modules and is the same on
 * every run.
 */
import { readFileSync } from "node:fs";
import path from "node:path";

/** A place in a file, 1-based line and column (UTF-16 units; the corpus is ASCII). */
export interface SourcePlace {
  readonly file: string;
  readonly line: number;
  readonly character: number;
}

/** One chosen class and what the text search knows about it. */
export interface ClassGroundTruth {
  readonly name: string;
  /** The identifier in `export declare class Name`. */
  readonly declaration: SourcePlace;
  /** Where definition is asked: the first use after the import in the first importing file. */
  readonly usage: SourcePlace;
  /** Every line (file + line) of an importing file holding the identifier outside comments, import lines included. */
  readonly references: readonly SourcePlace[];
  readonly importers: readonly string[];
}

const CLASS_DECLARATION = /^export declare (?:abstract )?class ([A-Za-z_]\w*)/;
const ANY_DECLARATION = /\b(?:class|interface|type|enum|function|namespace|const|let|var)\s+([A-Za-z_]\w*)/g;
const NAMED_IMPORT = /^import (?:type )?\{([^}]*)\} from ["'](\.{1,2}\/[^"']*)["'];?\s*$/;

/** Chooses `count` classes of the corpus by the rule above; `files` are the project's `.d.ts`/`.ts` files (absolute). */
export function findClassGroundTruth(files: readonly string[], count: number): ClassGroundTruth[] {
  const texts = new Map(files.map((file) => [file, readFileSync(file, "utf8").split("\n")] as const));
  const declarationsPerName = new Map<string, number>();
  const classes = new Map<string, SourcePlace>();
  for (const [file, lines] of texts) {
    lines.forEach((text, index) => {
      for (const match of text.matchAll(ANY_DECLARATION)) {
        const name = match[1] as string;
        declarationsPerName.set(name, (declarationsPerName.get(name) ?? 0) + 1);
      }
      const declared = CLASS_DECLARATION.exec(text);
      if (declared) {
        const name = declared[1] as string;
        classes.set(name, { file, line: index + 1, character: text.indexOf(name, "export declare ".length) + 1 });
      }
    });
  }
  const importersOf = new Map<string, Array<{ file: string; importLine: number }>>();
  const aliased = new Set<string>();
  for (const [file, lines] of texts) {
    lines.forEach((text, index) => {
      const imported = NAMED_IMPORT.exec(text);
      if (!imported) return;
      const target = resolveRelative(file, imported[2] as string, texts);
      if (!target) return;
      for (const part of (imported[1] as string).split(",")) {
        const [name, alias] = part
          .replace(/^\s*type\s+/, "")
          .trim()
          .split(/\s+as\s+/);
        if (!name) continue;
        const key = `${target}\0${name}`;
        if (alias) aliased.add(key);
        else importersOf.set(key, [...(importersOf.get(key) ?? []), { file, importLine: index + 1 }]);
      }
    });
  }
  const candidates: ClassGroundTruth[] = [];
  for (const [name, declaration] of [...classes].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const key = `${declaration.file}\0${name}`;
    const importers = (importersOf.get(key) ?? []).filter((item) => item.file !== declaration.file);
    if (declarationsPerName.get(name) !== 1 || aliased.has(key) || importers.length < 2 || importers.length > 20) continue;
    const references: SourcePlace[] = [];
    let usage: SourcePlace | undefined;
    for (const importer of importers) {
      const lines = texts.get(importer.file) ?? [];
      lines.forEach((text, index) => {
        if (isCommentLine(text)) return;
        const column = identifierColumn(text, name);
        if (column === undefined) return;
        const place = { file: importer.file, line: index + 1, character: column };
        references.push(place);
        if (!usage && index + 1 > importer.importLine) usage = place;
      });
    }
    if (usage) candidates.push({ name, declaration, usage, references, importers: importers.map((item) => item.file) });
  }
  if (candidates.length < count) throw new Error(`only ${candidates.length} classes fit the rule, ${count} asked`);
  return Array.from({ length: count }, (_, index) => candidates[Math.floor((index * candidates.length) / count)] as ClassGroundTruth);
}

function resolveRelative(from: string, specifier: string, texts: ReadonlyMap<string, unknown>): string | undefined {
  const base = path.resolve(path.dirname(from), specifier);
  return [`${base}.d.ts`, `${base}.ts`, path.join(base, "index.d.ts"), path.join(base, "index.ts")].find((candidate) => texts.has(candidate));
}

function isCommentLine(text: string): boolean {
  const trimmed = text.trimStart();
  return trimmed.startsWith("*") || trimmed.startsWith("/*") || trimmed.startsWith("//");
}

function identifierColumn(text: string, name: string): number | undefined {
  const match = new RegExp(`(?<![\\w$.])${name}(?![\\w$])`).exec(text);
  return match ? match.index + 1 : undefined;
}
