/**
 * Grep over a page of 50,000 files: their paths alone (about 3 MB as
 * arguments) exceed the kernel's ARG_MAX, so a page pass that named every
 * file on one command line failed with `spawn E2BIG`.
 */
import { accessSync, constants, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createToolRegistry, type ToolRegistry, toolResultText } from "@agent-tools/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFastIo } from "../fast-io/fast-io.js";
import { assembleFsToolBundle } from "../fs-tool-bundle.js";
import { locateRipgrep } from "./ripgrep.js";

const rgPath = locateRipgrep();
const FILE_COUNT = 50_000;
const FILES_PER_DIRECTORY = 100;

/** One generated file: its path, its matching lines and their text. */
interface TreeFile {
  path: string;
  lines: Array<[number, string]>;
}

/** Writes the tree with sync calls (fast) and returns its files with their expected hits, sorted by path. */
function writeManyFiles(root: string): TreeFile[] {
  const files: TreeFile[] = [];
  for (let index = 0; index < FILE_COUNT; index += 1) {
    const directory = `directory-${String(Math.floor(index / FILES_PER_DIRECTORY)).padStart(3, "0")}/nested-level`;
    if (index % FILES_PER_DIRECTORY === 0) mkdirSync(path.join(root, directory), { recursive: true });
    const relative = `${directory}/generated-file-number-${String(index).padStart(5, "0")}.txt`;
    const lines: Array<[number, string]> = [[2, `const needle${index} = ${index};`]];
    // Every seventh file holds a second match, so line counts differ from file counts.
    if (index % 7 === 0) lines.push([4, `return needle${index} + 1; // NEEDLE again`]);
    const text = [`// file ${index}`, lines[0]![1], "unrelated line", lines[1]?.[1] ?? "another line", ""].join("\n");
    writeFileSync(path.join(root, relative), text);
    files.push({ path: relative, lines });
  }
  return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** A memory file system when there is one (writing 50,000 files to a disk can take 15 s on a busy machine), else the temp dir. */
function scratchParent(): string {
  try {
    accessSync("/dev/shm", constants.W_OK);
    return "/dev/shm";
  } catch {
    return os.tmpdir();
  }
}

let root: string;
let files: TreeFile[];
let matchCount: number;

beforeAll(() => {
  root = realpathSync(mkdtempSync(path.join(scratchParent(), "tools-fs-grep-many-")));
  files = writeManyFiles(root);
  matchCount = files.reduce((sum, file) => sum + file.lines.length, 0);
}, 60_000);
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe.skipIf(!rgPath)("Grep with a page of 50,000 files (ripgrep engine)", () => {
  let registry: ToolRegistry;
  let callId = 0;
  beforeAll(() => {
    registry = createToolRegistry({
      workdir: root,
      dataDir: path.join(root, ".data-unused"),
      bundles: [assembleFsToolBundle({ ripgrepPath: rgPath! }, createFastIo())],
      // The whole result is checked: no cap on the text (the default would cut it at 240,000 characters).
      maxOutputChars: 64 * 1024 * 1024,
      loopBreaker: false,
    });
  });
  afterAll(() => registry.close());
  const grep = async (args: Record<string, unknown>) => {
    const result = await registry.executeToolCall({ id: `many_${++callId}`, name: "Grep", arguments: args });
    const text = toolResultText(result);
    if (result.isError) throw new Error(`Grep failed: ${text.slice(0, 500)}`);
    return { ...result, text };
  };

  it("files mode with head_limit 50000 lists every file (no E2BIG)", async () => {
    const result = await grep({ pattern: "needle", output_mode: "files", head_limit: FILE_COUNT });
    const expected = [
      `Found ${matchCount} matching lines in ${FILE_COUNT} files (files 1-${FILE_COUNT}):`,
      ...files.map((file) => `${file.path} (${file.lines.length}, firstLine=${file.lines[0]![0]})`),
    ].join("\n");
    expect(result.text).toBe(expected);
    expect(result.details).toMatchObject({ engine: "ripgrep", matchCount, fileCount: FILE_COUNT, returned: FILE_COUNT, hasMore: false });
  }, 30_000);

  it("content mode renders every matching line of every file (no E2BIG)", async () => {
    const result = await grep({ pattern: "needle\\d+", output_mode: "content", head_limit: matchCount });
    const expected = [
      `Found ${matchCount} matching lines in ${FILE_COUNT} files (matches 1-${matchCount}):`,
      ...files.flatMap((file) => file.lines.map(([line, text]) => `${file.path}:${line}: ${text}`)),
    ].join("\n");
    expect(result.text).toBe(expected);
    expect(result.details).toMatchObject({ engine: "ripgrep", matchCount, fileCount: FILE_COUNT, returned: matchCount, hasMore: false });
  }, 30_000);

  it("a page in the middle of the tree, case-sensitive, matches the expected slice", async () => {
    const sevenths = files.filter((file) => file.lines.length === 2);
    const offset = 1_000;
    const headLimit = 5_000;
    const result = await grep({ pattern: "NEEDLE", ignore_case: false, output_mode: "content", offset, head_limit: headLimit });
    const page = sevenths.slice(offset, offset + headLimit);
    const expected = [
      `Found ${sevenths.length} matching lines in ${sevenths.length} files (matches ${offset + 1}-${offset + page.length}):`,
      ...page.map((file) => `${file.path}:4: ${file.lines[1]![1]}`),
      `...more matches omitted; continue with offset=${offset + page.length}...`,
    ].join("\n");
    expect(result.text).toBe(expected);
  }, 30_000);
});
