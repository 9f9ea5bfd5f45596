import { comparePaths, joinDisplay } from "./file-walker.js";
import { GREP_CLIP_BYTES, GREP_LINE_CHARS, type GrepByteRange, type GrepFileHits, type GrepFormatOptions, clipLine } from "./grep-result.js";
import { writeMatchRecords } from "./grep-format-records.js";
import { GrepTextBuilder, hasSurrogate } from "./grep-text-builder.js";
import type { SearchCaches } from "./search-caches.js";

const EMPTY = Buffer.alloc(0);
/** Characters kept free of lines under `maxChars`: the header and the trailer. */
const TRAILER_ROOM = 512;

/** Grep's rendered result. */
export interface GrepRendered {
  text: string;
  matchCount: number;
  fileCount: number;
  returned: number;
  hasMore: boolean;
}

/**
 * Sorts hits by path (lines are already ascending), counts them before
 * pagination and renders one page. Only the lines on the page are decoded.
 * `caches`: the bundle's, whose text buffer is reused (default none kept).
 */
export function renderGrep(hitsUnsorted: GrepFileHits[], options: GrepFormatOptions, caches?: SearchCaches): GrepRendered {
  // Two files print alike when their names are not UTF-8 (each bad byte shows as U+FFFD): ordered by their hits, not by which one ripgrep's threads printed first.
  const files = hitsUnsorted
    .filter((file) => file.matchCount > 0)
    .sort((a, b) => comparePaths(a.path, b.path) || a.firstMatchLine - b.firstMatchLine || a.matchCount - b.matchCount);
  let matchCount = 0;
  for (const file of files) matchCount += file.matchCount;
  const fileCount = files.length;
  const { offset, headLimit } = options;
  const display = (file: GrepFileHits) => joinDisplay(options.displayDirectory, file.path);
  if (fileCount === 0) {
    return { text: `No matches for pattern "${options.pattern}" in ${options.displayDirectory}.`, matchCount, fileCount, returned: 0, hasMore: false };
  }
  if (options.outputMode === "count") {
    return { text: `matches=${matchCount}\nfiles=${fileCount}`, matchCount, fileCount, returned: 0, hasMore: false };
  }
  if (options.outputMode === "files") {
    const page = files.slice(offset, offset + headLimit);
    const hasMore = offset + headLimit < fileCount;
    const lines = page.map((file) => `${display(file)} (${file.matchCount}, firstLine=${file.firstMatchLine})`);
    let text =
      `Found ${matchCount} matching lines in ${fileCount} files` +
      (page.length ? ` (files ${offset + 1}-${offset + page.length}):` : `; offset=${offset} is past the end.`);
    if (lines.length) text += `\n${lines.join("\n")}`;
    if (hasMore) text += `\n...more files omitted; continue with offset=${offset + page.length}...`;
    return { text, matchCount, fileCount, returned: page.length, hasMore };
  }
  const builder = new GrepTextBuilder(caches);
  const range: GrepByteRange = { buffer: EMPTY, start: 0, end: 0 };
  let elements = 0; // lines and "--" written
  let pendingDashes = 0; // "--" elements not written yet (a trailing one is dropped)
  const beginElement = () => {
    for (; pendingDashes > 0; pendingDashes -= 1) builder.writeAscii(elements++ === 0 ? "--" : "\n--");
    if (elements++ > 0) builder.writeAscii("\n");
  };
  /** Finds a line's text: in `range` (bytes) or as a string; false when the line is not known. */
  let lineString: string | undefined;
  const findLine = (file: GrepFileHits, line: number): boolean => {
    lineString = undefined;
    if (file.lineBytes) return file.lineBytes(line, range);
    lineString = file.lineText(line);
    return lineString !== undefined;
  };
  /** Writes the line found by `findLine`, clipped as {@link clipLine} clips it. */
  const writeFound = () => {
    if (lineString !== undefined) return builder.writeString(clipLine(lineString));
    const { buffer, start } = range;
    let end = range.end;
    while (end > start && (buffer[end - 1] === 13 || buffer[end - 1] === 10)) end -= 1;
    // At most GREP_LINE_CHARS bytes are at most that many UTF-16 code units: nothing to clip.
    if (end - start <= GREP_LINE_CHARS) return builder.writeBytes(buffer, start, end);
    // Past GREP_CLIP_BYTES bytes a line has more than GREP_LINE_CHARS code units: decode only its start (lines can be megabytes).
    if (end - start > GREP_CLIP_BYTES) return builder.writeString(clipLine(buffer.toString("utf8", start, start + GREP_CLIP_BYTES)));
    builder.writeString(clipLine(buffer.toString("utf8", start, end)));
  };
  let index = 0; // global match index
  let returned = 0;
  const end = offset + headLimit;
  // Room for the header and the trailer; sizes are bytes, at least the characters they decode to.
  const budget = options.maxChars === undefined ? Number.POSITIVE_INFINITY : options.maxChars - TRAILER_ROOM;
  let capped = false;
  if (!options.context) builder.expect(expectedBytes(files, { offset, end, budget, display }));
  render: for (const file of files) {
    const count = file.matchCount;
    if (index + count <= offset) {
      index += count;
      continue;
    }
    if (index >= end) break;
    const from = Math.max(0, offset - index);
    const to = Math.min(count, end - index);
    const name = display(file);
    const nameBytes = hasSurrogate(name) ? undefined : Buffer.from(name, "utf8");
    const writeName = () => (nameBytes ? builder.writeBytes(nameBytes, 0, nameBytes.length) : builder.writeString(name));
    // Every line of the file on the page, no context: one loop over ripgrep's records, kept if the budget holds them.
    if (!options.context && from === 0 && to === count && nameBytes && file.matchRecords?.(range)) {
      const markSize = builder.size;
      const markParts = builder.partsCount;
      const written = writeMatchRecords(builder, nameBytes, range, elements === 0);
      if (written === count && builder.size <= budget) {
        elements += count;
        returned += count;
        index += count;
        continue;
      }
      builder.rollback(markSize, markParts);
    }
    const matchLines = file.matchLines();
    const matchSet = options.context > 0 ? new Set(matchLines) : undefined;
    let lastPrinted = -1;
    /** Writes one match (with its context lines). */
    const writeMatch = (line: number): void => {
      if (!matchSet) {
        const found = findLine(file, line);
        beginElement();
        writeName();
        builder.writeAscii(":");
        builder.writeNumber(line);
        builder.writeAscii(": ");
        if (found) writeFound();
        return;
      }
      const first = Math.max(1, line - options.context, lastPrinted + 1);
      if (lastPrinted !== -1 && first > lastPrinted + 1) pendingDashes += 1;
      for (let current = first; current <= line + options.context; current += 1) {
        if (!findLine(file, current)) break;
        beginElement();
        writeName();
        builder.writeAscii(matchSet.has(current) ? ":" : "-");
        builder.writeNumber(current);
        builder.writeAscii(matchSet.has(current) ? ": " : "- ");
        writeFound();
        lastPrinted = current;
      }
    };
    for (let position = from; position < to; position += 1) {
      const markSize = builder.size;
      const markParts = builder.partsCount;
      const markElements = elements;
      const markDashes = pendingDashes;
      writeMatch(matchLines[position]!);
      // Past the budget, the match goes again unless it is the first of the answer (or text moved to parts meanwhile).
      if (builder.size > budget && returned + position - from > 0 && builder.rollback(markSize, markParts)) {
        elements = markElements;
        pendingDashes = markDashes;
        returned += position - from;
        capped = true;
        break render;
      }
    }
    file.release?.();
    if (matchSet && elements + pendingDashes > 0 && pendingDashes === 0) pendingDashes = 1;
    returned += to - from;
    index += count;
  }
  // A trailing "--" is dropped; earlier ones (only after a line that could not be read) stay.
  if (pendingDashes > 0) pendingDashes -= 1;
  for (; pendingDashes > 0; pendingDashes -= 1) builder.writeAscii(elements++ === 0 ? "--" : "\n--");
  const hasMore = capped || offset + headLimit < matchCount;
  builder.prepend(
    `Found ${matchCount} matching lines in ${fileCount} files` +
      (returned ? ` (matches ${offset + 1}-${offset + returned}):` : `; offset=${offset} is past the end.`) +
      (elements > 0 ? "\n" : ""),
  );
  if (capped)
    builder.writeAscii(`\n...output limit of ${options.maxChars} characters reached; more matches omitted; continue with offset=${offset + returned}...`);
  else if (hasMore) builder.writeAscii(`\n...more matches omitted; continue with offset=${offset + returned}...`);
  const text = builder.finish();
  return { text, matchCount, fileCount, returned, hasMore };
}

