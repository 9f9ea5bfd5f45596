import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestWorkspace, type TestWorkspace } from "../__fixtures__/workspace.js";
import { writeSearchTree } from "../__fixtures__/search-tree.js";
import { locateRipgrep } from "./ripgrep.js";

const rgPath = locateRipgrep();
const engines = [
  { name: "ripgrep", ripgrepPath: rgPath ?? undefined },
  { name: "typescript", ripgrepPath: false as const },
].filter((engine) => engine.name === "typescript" || rgPath !== null);

let root: string;
let outside: string;
beforeAll(() => {
  root = realpathSync(mkdtempSync(path.join(os.tmpdir(), "tools-fs-search-")));
  outside = realpathSync(mkdtempSync(path.join(os.tmpdir(), "tools-fs-outside-")));
  writeSearchTree(root, outside);
});
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

const VISIBLE_FILES = [
  ".gitignore",
  ".hidden/config.ts",
  ".ignore",
  "README.md",
  "bin/data.bin",
  "docs/guide.md",
  "keep.log",
  "src/bom.ts",
  "src/context.txt",
  "src/crlf.ts",
  "src/deep/.gitignore",
  "src/deep/nested/file.tsx",
  "src/index.ts",
  "src/long.txt",
  "src/multi.txt",
  "src/util.ts",
];

