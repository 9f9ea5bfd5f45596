/**
 * The file tools' behaviour cases, run on any workspace: each case seeds a
 * tree, calls the tools through `registry.executeToolCall` and asserts the
 * exact result text (workspace root and its parent written as `<root>` and
 * `<parent>`), so the local disk, the memory workspace and the SSH
 * workspace are held to one answer.
 *
 * @example
 * runWorkspaceBehaviourCases("memory workspace", async (files) => memoryHarness(files));
 */
import { type ToolRegistry, type ToolResult, toolResultText } from "@agent-tools/core";
import { describe, expect, it } from "vitest";
import { WORKSPACE_BEHAVIOUR_MORE_CASES } from "./workspace-behaviour-more-cases.js";

/** A registry on a seeded tree, and ways to reach the tree from outside the tools. */
export interface BehaviourHarness {
  readonly registry: ToolRegistry;
  /** The workspace root as the tools see it (absolute). */
  readonly root: string;
  /** Writes a file as another program would (relative to the root). */
  write(relative: string, content: string | Buffer): Promise<void>;
  /** Reads a file's bytes from outside the tools; undefined when missing. */
  read(relative: string): Promise<Buffer | undefined>;
  /** Creates a symlink at `relative` whose target text is `target`. */
  symlink(target: string, relative: string): Promise<void>;
  /** Closes the registry and removes the tree. */
  close(): Promise<void>;
}

/** Makes a harness on a tree holding `files` (relative path to content). */
export type BehaviourFactory = (files: Record<string, string | Buffer>) => Promise<BehaviourHarness>;

/** A tool result with its text joined, the root and its parent replaced. */
export type CallResult = ToolResult<any> & { text: string };

/** One behaviour case. */
export interface BehaviourCase {
  readonly name: string;
  readonly files: Record<string, string | Buffer>;
  run(tools: BehaviourTools): Promise<void>;
}

/** What a case gets: calls and the harness. */
export interface BehaviourTools {
  call(name: string, args: Record<string, unknown>): Promise<CallResult>;
  harness: BehaviourHarness;
}

let counter = 0;

function tools(harness: BehaviourHarness): BehaviourTools {
  const parent = harness.root.slice(0, harness.root.lastIndexOf("/")) || "/";
  return {
    harness,
    async call(name, args) {
      const result = await harness.registry.executeToolCall({ id: `behaviour_${++counter}`, name, arguments: args });
      const text = toolResultText(result).split(harness.root).join("<root>").split(parent).join("<parent>");
      return { ...result, text };
    },
  };
}

/** A 1x1 transparent PNG. */
export const TINY_PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==", "base64");

const FIVE_LINES = "alpha\nbeta\ngamma\ndelta\nepsilon\n";

