/** Document symbols as an indented outline, hover text kept short, and LSP kinds by name. */

/** LSP SymbolKind numbers by name (1-based, as the protocol numbers them). */
const SYMBOL_KINDS = [
  "file",
  "module",
  "namespace",
  "package",
  "class",
  "method",
  "property",
  "field",
  "constructor",
  "enum",
  "interface",
  "function",
  "variable",
  "constant",
  "string",
  "number",
  "boolean",
  "array",
  "object",
  "key",
  "null",
  "enum member",
  "struct",
  "event",
  "operator",
  "type parameter",
] as const;

/** The name of an LSP SymbolKind (`symbol` for an unknown one). */
export function symbolKindName(kind: unknown): string {
  return typeof kind === "number" ? (SYMBOL_KINDS[kind - 1] ?? "symbol") : "symbol";
}

interface RawRange {
  readonly start: { readonly line: number; readonly character: number };
  readonly end: { readonly line: number; readonly character: number };
}

/** A DocumentSymbol (hierarchical) or a SymbolInformation (flat, with a location). */
interface RawSymbol {
  readonly name?: unknown;
  readonly kind?: unknown;
  readonly detail?: unknown;
  readonly range?: RawRange;
  readonly selectionRange?: RawRange;
  readonly location?: { readonly range?: RawRange };
  readonly containerName?: unknown;
  readonly children?: readonly RawSymbol[];
}

/** One outline entry, in the details. */
export interface OutlineEntry {
  readonly name: string;
  readonly kind: string;
  /** 1-based first and last line. */
  readonly line: number;
  readonly endLine: number;
  readonly depth: number;
}

/**
 * The outline of a document's symbols, depth first, two spaces per level:
 * `class Foo (lines 3-40)`; at most `limit` entries.
 */
export function outlineOf(raw: unknown, limit: number): { text: string; entries: OutlineEntry[]; total: number } {
  const entries: OutlineEntry[] = [];
  let total = 0;
  const visit = (symbols: readonly RawSymbol[], depth: number) => {
    const sorted = [...symbols].sort((a, b) => rangeOf(a).start.line - rangeOf(b).start.line);
    for (const symbol of sorted) {
      total += 1;
      const range = rangeOf(symbol);
      if (entries.length < limit) {
        entries.push({ name: String(symbol.name ?? "?"), kind: symbolKindName(symbol.kind), line: range.start.line + 1, endLine: range.end.line + 1, depth });
      }
      if (Array.isArray(symbol.children)) visit(symbol.children, depth + 1);
    }
  };
  visit(Array.isArray(raw) ? (raw as RawSymbol[]) : [], 0);
  const lines = entries.map((entry) => {
    const where = entry.endLine > entry.line ? `lines ${entry.line}-${entry.endLine}` : `line ${entry.line}`;
    return `${"  ".repeat(entry.depth)}${entry.kind} ${entry.name} (${where})`;
  });
  if (total > entries.length) lines.push(`${total - entries.length} more symbols not shown (at most ${limit} per answer).`);
  return { text: lines.join("\n"), entries, total };
}

function rangeOf(symbol: RawSymbol): RawRange {
  return symbol.range ?? symbol.location?.range ?? { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
}

/** The most characters of hover text returned. */
export const MAX_HOVER_CHARS = 4000;

/** A hover's contents (MarkupContent, MarkedString or an array of them) as text, capped. */
export function hoverText(raw: unknown): string {
  const contents = raw !== null && typeof raw === "object" ? (raw as { contents?: unknown }).contents : undefined;
  const parts: string[] = [];
  const add = (item: unknown) => {
    if (typeof item === "string") parts.push(item);
    else if (item !== null && typeof item === "object") {
      const record = item as { value?: unknown; language?: unknown };
      if (typeof record.value !== "string") return;
      parts.push(typeof record.language === "string" ? `\`\`\`${record.language}\n${record.value}\n\`\`\`` : record.value);
    }
  };
  if (Array.isArray(contents)) contents.forEach(add);
  else add(contents);
  const text = parts
    .join("\n\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
  return text.length > MAX_HOVER_CHARS ? `${text.slice(0, MAX_HOVER_CHARS)}\n… (hover text cut at ${MAX_HOVER_CHARS} characters)` : text;
}
