/**
 * The V4A patch parser: `*** Begin Patch` ... `*** End Patch` text into
 * {@link ParsedPatch}. Lenient where models are sloppy in harmless ways
 * (CRLF, a heredoc wrapper, blank lines around the envelope, a first hunk
 * without `@@`, a blank line inside a hunk standing for an empty context
 * line), strict where a guess could change the wrong file (an unknown line,
 * a path named twice, an operation that changes nothing).
 */
import { ToolError } from "../errors.js";
import type { ParsedPatch, PatchHunk, PatchLine, PatchOperation, PatchTarget } from "./patch-types.js";

const BEGIN = "*** Begin Patch";
const END = "*** End Patch";
const END_OF_FILE = "*** End of File";

/** The file headers of the format and the operation each starts (`Move to` continues an update). */
const HEADERS = [
  ["*** Add File: ", "add"],
  ["*** Delete File: ", "delete"],
  ["*** Update File: ", "update"],
  ["*** Move to: ", "move"],
] as const;

type HeaderKind = (typeof HEADERS)[number][1];

/** A header line's kind and path (trimmed), or undefined. Headers start at column 0; trailing whitespace is ignored. */
function headerOf(line: string): { kind: HeaderKind; path: string } | undefined {
  for (const [prefix, kind] of HEADERS) {
    if (line.startsWith(prefix)) return { kind, path: line.slice(prefix.length).trim() };
    // `*** Add File:` with nothing after it: a header with an empty path (refused by the parser).
    if (line.trimEnd() === prefix.trimEnd()) return { kind, path: "" };
  }
  return undefined;
}

