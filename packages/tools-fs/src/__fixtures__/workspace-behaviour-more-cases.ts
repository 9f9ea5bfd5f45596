/**
 * More file-tool behaviour cases (odd names, new folders, nested ignore
 * files, a linked folder, a big folder, a 2 MB file, a bigger PNG), run with
 * the first table by `runWorkspaceBehaviourCases`: the same exact texts on
 * every workspace kind, the local disk being the reference.
 */
import { crc32, deflateSync } from "node:zlib";
import { expect } from "vitest";
import type { BehaviourCase } from "./workspace-behaviour-cases.js";

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const sum = Buffer.alloc(4);
  sum.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, sum]);
}

/** A valid RGB PNG of `width` x `height` with a deterministic noisy pattern (so it compresses poorly). */
export function makePng(width: number, height: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const rows: Buffer[] = [];
  let state = 12345;
  for (let y = 0; y < height; y += 1) {
    const row = Buffer.alloc(1 + width * 3);
    for (let x = 1; x < row.length; x += 1) {
      state = (Math.imul(state, 1103515245) + 12345) >>> 0;
      row[x] = state >>> 24;
    }
    rows.push(row);
  }
  const signature = Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]);
  return Buffer.concat([signature, chunk("IHDR", header), chunk("IDAT", deflateSync(Buffer.concat(rows))), chunk("IEND", Buffer.alloc(0))]);
}

/** A PNG of about 300 KB (300 x 300, noise). */
export const NOISY_PNG = makePng(300, 300);

/** 32,768 lines of 64 bytes: 2 MiB. */
export const TWO_MB_TEXT = Array.from({ length: 32_768 }, (_, index) => `line ${String(index + 1).padStart(6, "0")} ${"x".repeat(51)}\n`).join("");

const BIG_FOLDER = Object.fromEntries(Array.from({ length: 1_500 }, (_, index) => [`big/f${String(index).padStart(4, "0")}.txt`, ""]));

const ODD = "dir with space/it's ünïcode.txt";