/** The cases (exact texts; shared by every workspace kind). */
export const WORKSPACE_BEHAVIOUR_CASES: readonly BehaviourCase[] = [
  {
    name: "Read: a window, paging, then the unchanged note",
    files: { "notes.txt": FIVE_LINES },
    async run({ call }) {
      const window = await call("Read", { path: "notes.txt", start_line: 2, limit: 2 });
      expect(window.text).toBe(
        "Read: notes.txt\nlines=2-3 / 5\nview=partial\n\n     2\tbeta\n     3\tgamma\n[...truncated: 2 more lines; continue with start_line=4...]",
      );
      expect(window.details).toMatchObject({ kind: "read_text", startLine: 2, numLines: 2, totalLines: 5, truncated: true, isPartialView: true });
      const again = await call("Read", { path: "notes.txt", start_line: 2, limit: 2 });
      expect(again.text).toBe("Read: notes.txt\nlines=2-3 / 5\nview=partial\n\nThis range is unchanged since the previous Read. Reuse the earlier content.");
      const full = await call("Read", { path: "notes.txt" });
      expect(full.text).toBe("Read: notes.txt\nlines=1-5 / 5\nview=full\n\n     1\talpha\n     2\tbeta\n     3\tgamma\n     4\tdelta\n     5\tepsilon");
      expect(full.details.contentHash).toBe(window.details.contentHash);
    },
  },
  {
    name: "Read: a missing file suggests a near name; a directory is refused",
    files: { "src/index.ts": "export {};\n" },
    async run({ call }) {
      const missing = await call("Read", { path: "src/Index.ts" });
      expect(missing.isError).toBe(true);
      expect(missing.text).toBe(
        "Read failed: src/Index.ts does not exist (workspace root: <root>). Did you mean: src/index.ts? Retry with one of these exact paths.",
      );
      const directory = await call("Read", { path: "src" });
      expect(directory.text).toBe('Read failed: src is a directory. Use List path="src" to see its entries, then Read a file inside it.');
    },
  },
  {
    name: "Write: a new file with its parents, then an overwrite needs the file read (automatically when small)",
    files: { "old.txt": "one\ntwo\n" },
    async run({ call, harness }) {
      const created = await call("Write", { path: "deep/new/file.md", content: "# Title\n\nbody\n" });
      expect(created.text).toBe("File created successfully at: deep/new/file.md");
      expect(created.details).toMatchObject({ kind: "write", existedBefore: false, bytesWritten: 14, totalLines: 3, autoRead: false });
      expect((await harness.read("deep/new/file.md"))?.toString()).toBe("# Title\n\nbody\n");
      const overwritten = await call("Write", { path: "old.txt", content: "three\n" });
      expect(overwritten.text).toBe("File updated successfully at: old.txt\nautoRead=full");
      expect(overwritten.details).toMatchObject({ existedBefore: true, autoRead: true, totalLines: 1 });
      const again = await call("Write", { path: "old.txt", content: "four\n" });
      expect(again.text).toBe("File updated successfully at: old.txt");
      expect((await harness.read("old.txt"))?.toString()).toBe("four\n");
    },
  },
  {
    name: "Write and Edit: stale after an outside change, fine after a new Read",
    files: { "app.ts": "const a = 1;\n" },
    async run({ call, harness }) {
      await call("Read", { path: "app.ts" });
      await harness.write("app.ts", "const a = 100;\n");
      const stale = await call("Edit", { path: "app.ts", old_string: "const a", new_string: "let a" });
      expect(stale.isError).toBe(true);
      expect(stale.text).toBe(
        "Edit refused: app.ts changed on disk after your last Read (size 13 -> 15 bytes). Read it again to see the current content, then retry Edit.",
      );
      const staleWrite = await call("Write", { path: "app.ts", content: "x\n" });
      expect(staleWrite.text).toBe(
        "Write refused: app.ts changed on disk after your last Read (size 13 -> 15 bytes). Read it again to see the current content, then retry Write.",
      );
      await call("Read", { path: "app.ts" });
      const edited = await call("Edit", { path: "app.ts", old_string: "const a", new_string: "let a" });
      expect(edited.text).toBe("Edit: app.ts\nreplacements=1\nreplaceAll=false");
      expect((await harness.read("app.ts"))?.toString()).toBe("let a = 100;\n");
    },
  },
  {
    name: "Edit: exact, tolerant (trailing whitespace), not found, ambiguous, chained",
    files: { "code.py": "def f():   \n    return 1\n\nx = 1\nx = 1\n" },
    async run({ call, harness }) {
      const tolerant = await call("Edit", { path: "code.py", old_string: "def f():\n    return 1", new_string: "def f():\n    return 2" });
      expect(tolerant.text).toBe(
        "Edit: code.py\nreplacements=1\nreplaceAll=false\nNote: old_string matched ignoring per-line trailing whitespace; the replaced lines were written as given in new_string.\nautoRead=full",
      );
      const missing = await call("Edit", { path: "code.py", old_string: "nothing like this", new_string: "y" });
      expect(missing.text).toBe(
        "Edit failed: old_string was not found in code.py (also tried ignoring line endings, trailing whitespace and indentation). Read the file again and copy old_string verbatim from the current content (without line-number prefixes), or locate it with Grep.",
      );
      const ambiguous = await call("Edit", { path: "code.py", old_string: "x = 1", new_string: "x = 2" });
      expect(ambiguous.text).toBe(
        "Edit failed: old_string matched 2 locations in code.py. Extend old_string with surrounding lines so it matches exactly one location, or set replace_all=true to replace all 2.",
      );
      const all = await call("Edit", { path: "code.py", old_string: "x = 1", new_string: "x = 2", replace_all: true });
      expect(all.text).toBe("Edit: code.py\nreplacements=2\nreplaceAll=true");
      expect(all.details).toMatchObject({ kind: "edit", replacements: 2, matchStrategy: "exact", totalLines: 5 });
      expect((await harness.read("code.py"))?.toString()).toBe("def f():\n    return 2\n\nx = 2\nx = 2\n");
      const absent = await call("Edit", { path: "nope.py", old_string: "a", new_string: "b" });
      expect(absent.text).toBe("Edit failed: nope.py does not exist (workspace root: <root>). Did you mean: code.py? Retry with one of these exact paths.");
    },
  },
  {
    name: "Delete: a file, a directory tree, a symlink itself; the root is refused",
    files: { "gone.txt": "x\n", "tree/a/b.txt": "b\n", "tree/c.txt": "c\n", "kept.txt": "k\n" },
    async run({ call, harness }) {
      await harness.symlink("kept.txt", "link.txt");
      expect((await call("Delete", { path: "gone.txt" })).text).toBe("Deleted file: gone.txt");
      expect((await call("Delete", { path: "tree" })).text).toBe("Deleted directory: tree");
      expect((await call("Delete", { path: "link.txt" })).text).toBe("Deleted symlink: link.txt");
      expect(await harness.read("kept.txt")).toBeDefined();
      expect(await harness.read("tree/c.txt")).toBeUndefined();
      expect((await call("Delete", { path: "." })).text).toBe("Delete refused: . is the root directory itself. Delete files or folders inside it instead.");
      const missing = await call("Delete", { path: "tree/a" });
      expect(missing.text).toBe(
        'Delete failed: tree/a does not exist (workspace root: <root>). Find it with Glob pattern="**/a", or List the parent directory.',
      );
    },
  },
  {
    name: "List: depth, kinds, ignore files, paging",
    files: { ".gitignore": "build/\n*.log\n", "src/a.ts": "a\n", "src/deep/b.ts": "b\n", "build/out.js": "o\n", "debug.log": "l\n", "README.md": "r\n" },
    async run({ call, harness }) {
      await harness.symlink("README.md", "readme-link");
      const listed = await call("List", {});
      expect(listed.text).toBe(
        ".: 6 entries (depth 2), showing 1-6\n[FILE] .gitignore\n[FILE] README.md\n[LINK] readme-link\n[DIR] src\n[FILE] src/a.ts\n[DIR] src/deep",
      );
      const paged = await call("List", { path: "src", depth: 3, offset: 1, max_results: 1 });
      expect(paged.text).toBe("src: 3 entries (depth 3), showing 2-2\n[DIR] src/deep\n...more entries omitted; continue with offset=2...");
      expect(paged.details).toMatchObject({ kind: "list", totalEntries: 3, returned: 1, hasMore: true });
      expect((await call("List", { path: "README.md" })).text).toBe("Note: README.md is a file, so it lists only itself.\n[FILE] README.md");
    },
  },
  {
    name: "Glob: patterns with and without a slash, honouring .gitignore",
    files: { ".gitignore": "dist/\n", "src/a.ts": "", "src/b.tsx": "", "src/sub/c.ts": "", "dist/d.ts": "", "e.ts": "" },
    async run({ call }) {
      const byName = await call("Glob", { pattern: "*.ts" });
      expect(byName.text).toBe('Found 3 files matching "*.ts" in . (showing 1-3):\ne.ts\nsrc/a.ts\nsrc/sub/c.ts');
      const bySlash = await call("Glob", { pattern: "src/*.{ts,tsx}" });
      expect(bySlash.text).toBe('Found 2 files matching "src/*.{ts,tsx}" in . (showing 1-2):\nsrc/a.ts\nsrc/b.tsx');
      expect((await call("Glob", { pattern: "**/*.md" })).text).toBe('No files match "**/*.md" in ..');
      expect((await call("Glob", { pattern: "*.ts", path: "src", max_results: 1 })).text).toBe(
        'Found 2 files matching "*.ts" in src (showing 1-1):\nsrc/a.ts\n...more files omitted; continue with offset=1...',
      );
    },
  },
  {
    name: "Grep: content with context, files, count, a file filter, one named file",
    files: {
      ".gitignore": "ignored/\n",
      "src/one.ts": "import x\nconst TODO = 1;\n// todo: later\n",
      "src/two.ts": "nothing\n",
      "lib/three.js": "todo three\n",
      "ignored/four.ts": "todo four\n",
      "bin.dat": Buffer.from([0, 1, 2, 116, 111, 100, 111]),
    },
    async run({ call }) {
      const content = await call("Grep", { pattern: "todo", context: 1 });
      expect(content.text).toBe(
        "Found 3 matching lines in 2 files (matches 1-3):\nlib/three.js:1: todo three\n--\nsrc/one.ts-1- import x\nsrc/one.ts:2: const TODO = 1;\nsrc/one.ts:3: // todo: later",
      );
      expect(content.details).toMatchObject({ kind: "grep", matchCount: 3, fileCount: 2, outputMode: "content" });
      const files = await call("Grep", { pattern: "todo", output_mode: "files" });
      expect(files.text).toBe("Found 3 matching lines in 2 files (files 1-2):\nlib/three.js (1, firstLine=1)\nsrc/one.ts (2, firstLine=2)");
      const count = await call("Grep", { pattern: "TODO", ignore_case: false, output_mode: "count" });
      expect(count.text).toBe("matches=1\nfiles=1");
      const filtered = await call("Grep", { pattern: "todo", file_pattern: "*.js" });
      expect(filtered.text).toBe("Found 1 matching lines in 1 files (matches 1-1):\nlib/three.js:1: todo three");
      const one = await call("Grep", { pattern: "later", path: "src/one.ts" });
      expect(one.text).toBe("Found 1 matching lines in 1 files (matches 1-1):\nsrc/one.ts:3: // todo: later");
      expect(one.details).toMatchObject({ path: "src/one.ts", matchCount: 1 });
      expect((await call("Grep", { pattern: "absent-word" })).text).toBe('No matches for pattern "absent-word" in ..');
      // A pattern that may backtrack (alternation, quantified groups) goes through the regex-budget path.
      const alternation = await call("Grep", { pattern: "(import|todo)+ [a-z]+", output_mode: "content" });
      expect(alternation.text).toBe("Found 2 matching lines in 2 files (matches 1-2):\nlib/three.js:1: todo three\nsrc/one.ts:1: import x");
      const named = await call("Grep", { pattern: "(later|never)", path: "src/one.ts" });
      expect(named.text).toBe("Found 1 matching lines in 1 files (matches 1-1):\nsrc/one.ts:3: // todo: later");
    },
  },
  {
    name: "Read and Image of a png",
    files: { "img/pic.png": TINY_PNG },
    async run({ call }) {
      const read = await call("Read", { path: "img/pic.png" });
      expect(read.text).toBe(`Read: img/pic.png\nimage=image/png, ${TINY_PNG.length} bytes`);
      expect(read.content).toContainEqual({ type: "image", data: TINY_PNG.toString("base64"), mimeType: "image/png" });
      const image = await call("Image", { path: "img/pic.png" });
      expect(image.text).toBe(`Displayed 1 image:\n#1 img/pic.png: image/png, ${TINY_PNG.length} bytes`);
      expect(image.details).toMatchObject({ kind: "display_image", loadMode: "inline", images: [{ path: "img/pic.png", bytes: TINY_PNG.length }] });
    },
  },
  {
    name: "Symlinks: one inside is followed, one leading out of the root is refused",
    files: { "real.txt": "real\n" },
    async run({ call, harness }) {
      await harness.symlink("real.txt", "inner.txt");
      await harness.symlink("../outside.txt", "escape.txt");
      expect((await call("Read", { path: "inner.txt" })).text).toBe("Read: inner.txt\nlines=1-1 / 1\nview=full\n\n     1\treal");
      const escaping = await call("Write", { path: "escape.txt", content: "x" });
      expect(escaping.isError).toBe(true);
      expect(escaping.text).toBe(
        'Write path "escape.txt" resolves through a symlink to <parent>/outside.txt, outside the workspace (<root>). Symlinks may not lead out of the workspace or a granted root.',
      );
    },
  },
];

/**
 * Registers every case of {@link WORKSPACE_BEHAVIOUR_CASES} and of
 * `WORKSPACE_BEHAVIOUR_MORE_CASES` (workspace-behaviour-more-cases.ts) as a vitest test
 * under `label`, each on a fresh harness from `factory`.
 */
export function runWorkspaceBehaviourCases(label: string, factory: BehaviourFactory): void {
  describe(label, () => {
    for (const behaviour of [...WORKSPACE_BEHAVIOUR_CASES, ...WORKSPACE_BEHAVIOUR_MORE_CASES]) {
      it(behaviour.name, async () => {
        const harness = await factory(behaviour.files);
        try {
          await behaviour.run(tools(harness));
        } finally {
          await harness.close();
        }
      });
    }
  });
}