/** The lines of `text` (LF or CRLF) with their 1-based numbers, without a heredoc wrapper or the blank lines around the envelope. */
function envelopeLines(text: string): Array<{ text: string; number: number }> {
  const raw = text.split("\n").map((line, index) => ({ text: line.endsWith("\r") ? line.slice(0, -1) : line, number: index + 1 }));
  let first = 0;
  let last = raw.length - 1;
  const blank = (index: number) => raw[index]!.text.trim() === "";
  while (first <= last && blank(first)) first += 1;
  while (last >= first && blank(last)) last -= 1;
  // `apply_patch <<'EOF'` ... `EOF`, as models trained on a shell tool sometimes send it.
  const heredoc = first <= last ? /^(?:apply_patch\s+)?<<-?\s*(['"]?)([A-Za-z_][A-Za-z0-9_]*)\1\s*$/.exec(raw[first]!.text.trim()) : null;
  if (heredoc && last > first && raw[last]!.text.trim() === heredoc[2]) {
    first += 1;
    last -= 1;
    while (first <= last && blank(first)) first += 1;
    while (last >= first && blank(last)) last -= 1;
  }
  return raw.slice(first, last + 1);
}

/** A parse failure at a line of the patch. */
function patchError(line: number, problem: string): ToolError {
  return new ToolError(
    "invalid_arguments",
    `ApplyPatch: invalid patch at line ${line}: ${problem}. Send the whole patch again: "*** Begin Patch", then per file "*** Add File: <path>" with "+" lines, "*** Delete File: <path>", or "*** Update File: <path>" with "@@" hunks of " " context, "-" removed and "+" added lines, then "*** End Patch".`,
    { details: { patchLine: line } },
  );
}

/** The hunk being read. */
interface OpenHunk {
  anchors: string[];
  lines: PatchLine[];
  /** How many of the last lines were blank patch lines (read as empty context lines). */
  trailingBlank: number;
  endOfFile: boolean;
  patchLine: number;
}

/** Options of {@link parseV4APatch}. */
export interface ParseV4APatchOptions {
  /**
   * Refuse the patch (`invalid_arguments`, `details.limit`) as soon as it
   * holds more hunks than this, before reading the rest: a tool that applies
   * at most this many hunks need not build millions of them first.
   */
  readonly maxHunks?: number;
}

/** Counts the hunks read so far against the limit. */
interface HunkBudget {
  read: number;
  readonly max: number;
}

/** The refusal of a patch with more hunks than `limit`. */
function tooManyHunks(limit: number, line: number): ToolError {
  return new ToolError(
    "invalid_arguments",
    `ApplyPatch refused: the patch has more than ${limit} hunks (at line ${line}), more than one call applies. Split it into several patches, or rewrite a file wholesale with Write.`,
    { details: { limit, patchLine: line } },
  );
}

/** Reads the body of an `*** Update File:` operation from `start`; returns the hunks and the index after them. */
function readHunks(
  lines: ReadonlyArray<{ text: string; number: number }>,
  range: { start: number; end: number },
  budget: HunkBudget,
): { hunks: PatchHunk[]; next: number } {
  const { start, end } = range;
  const hunks: PatchHunk[] = [];
  let open: OpenHunk | undefined;
  const close = () => {
    if (!open) return;
    budget.read += 1;
    if (budget.read > budget.max) throw tooManyHunks(budget.max, open.patchLine);
    // Blank lines that end a hunk separate it from what follows; they are not context.
    if (!open.endOfFile) open.lines.splice(open.lines.length - open.trailingBlank, open.trailingBlank);
    if (!open.lines.some((line) => line.kind !== "context")) throw patchError(open.patchLine, 'this hunk has no "-" or "+" line, so it changes nothing');
    hunks.push({ anchors: open.anchors, lines: open.lines, endOfFile: open.endOfFile, patchLine: open.patchLine });
    open = undefined;
  };
  let index = start;
  for (; index < end; index += 1) {
    const { text, number } = lines[index]!;
    if (headerOf(text) && !text.startsWith("*** Move to: ")) break;
    if (text.startsWith("@@")) {
      const anchor = text === "@@" || text.trim() === "@@" ? undefined : text.startsWith("@@ ") ? text.slice(3) : undefined;
      if (anchor === undefined && text.trim() !== "@@")
        throw patchError(number, `"${text}" is not a hunk header: write "@@" or "@@ <a line the hunk follows>"`);
      // Consecutive `@@` lines before any change line stack up as anchors of one hunk.
      if (open && (open.lines.length > 0 || open.endOfFile)) close();
      open ??= { anchors: [], lines: [], trailingBlank: 0, endOfFile: false, patchLine: number };
      if (anchor !== undefined && anchor.trim() !== "") open.anchors.push(anchor);
      continue;
    }
    if (text.trimEnd() === END_OF_FILE) {
      if (!open || open.lines.length === 0) throw patchError(number, `"${END_OF_FILE}" must follow the lines of a hunk`);
      open.endOfFile = true;
      close();
      continue;
    }
    if (text.startsWith("***")) throw patchError(number, `unknown header "${text}"`);
    const prefix = text[0];
    const kind = prefix === " " ? "context" : prefix === "-" ? "remove" : prefix === "+" ? "add" : text === "" ? "context" : undefined;
    if (kind === undefined) {
      throw patchError(number, `a hunk line must start with " " (context), "-" (removed) or "+" (added); got "${text.slice(0, 40)}"`);
    }
    if (!open) {
      // Only the first hunk of a file may leave out its `@@`.
      if (hunks.length > 0) throw patchError(number, `a new hunk must start with "@@" (the previous one ended with "${END_OF_FILE}")`);
      open = { anchors: [], lines: [], trailingBlank: 0, endOfFile: false, patchLine: number };
    }
    open.lines.push({ kind, text: text === "" ? "" : text.slice(1) });
    open.trailingBlank = text === "" ? open.trailingBlank + 1 : 0;
  }
  close();
  return { hunks, next: index };
}

/**
 * Parses a V4A patch. Throws `ToolError("invalid_arguments")` naming the
 * patch line and what to send instead.
 *
 * @example
 * const { operations } = parseV4APatch("*** Begin Patch\n*** Update File: a.txt\n@@\n-old\n+new\n*** End Patch");
 * operations[0]; // { kind: "update", path: "a.txt", hunks: [...] }
 */
export function parseV4APatch(text: string, options: ParseV4APatchOptions = {}): ParsedPatch {
  const budget: HunkBudget = { read: 0, max: options.maxHunks ?? Number.POSITIVE_INFINITY };
  const lines = envelopeLines(text);
  if (lines.length === 0) throw patchError(1, "the patch is empty");
  if (lines[0]!.text.trim() !== BEGIN) throw patchError(lines[0]!.number, `the first line must be "${BEGIN}"`);
  const last = lines[lines.length - 1]!;
  if (lines.length < 2 || last.text.trim() !== END) throw patchError(last.number, `the last line must be "${END}"`);
  const end = lines.length - 1;
  const operations: PatchOperation[] = [];
  const named = new Map<string, number>();
  const claim = (path: string, line: number) => {
    if (path === "") throw patchError(line, "the header names no path");
    const earlier = named.get(path);
    if (earlier !== undefined)
      throw patchError(line, `${path} is already changed by the operation at line ${earlier}: put all changes of one file in one operation`);
    named.set(path, line);
  };
  let index = 1;
  while (index < end) {
    const { text, number } = lines[index]!;
    const header = headerOf(text);
    if (!header || header.kind === "move") {
      if (text.trim() === "") {
        index += 1;
        continue;
      }
      throw patchError(number, `expected "*** Add File:", "*** Delete File:" or "*** Update File:", got "${text.slice(0, 60)}"`);
    }
    claim(header.path, number);
    index += 1;
    if (header.kind === "delete") {
      operations.push({ kind: "delete", path: header.path, patchLine: number });
      continue;
    }
    if (header.kind === "add") {
      const content: string[] = [];
      for (; index < end && !headerOf(lines[index]!.text); index += 1) {
        const line = lines[index]!;
        if (line.text.startsWith("+")) content.push(line.text.slice(1));
        else if (line.text === "") content.push("");
        else throw patchError(line.number, `every line of an added file must start with "+"; got "${line.text.slice(0, 40)}"`);
      }
      // Blank lines before the next header are separators, not content.
      while (content.length > 0 && content[content.length - 1] === "" && lines[index - 1]!.text === "") {
        content.pop();
        index -= 1;
      }
      operations.push({ kind: "add", path: header.path, lines: content, patchLine: number });
      continue;
    }
    let moveTo: string | undefined;
    const move = index < end ? headerOf(lines[index]!.text) : undefined;
    if (move?.kind === "move") {
      claim(move.path, lines[index]!.number);
      moveTo = move.path;
      index += 1;
    }
    const { hunks, next } = readHunks(lines, { start: index, end }, budget);
    index = next;
    if (hunks.length === 0 && moveTo === undefined) throw patchError(number, `the update of ${header.path} has no hunk`);
    operations.push({ kind: "update", path: header.path, ...(moveTo === undefined ? {} : { moveTo }), hunks, patchLine: number });
  }
  if (operations.length === 0) throw patchError(last.number, "the patch has no file operation");
  return { operations };
}

/**
 * Every path a patch's header lines name, with how it is touched (a `Move
 * to:` destination as `add`), found line by line without needing the patch
 * to be valid, so permission rules judge the paths of a malformed patch too.
 * Recognises headers exactly as {@link parseV4APatch} does.
 */
export function patchTargetsOf(text: string): PatchTarget[] {
  const targets: PatchTarget[] = [];
  for (const line of text.split("\n")) {
    const header = headerOf(line.endsWith("\r") ? line.slice(0, -1) : line);
    if (!header || header.path === "") continue;
    targets.push({ path: header.path, kind: header.kind === "move" ? "add" : header.kind });
  }
  return targets;
}
