import { comparePaths, joinDisplay } from "./file-walker.js";
import { type GrepFileHits, type GrepFormatOptions, clipLine } from "./grep-result.js";

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
 */
export function renderGrep(hitsUnsorted: GrepFileHits[], options: GrepFormatOptions): GrepRendered {
  const files = hitsUnsorted.filter((file) => file.matchCount > 0).sort((a, b) => comparePaths(a.path, b.path));
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
  const out: string[] = [];
  let index = 0; // global match index
  let returned = 0;
  const end = offset + headLimit;
  for (const file of files) {
    const count = file.matchCount;
    if (index + count <= offset) {
      index += count;
      continue;
    }
    if (index >= end) break;
    const from = Math.max(0, offset - index);
    const to = Math.min(count, end - index);
    const name = display(file);
    const matchLines = file.matchLines();
    const matchSet = options.context > 0 ? new Set(matchLines) : undefined;
    let lastPrinted = -1;
    for (let position = from; position < to; position += 1) {
      const line = matchLines[position]!;
      if (!matchSet) {
        out.push(`${name}:${line}: ${clipLine(file.lineText(line) ?? "")}`);
        continue;
      }
      const first = Math.max(1, line - options.context, lastPrinted + 1);
      if (lastPrinted !== -1 && first > lastPrinted + 1) out.push("--");
      for (let current = first; current <= line + options.context; current += 1) {
        const text = file.lineText(current);
        if (text === undefined) break;
        out.push(matchSet.has(current) ? `${name}:${current}: ${clipLine(text)}` : `${name}-${current}- ${clipLine(text)}`);
        lastPrinted = current;
      }
    }
    if (matchSet && out.length && out[out.length - 1] !== "--") out.push("--");
    returned += to - from;
    index += count;
  }
  if (out[out.length - 1] === "--") out.pop();
  const hasMore = offset + headLimit < matchCount;
  let text =
    `Found ${matchCount} matching lines in ${fileCount} files` +
    (returned ? ` (matches ${offset + 1}-${offset + returned}):` : `; offset=${offset} is past the end.`);
  if (out.length) text += `\n${out.join("\n")}`;
  if (hasMore) text += `\n...more matches omitted; continue with offset=${offset + returned}...`;
  return { text, matchCount, fileCount, returned, hasMore };
}
