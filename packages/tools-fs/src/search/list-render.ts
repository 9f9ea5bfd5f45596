/** List's answer, the same for the local disk's walk and a workspace's. */
import { type WalkEntry, comparePaths, joinDisplay } from "./file-walker.js";

/** Details of a List result. */
export interface ListDetails {
  kind: "list";
  path: string;
  depth: number;
  totalEntries: number;
  returned: number;
  offset: number;
  hasMore: boolean;
}

/** List's answer for a path naming a file: the file alone. */
export function renderListOfFile(displayPath: string, depth: number): { content: string; details: ListDetails } {
  const text = `Note: ${displayPath} is a file, so it lists only itself.\n[FILE] ${displayPath}`;
  return {
    content: text,
    details: { kind: "list" as const, path: displayPath, depth, totalEntries: 1, returned: 1, offset: 0, hasMore: false },
  };
}

/** List's answer from the entries a walk found (sorted here), on the local disk or a workspace. */
export function renderList(
  entries: WalkEntry[],
  input: { depth: number; offset: number; max_results: number },
  displayDirectory: string,
): { content: string; details: ListDetails } {
  entries.sort((a, b) => comparePaths(a.relativePath, b.relativePath));
  const page = entries.slice(input.offset, input.offset + input.max_results);
  const hasMore = input.offset + input.max_results < entries.length;
  const tag = { directory: "[DIR]", file: "[FILE]", symlink: "[LINK]" } as const;
  const lines = page.map((entry) => `${tag[entry.kind]} ${joinDisplay(displayDirectory, entry.relativePath)}`);
  let text =
    entries.length === 0
      ? `${displayDirectory} is empty (or every entry is ignored).`
      : `${displayDirectory}: ${entries.length} entries (depth ${input.depth})${page.length ? `, showing ${input.offset + 1}-${input.offset + page.length}` : `; offset=${input.offset} is past the end`}`;
  if (lines.length) text += `\n${lines.join("\n")}`;
  if (hasMore) text += `\n...more entries omitted; continue with offset=${input.offset + page.length}...`;
  return {
    content: text,
    details: {
      kind: "list" as const,
      path: displayDirectory,
      depth: input.depth,
      totalEntries: entries.length,
      returned: page.length,
      offset: input.offset,
      hasMore,
    },
  };
}