describe.each(engines)("search tools ($name engine)", ({ ripgrepPath }) => {
  let ws: TestWorkspace;
  beforeAll(() => {
    ws = createTestWorkspace({}, { dir: root, ripgrepPath });
  });
  const call = (name: string, args: Record<string, unknown>) => ws.call(name, args);

  it("Glob lists every file the ignore rules keep, sorted, without following symlinks", async () => {
    const result = await call("Glob", { pattern: "**/*" });
    const files = result.text.split("\n").slice(1);
    expect(files).toEqual(VISIBLE_FILES);
    expect(result.details).toMatchObject({ kind: "glob", totalMatches: VISIBLE_FILES.length, returned: VISIBLE_FILES.length, hasMore: false });
  });

  it("Glob matches base names at any depth for patterns without a slash", async () => {
    const result = await call("Glob", { pattern: "*.ts" });
    expect(result.text.split("\n").slice(1)).toEqual([".hidden/config.ts", "src/bom.ts", "src/crlf.ts", "src/index.ts", "src/util.ts"]);
    const scoped = await call("Glob", { pattern: "src/*.ts" });
    expect(scoped.text.split("\n").slice(1)).toEqual(["src/bom.ts", "src/crlf.ts", "src/index.ts", "src/util.ts"]);
    const braces = await call("Glob", { pattern: "**/*.{tsx,md}" });
    expect(braces.text.split("\n").slice(1)).toEqual(["README.md", "docs/guide.md", "src/deep/nested/file.tsx"]);
  });

  it("Glob pages with offset and max_results, searches a path, and a file path searches its directory", async () => {
    const page = await call("Glob", { pattern: "**/*", offset: 2, max_results: 3 });
    expect(page.text.split("\n").slice(1, 4)).toEqual(VISIBLE_FILES.slice(2, 5));
    expect(page.text).toContain("continue with offset=5");
    expect(page.details).toMatchObject({ hasMore: true, returned: 3, offset: 2 });
    const inSrc = await call("Glob", { pattern: "**/*.tsx", path: "src" });
    expect(inSrc.text.split("\n").slice(1)).toEqual(["src/deep/nested/file.tsx"]);
    const fromFile = await call("Glob", { pattern: "*.ts", path: "src/util.ts" });
    expect(fromFile.details).toMatchObject({ path: "src", totalMatches: 4 });
  });

  it("Glob validates sort_by and reports no matches", async () => {
    const bad = await call("Glob", { pattern: "*", sort_by: "mtime" });
    expect(bad.isError).toBe(true);
    expect(bad.text).toContain("Glob.sort_by only supports path");
    const none = await call("Glob", { pattern: "**/*.rs" });
    expect(none.isError).toBe(false);
    expect(none.text).toBe('No files match "**/*.rs" in ..');
  });

  it("Grep finds matches case-insensitively by default, sorted by path then line", async () => {
    const result = await call("Grep", { pattern: "todo" });
    expect(result.text.split("\n").slice(1)).toEqual([
      ".hidden/config.ts:1: export const hidden = 'TODO hidden';",
      "README.md:2: TODO: write docs",
      "docs/guide.md:2: See TODO",
      "keep.log:1: TODO kept log",
      "src/bom.ts:1: TODO bom",
      "src/context.txt:3: TODO c3",
      "src/context.txt:7: TODO c7",
      "src/crlf.ts:2: TODO crlf",
      "src/deep/nested/file.tsx:1: const A = () => <div>TODO nested</div>;",
      "src/index.ts:2: // TODO first",
      `src/long.txt:1: TODO ${"x".repeat(395)}...`,
      "src/util.ts:2:   // todo lower",
    ]);
    expect(result.details).toMatchObject({ matchCount: 12, fileCount: 11, hasMore: false });
  });

  it("Grep honours ignore_case=false, file_pattern and path", async () => {
    const exact = await call("Grep", { pattern: "todo", ignore_case: false });
    expect(exact.details).toMatchObject({ matchCount: 1, fileCount: 1 });
    const typed = await call("Grep", { pattern: "TODO", file_pattern: "*.ts|*.tsx" });
    expect(typed.details).toMatchObject({ matchCount: 6, fileCount: 6 });
    const slashed = await call("Grep", { pattern: "TODO", file_pattern: "src/*.ts" });
    expect(slashed.details).toMatchObject({ matchCount: 4, fileCount: 4 });
    const scoped = await call("Grep", { pattern: "TODO", path: "docs" });
    expect(scoped.text.split("\n").slice(1)).toEqual(["docs/guide.md:2: See TODO"]);
    const single = await call("Grep", { pattern: "return", path: "src/util.ts" });
    expect(single.text.split("\n").slice(1)).toEqual(["src/util.ts:3:   return x + 1;"]);
  });

  it("Grep output modes and pagination", async () => {
    const files = await call("Grep", { pattern: "TODO", output_mode: "files", head_limit: 2, offset: 4 });
    expect(files.text.split("\n").slice(1, 3)).toEqual(["src/bom.ts (1, firstLine=1)", "src/context.txt (2, firstLine=3)"]);
    expect(files.details).toMatchObject({ fileCount: 11, matchCount: 12, hasMore: true, returned: 2 });
    const count = await call("Grep", { pattern: "TODO", output_mode: "count" });
    expect(count.text).toBe("matches=12\nfiles=11");
    expect(count.details).toMatchObject({ hasMore: false });
    const page = await call("Grep", { pattern: "TODO", head_limit: 3, offset: 3 });
    expect(page.text.split("\n").slice(1, 4)).toEqual(["keep.log:1: TODO kept log", "src/bom.ts:1: TODO bom", "src/context.txt:3: TODO c3"]);
    expect(page.text).toContain("continue with offset=6");
    expect(page.details).toMatchObject({ hasMore: true, returned: 3 });
  });

  it("Grep shows context lines", async () => {
    const result = await call("Grep", { pattern: "TODO c", path: "src/context.txt", context: 1 });
    expect(result.text.split("\n").slice(1)).toEqual([
      "src/context.txt-2- c2",
      "src/context.txt:3: TODO c3",
      "src/context.txt-4- c4",
      "--",
      "src/context.txt-6- c6",
      "src/context.txt:7: TODO c7",
      "src/context.txt-8- c8",
    ]);
    const directory = await call("Grep", { pattern: "TODO c", path: "src", context: 2 });
    expect(directory.text.split("\n").slice(1)).toEqual([
      "src/context.txt-1- c1",
      "src/context.txt-2- c2",
      "src/context.txt:3: TODO c3",
      "src/context.txt-4- c4",
      "src/context.txt-5- c5",
      "src/context.txt-6- c6",
      "src/context.txt:7: TODO c7",
      "src/context.txt-8- c8",
      "--",
      "src/crlf.ts-1- line one",
      "src/crlf.ts:2: TODO crlf",
      "src/crlf.ts-3- last",
    ]);
  });

  it("Grep multiline matches span lines; without it a line break is refused", async () => {
    const result = await call("Grep", { pattern: "function a\\(\\) \\{\\n\\s+body", multiline: true });
    expect(result.text.split("\n").slice(1)).toEqual(["src/multi.txt:2: function a() {", "src/multi.txt:3:   body"]);
    const refused = await call("Grep", { pattern: "a\\nb" });
    expect(refused.isError).toBe(true);
    expect(refused.details).toMatchObject({ code: "regex_invalid" });
  });

  it("Grep regex features, invalid patterns and anchors on CRLF files", async () => {
    expect((await call("Grep", { pattern: "^TODO crlf$" })).details).toMatchObject({ matchCount: 1 });
    expect((await call("Grep", { pattern: "util\\(\\d\\)" })).details).toMatchObject({ matchCount: 1 });
    const invalid = await call("Grep", { pattern: "(unclosed" });
    expect(invalid.details).toMatchObject({ code: "regex_invalid" });
    const lookahead = await call("Grep", { pattern: "TODO(?= first)" });
    expect(lookahead.details).toMatchObject({ code: "regex_invalid" });
    const none = await call("Grep", { pattern: "zzz-nothing" });
    expect(none.text).toBe('No matches for pattern "zzz-nothing" in ..');
  });

  it("List shows directories and files to a depth, sorted and paged", async () => {
    const result = await call("List", { path: "src", depth: 1 });
    expect(result.text.split("\n").slice(1)).toEqual([
      "[FILE] src/bom.ts",
      "[FILE] src/context.txt",
      "[FILE] src/crlf.ts",
      "[DIR] src/deep",
      "[FILE] src/index.ts",
      "[FILE] src/long.txt",
      "[FILE] src/multi.txt",
      "[FILE] src/util.ts",
    ]);
    const deeper = await call("List", { path: "src" });
    expect(deeper.text).toContain("[DIR] src/deep/nested");
    expect(deeper.text).toContain("[FILE] src/deep/.gitignore");
    expect(deeper.text).not.toContain("generated.ts");
    expect(deeper.text).not.toContain("file.tsx");
    const top = await call("List", {});
    expect(top.text).toContain("[LINK] link-src");
    expect(top.text).not.toContain("node_modules");
    expect(top.text).not.toContain("[DIR] .git\n");
    const paged = await call("List", { depth: 1, offset: 1, max_results: 2 });
    expect(paged.details).toMatchObject({ offset: 1, returned: 2, hasMore: true });
    const file = await call("List", { path: "README.md" });
    expect(file.text).toContain("lists only itself");
  });

  it("refuses a symlink that leads out of the workspace", async () => {
    const result = await call("Grep", { pattern: "TODO", path: "link-outside" });
    expect(result.details).toMatchObject({ code: "out_of_bounds" });
    const read = await call("Read", { path: "link-outside/outside.ts" });
    expect(read.details).toMatchObject({ code: "out_of_bounds" });
    const inside = await call("Read", { path: "link-src/util.ts" });
    expect(inside.isError).toBe(false);
  });
});