/** Below this many bytes, the builder's own growth (from its kept buffer) is left alone. */
const EXPECT_FROM_BYTES = 1024 * 1024;
/** Bytes assumed for a rendered line when ripgrep's records are not at hand. */
const LINE_BYTES_GUESS = 96;

/**
 * The bytes a page without context lines will take (up to `budget`):
 * ripgrep's records plus `path:` and a space per line, or a guess per line
 * for other engines; 0 when it is small.
 */
function expectedBytes(files: readonly GrepFileHits[], page: { offset: number; end: number; budget: number; display: (file: GrepFileHits) => string }): number {
  // The estimate is capped at the budget: under the threshold it is always 0, so the page's files need no walk (the default cap).
  if (page.budget < EXPECT_FROM_BYTES) return 0;
  const range: GrepByteRange = { buffer: EMPTY, start: 0, end: 0 };
  let index = 0;
  let bytes = 0;
  for (const file of files) {
    if (index >= page.end || bytes >= page.budget) break;
    const count = file.matchCount;
    const from = Math.max(0, page.offset - index);
    const to = Math.min(count, page.end - index);
    index += count;
    if (to <= from) continue;
    const lines = to - from;
    const whole = from === 0 && to === count && file.matchRecords?.(range);
    bytes += (whole ? range.end - range.start : lines * LINE_BYTES_GUESS) + lines * (Buffer.byteLength(page.display(file), "utf8") + 3);
  }
  const expected = Math.min(bytes, page.budget);
  return expected >= EXPECT_FROM_BYTES ? expected : 0;
}