/** The extra cases (exact texts; shared by every workspace kind). */
export const WORKSPACE_BEHAVIOUR_MORE_CASES: readonly BehaviourCase[] = [
  {
    name: "Odd names: a space, a quote and non-ASCII letters through every file tool",
    files: { [ODD]: "héllo wörld\n", "plain.txt": "p\n" },
    async run({ call, harness }) {
      expect((await call("List", {})).text).toBe(
        ".: 3 entries (depth 2), showing 1-3\n[DIR] dir with space\n[FILE] dir with space/it's ünïcode.txt\n[FILE] plain.txt",
      );
      expect((await call("Glob", { pattern: "**/*.txt" })).text).toBe(
        'Found 2 files matching "**/*.txt" in . (showing 1-2):\ndir with space/it\'s ünïcode.txt\nplain.txt',
      );
      expect((await call("Grep", { pattern: "wörld" })).text).toBe(
        "Found 1 matching lines in 1 files (matches 1-1):\ndir with space/it's ünïcode.txt:1: héllo wörld",
      );
      expect((await call("Read", { path: ODD })).text).toBe("Read: dir with space/it's ünïcode.txt\nlines=1-1 / 1\nview=full\n\n     1\théllo wörld");
      expect((await call("Edit", { path: ODD, old_string: "wörld", new_string: "wélt" })).text).toBe(
        "Edit: dir with space/it's ünïcode.txt\nreplacements=1\nreplaceAll=false",
      );
      expect((await harness.read(ODD))?.toString()).toBe("héllo wélt\n");
      expect((await call("Write", { path: "new 'dir' ñ/\"quoted\" name.md", content: "ñ\n" })).text).toBe(
        "File created successfully at: new 'dir' ñ/\"quoted\" name.md",
      );
      expect((await harness.read("new 'dir' ñ/\"quoted\" name.md"))?.toString()).toBe("ñ\n");
      expect((await call("Delete", { path: "dir with space" })).text).toBe("Deleted directory: dir with space");
      expect(await harness.read(ODD)).toBeUndefined();
    },
  },
  {
    name: "Write: new files in missing folders at several depths; a file in the way is refused",
    files: { "src/a.ts": "a\n" },
    async run({ call, harness }) {
      expect((await call("Write", { path: "src/deep/er/b.ts", content: "b\n" })).text).toBe("File created successfully at: src/deep/er/b.ts");
      expect((await harness.read("src/deep/er/b.ts"))?.toString()).toBe("b\n");
      expect((await call("Write", { path: "fresh/c.ts", content: "c\n" })).text).toBe("File created successfully at: fresh/c.ts");
      const blocked = await call("Write", { path: "src/a.ts/x.ts", content: "x\n" });
      expect(blocked.isError).toBe(true);
      expect(blocked.text).toBe("Write failed: a parent of src/a.ts/x.ts is a file, not a directory. Check the path with List.");
      expect((await harness.read("src/a.ts"))?.toString()).toBe("a\n");
    },
  },
  {
    name: "Glob, Grep and List honour nested .gitignore files and a negation",
    files: {
      ".gitignore": "*.gen.ts\n!keep.gen.ts\n",
      "pkg/.gitignore": "out/\n",
      "pkg/out/x.ts": "needle\n",
      "pkg/src/y.ts": "needle\n",
      "a.gen.ts": "needle\n",
      "keep.gen.ts": "needle\n",
      "z.ts": "needle\n",
    },
    async run({ call }) {
      expect((await call("Glob", { pattern: "**/*.ts" })).text).toBe('Found 3 files matching "**/*.ts" in . (showing 1-3):\nkeep.gen.ts\npkg/src/y.ts\nz.ts');
      expect((await call("Grep", { pattern: "needle", output_mode: "files" })).text).toBe(
        "Found 3 matching lines in 3 files (files 1-3):\nkeep.gen.ts (1, firstLine=1)\npkg/src/y.ts (1, firstLine=1)\nz.ts (1, firstLine=1)",
      );
      expect((await call("List", { depth: 3 })).text).toBe(
        ".: 7 entries (depth 3), showing 1-7\n[FILE] .gitignore\n[FILE] keep.gen.ts\n[DIR] pkg\n[FILE] pkg/.gitignore\n[DIR] pkg/src\n[FILE] pkg/src/y.ts\n[FILE] z.ts",
      );
    },
  },
  {
    name: "A linked folder inside the root: List, Glob, Grep, Read and Write through it",
    files: { "real/dir/f.txt": "inside link\n" },
    async run({ call, harness }) {
      await harness.symlink("real/dir", "linked");
      expect((await call("List", { depth: 3 })).text).toBe(
        ".: 4 entries (depth 3), showing 1-4\n[LINK] linked\n[DIR] real\n[DIR] real/dir\n[FILE] real/dir/f.txt",
      );
      expect((await call("Glob", { pattern: "**/*.txt" })).text).toBe('Found 1 file matching "**/*.txt" in . (showing 1-1):\nreal/dir/f.txt');
      expect((await call("Grep", { pattern: "inside" })).text).toBe("Found 1 matching lines in 1 files (matches 1-1):\nreal/dir/f.txt:1: inside link");
      expect((await call("Read", { path: "linked/f.txt" })).text).toBe("Read: linked/f.txt\nlines=1-1 / 1\nview=full\n\n     1\tinside link");
      expect((await call("Write", { path: "linked/g.txt", content: "g\n" })).text).toBe("File created successfully at: linked/g.txt");
      expect((await harness.read("real/dir/g.txt"))?.toString()).toBe("g\n");
    },
  },
  {
    name: "List of a big folder (1,500 files): first page, a middle page, the end",
    files: BIG_FOLDER,
    async run({ call }) {
      const first = await call("List", { path: "big" });
      expect(first.text.split("\n").slice(0, 3).join("\n")).toBe("big: 1500 entries (depth 2), showing 1-200\n[FILE] big/f0000.txt\n[FILE] big/f0001.txt");
      expect(first.text.split("\n").slice(-2).join("\n")).toBe("[FILE] big/f0199.txt\n...more entries omitted; continue with offset=200...");
      expect(first.details).toMatchObject({ kind: "list", path: "big", depth: 2, offset: 0, returned: 200, totalEntries: 1500, hasMore: true });
      expect((await call("List", { path: "big", offset: 700, max_results: 3 })).text).toBe(
        "big: 1500 entries (depth 2), showing 701-703\n[FILE] big/f0700.txt\n[FILE] big/f0701.txt\n[FILE] big/f0702.txt\n...more entries omitted; continue with offset=703...",
      );
      expect((await call("List", { path: "big", offset: 1_498, max_results: 5 })).text).toBe(
        "big: 1500 entries (depth 2), showing 1499-1500\n[FILE] big/f1498.txt\n[FILE] big/f1499.txt",
      );
    },
  },
  {
    name: "Read of a 2 MB file: the first page, a page in the middle, the last lines",
    files: { "big.log": TWO_MB_TEXT },
    async run({ call }) {
      const first = await call("Read", { path: "big.log" });
      expect(first.text.split("\n").slice(0, 5).join("\n")).toBe(
        "Read: big.log\nlines=1-200 / ? (2.0 MB; more lines follow)\nview=partial\n\n     1\tline 000001 xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
      );
      // Over 1 MiB: the lines after the window are not counted (on every backend alike).
      expect(first.text.split("\n").slice(-1).join("\n")).toBe("[...truncated: more lines follow; continue with start_line=201...]");
      expect(first.details).toMatchObject({
        kind: "read_text",
        path: "big.log",
        startLine: 1,
        numLines: 200,
        totalLinesKnown: false,
        truncated: true,
        isPartialView: true,
      });
      expect((await call("Read", { path: "big.log", start_line: 20_000, limit: 3 })).text).toBe(
        "Read: big.log\nlines=20000-20002 / ? (2.0 MB; more lines follow)\nview=partial\n\n 20000\tline 020000 xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\n 20001\tline 020001 xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\n 20002\tline 020002 xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\n[...truncated: more lines follow; continue with start_line=20003...]",
      );
      expect((await call("Read", { path: "big.log", start_line: 32_767 })).text).toBe(
        "Read: big.log\nlines=32767-32768 / 32768\nview=partial\n\n 32767\tline 032767 xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\n 32768\tline 032768 xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
      );
    },
  },
  {
    name: "Image and Read of a 300 KB PNG; Image of a missing path and of a text file",
    files: { "img/noise.png": NOISY_PNG, "notes.txt": "not an image\n" },
    async run({ call }) {
      expect(NOISY_PNG.length).toBeGreaterThan(250_000);
      const image = await call("Image", { path: "img/noise.png" });
      expect(image.text).toBe(`Displayed 1 image:\n#1 img/noise.png: image/png, ${NOISY_PNG.length} bytes`);
      expect(image.content).toContainEqual({ type: "image", data: NOISY_PNG.toString("base64"), mimeType: "image/png" });
      const read = await call("Read", { path: "img/noise.png" });
      expect(read.text).toBe(`Read: img/noise.png\nimage=image/png, ${NOISY_PNG.length} bytes`);
      expect((await call("Image", { path: "img/none.png" })).text).toBe(
        "Image failed: img/none.png does not exist (workspace root: <root>). Did you mean: img/noise.png? Retry with one of these exact paths.",
      );
      expect((await call("Image", { path: "notes.txt" })).text).toBe("Image #1 (notes.txt) is not a recognised image; pass mimeType if you know it.");
    },
  },
];
