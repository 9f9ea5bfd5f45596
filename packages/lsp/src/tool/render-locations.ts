/**
 * Locations as the model reads them: `path:line:character: text`, grouped
 * by file (files in first-seen order, lines ascending), 1-based as Read
 * numbers lines, capped at the answer's limit with a line saying what was
 * left out and why.
 */
import type { ToolContext } from "@agent-tools/core";
import type { LspToolEnvironment } from "./lsp-tool-environment.js";
import { type LeftOut, type ScreenedFile, leftOutText, noneLeftOut, screenUris } from "./screen-locations.js";
import { type LspPosition, fromLspPosition, splitLines } from "./text-positions.js";

/** A raw LSP location (a `LocationLink` is turned into one by {@link normalizeLocations}). */
export interface LspLocation {
  readonly uri: string;
  readonly range: { readonly start: LspPosition; readonly end: LspPosition };
}

/** One location as shown, in the details. */
export interface ShownLocation {
  readonly path: string;
  readonly line: number;
  readonly character: number;
  /** What it is, for symbols (`class Foo`); absent for plain locations. */
  readonly label?: string;
}

/** What a rendered list of locations adds to an answer. */
export interface RenderedLocations {
  readonly text: string;
  readonly shown: readonly ShownLocation[];
  readonly total: number;
  readonly leftOut: LeftOut & { overLimit: number };
}

/** The most characters of a line's text shown after a location. */
const MAX_LINE_TEXT = 200;

/** Location | Location[] | LocationLink[] | null as a list of locations. */
export function normalizeLocations(raw: unknown): LspLocation[] {
  const items = Array.isArray(raw) ? raw : raw === null || raw === undefined ? [] : [raw];
  const out: LspLocation[] = [];
  for (const item of items) {
    if (item === null || typeof item !== "object") continue;
    const record = item as Record<string, unknown>;
    if (typeof record.targetUri === "string") {
      const range = (record.targetSelectionRange ?? record.targetRange) as LspLocation["range"] | undefined;
      if (range) out.push({ uri: record.targetUri, range });
    } else if (typeof record.uri === "string" && record.range) {
      out.push({ uri: record.uri, range: record.range as LspLocation["range"] });
    }
  }
  return out;
}

/** The lines of each file, read once per answer; undefined when it cannot be read. */
export class FileLines {
  private readonly cache = new Map<string, Promise<string[] | undefined>>();
  constructor(private readonly environment: LspToolEnvironment) {}

  /** Gives a file's text already known (the requested document). */
  seed(path: string, text: string): void {
    this.cache.set(path, Promise.resolve(splitLines(text)));
  }

  of(path: string, signal?: AbortSignal): Promise<string[] | undefined> {
    let lines = this.cache.get(path);
    if (!lines) {
      lines = this.environment.readFile(path, signal).then(
        (bytes) => splitLines(bytes.toString("utf8")),
        () => undefined,
      );
      this.cache.set(path, lines);
    }
    return lines;
  }
}

function lineText(lines: readonly string[] | undefined, line: number): string {
  const text = lines?.[line]?.trim() ?? "";
  return text.length > MAX_LINE_TEXT ? `${text.slice(0, MAX_LINE_TEXT)}…` : text;
}

/**
 * Renders locations (each with an optional label in front of its text),
 * screened and capped.
 */
export async function renderLocations(
  items: ReadonlyArray<LspLocation & { readonly label?: string }>,
  call: { environment: LspToolEnvironment; context: ToolContext; files: FileLines },
): Promise<RenderedLocations> {
  const { environment, context, files } = call;
  const left = noneLeftOut();
  const verdicts = await screenUris(
    items.map((item) => item.uri),
    { environment, context, left },
  );
  // Files in first-seen order, each file's locations by position; duplicates (same place twice) once.
  const byFile = new Map<string, { file: ScreenedFile; items: Array<LspLocation & { readonly label?: string }> }>();
  const seen = new Set<string>();
  for (const item of items) {
    const file = verdicts.get(item.uri);
    if (!file) continue;
    const key = `${file.absolutePath}:${item.range.start.line}:${item.range.start.character}:${item.label ?? ""}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const group = byFile.get(file.absolutePath) ?? { file, items: [] };
    group.items.push(item);
    byFile.set(file.absolutePath, group);
  }
  const kept = [...byFile.values()].flatMap((group) =>
    [...group.items]
      .sort((a, b) => a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character)
      .map((item) => ({ file: group.file, item })),
  );
  const limited = kept.slice(0, environment.maxResults);
  const shown: ShownLocation[] = [];
  const lines: string[] = [];
  for (const { file, item } of limited) {
    const fileLines = await files.of(file.absolutePath, context.signal);
    const position = fileLines ? fromLspPosition(fileLines, item.range.start) : { line: item.range.start.line + 1, character: item.range.start.character + 1 };
    const label = item.label === undefined ? "" : `${item.label}: `;
    lines.push(`${file.displayPath}:${position.line}:${position.character}: ${label}${lineText(fileLines, item.range.start.line)}`.trimEnd());
    shown.push({ path: file.displayPath, line: position.line, character: position.character, ...(item.label === undefined ? {} : { label: item.label }) });
  }
  const overLimit = kept.length - limited.length;
  const notes: string[] = [];
  if (overLimit > 0) notes.push(`${overLimit} more not shown (at most ${environment.maxResults} per answer).`);
  const leftText = leftOutText(left);
  if (leftText) notes.push(leftText);
  return { text: [...lines, ...notes].join("\n"), shown, total: kept.length, leftOut: { ...left, overLimit } };
}