describe("engine parity", () => {
  it("ripgrep and the TypeScript engine give identical Grep and Glob results", async () => {
    if (!rgPath) return;
    const rg = createTestWorkspace({}, { dir: root });
    const ts = createTestWorkspace({}, { dir: root, ripgrepPath: false });
    const queries: Array<[string, Record<string, unknown>]> = [
      ["Grep", { pattern: "TODO" }],
      ["Grep", { pattern: "todo", ignore_case: false }],
      ["Grep", { pattern: "\\w+\\(", output_mode: "files" }],
      ["Grep", { pattern: "return", context: 1 }],
      ["Grep", { pattern: "^$" }],
      ["Grep", { pattern: "e", output_mode: "count" }],
      ["Grep", { pattern: "[a-z]+ [0-9]", head_limit: 5, offset: 1 }],
      ["Grep", { pattern: "\\{\\n", multiline: true }],
      ["Glob", { pattern: "**/*" }],
      ["Glob", { pattern: "**/.*" }],
      ["Glob", { pattern: "src/**" }],
      ["Glob", { pattern: "**/*.ts" }],
      ["Glob", { pattern: "*.{md,log}" }],
      ["Glob", { pattern: "**/[rR]*" }],
    ];
    for (const [name, args] of queries) {
      const a = await rg.call(name, args);
      const b = await ts.call(name, args);
      expect(b.text, `${name} ${JSON.stringify(args)}`).toBe(a.text);
    }
  });
});
