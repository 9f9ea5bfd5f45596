/**
 * One ripgrep run for every content page, capped or not: the run keeps the
 * lines of the files the page can reach (in path order) and only counts the
 * others, so no page needs a count pass and a second run over its files.
 * Runs are counted through the query's ProgramRunner.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { ProgramRunner } from "@agent-tools/core";
import { NodeProgramRunner } from "@agent-tools/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CountedFileHits } from "./grep-counted-hits.js";
import { renderGrep } from "./grep-format.js";
import type { GrepFileHits } from "./grep-result.js";
import { type GrepQuery, grepWithRipgrep } from "./grep-ripgrep.js";
import { grepWithRipgrepPaged } from "./grep-ripgrep-paged.js";
import { pageRetention } from "./grep-ripgrep-retention.js";
import { firstLinesInProcess, plainLiteral } from "./grep-ripgrep-first-lines.js";
import { locateRipgrep } from "./ripgrep.js";

const rgPath = locateRipgrep();
let root: string;

/** A runner that counts the ripgrep runs it starts. */
function countingRunner(): { runner: ProgramRunner; runs: () => number } {
  const inner = new NodeProgramRunner();
  let runs = 0;
  return {
    runner: {
      run(options) {
        runs += 1;
        return inner.run(options);
      },
    },
    runs: () => runs,
  };
}

beforeAll(() => {
  root = realpathSync(mkdtempSync(path.join(os.tmpdir(), "tools-fs-rg-retention-")));
  // 40 files of 30 matching lines each (1,200 lines), some long, in folders ripgrep's threads finish in any order.
  for (let file = 0; file < 40; file += 1) {
    const folder = path.join(root, `dir-${file % 4}`);
    mkdirSync(folder, { recursive: true });
    const lines = Array.from({ length: 60 }, (_, line) => (line % 2 === 0 ? `hit ${file}-${line} ${"y".repeat((line * 31) % 500)}` : `other ${line}`));
    writeFileSync(path.join(folder, `file-${String(file).padStart(2, "0")}.txt`), `${lines.join("\n")}\n`);
  }
  // Case folding: the Kelvin sign folds to k (line 2), for ripgrep as for a case-insensitive JavaScript regex.
  writeFileSync(path.join(root, "kelvin.txt"), "abc\n\u212A marks kelvin\nk\n");
  // The long s folds to s (line 2 holds "ſome"): the bytes finder must leave such a file to the folding search.
  writeFileSync(path.join(root, "long-s.txt"), "abc\n\u017Fome\nSOME\n");
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe.skipIf(!rgPath)("a content page in one ripgrep run", () => {
  const pages: Array<[string, { offset: number; headLimit: number; maxChars?: number; context?: number }]> = [
    ["all lines requested under a small output cap", { offset: 0, headLimit: 1_000_000_000, maxChars: 3_000 }],
    ["all lines requested under the cap, from an offset", { offset: 437, headLimit: 1_000_000_000, maxChars: 3_000 }],
    ["all lines requested under the cap, with context", { offset: 5, headLimit: 1_000_000_000, maxChars: 3_000, context: 2 }],
    ["the default page", { offset: 0, headLimit: 200, maxChars: 240_000 }],
    ["a page of 5,000 lines under the default cap", { offset: 0, headLimit: 5_000, maxChars: 240_000 }],
    ["a page near the end", { offset: 1_150, headLimit: 200 }],
  ];
  it.each(pages)("%s: one run, the text of the full pass", async (_name, page) => {
    const context = page.context ?? 0;
    const { runner, runs } = countingRunner();
    const query: GrepQuery = { pattern: "hit", ignoreCase: true, multiline: false, context, runner };
    const options = { outputMode: "content" as const, offset: page.offset, headLimit: page.headLimit, context, displayDirectory: ".", pattern: "hit" };
    const hits = await grepWithRipgrepPaged({ rgPath: rgPath!, directory: root, query, filter: () => true }, { outputMode: "content", ...page });
    expect(runs()).toBe(1);
    const full = await grepWithRipgrep(rgPath!, root, { ...query, runner: undefined });
    expect(renderGrep(hits, { ...options, maxChars: page.maxChars }).text).toBe(renderGrep(full, { ...options, maxChars: page.maxChars }).text);
  });

  it("keeps little more than the lines of the files the capped page reaches (pruned while ripgrep prints)", async () => {
    const { runner, runs } = countingRunner();
    const query: GrepQuery = { pattern: "hit", ignoreCase: true, multiline: false, context: 0, runner };
    // 20,000 bytes of records kept at most: more than the page reaches (one file of about 7.5 KB), far less than the run prints (300 KB).
    const hits = await grepWithRipgrepPaged(
      { rgPath: rgPath!, directory: root, query, filter: () => true },
      { outputMode: "content", offset: 0, headLimit: 1_000_000_000, maxChars: 600 },
      { retainBytes: 20_000 },
    );
    expect(runs()).toBe(1);
    const kept = hits.filter((file) => !(file instanceof CountedFileHits)).map((file) => file.path);
    expect(kept).toContain("dir-0/file-00.txt");
    expect(kept.length).toBeLessThanOrEqual(3);
    expect(hits.reduce((sum, file) => sum + file.matchCount, 0)).toBe(1_200);
  });
});

describe("pageRetention", () => {
  const file = (name: string, count: number): GrepFileHits => ({
    path: name,
    matchCount: count,
    firstMatchLine: 1,
    matchLines: () => Array.from({ length: count }, (_, index) => index + 1),
    lineText: () => "x",
  });

  it("lets go of files past the page's last line in path order, whatever order they arrive in", () => {
    const retention = pageRetention({ offset: 0, headLimit: 5, retainBytes: 10 });
    const files: GrepFileHits[] = [];
    for (const name of ["d", "b", "e", "a", "c"]) retention.add(files, file(name, 3), 4);
    // a (3 lines) and b (lines 4-5) hold the page; c, d, e are only counted.
    expect(files.filter((hits) => !(hits instanceof CountedFileHits)).map((hits) => hits.path)).toEqual(["b", "a"]);
    expect(files.map((hits) => hits.matchCount)).toEqual([3, 3, 3, 3, 3]);
    expect(retention.complete).toBe(true);
  });

  it("is incomplete when the files the page reaches need more than retainBytes", () => {
    const retention = pageRetention({ offset: 0, headLimit: 100, retainBytes: 10 });
    const files: GrepFileHits[] = [];
    for (const name of ["a", "b", "c"]) retention.add(files, file(name, 3), 6);
    expect(retention.complete).toBe(false);
    expect(files.filter((hits) => !(hits instanceof CountedFileHits)).map((hits) => hits.path)).toEqual(["a"]);
  });

  it("lets go of files past what the output cap allows", () => {
    // Each line takes at least 1 + 5 characters: 20 characters reach 4 lines.
    const retention = pageRetention({ offset: 0, headLimit: 1_000, maxChars: 20, retainBytes: 2 });
    const files: GrepFileHits[] = [];
    for (const name of ["c", "a", "b"]) retention.add(files, file(name, 2), 1);
    expect(retention.complete).toBe(true);
    expect(files.filter((hits) => !(hits instanceof CountedFileHits)).map((hits) => hits.path)).toEqual(["a", "b"]);
  });
});

describe.skipIf(!rgPath)("a files page of a plain literal", () => {
  it.each([
    ["k", true],
    ["K", false],
    ["sOmE", true],
    ["SOME", false],
    ["hit 3-", true],
    ["other 5", false],
  ] as const)("%s (ignore case %s) shows the first lines and counts of the full pass", async (pattern, ignoreCase) => {
    expect(plainLiteral(pattern)).toBe(pattern);
    const query: GrepQuery = { pattern, ignoreCase, multiline: false, context: 0 };
    const options = { outputMode: "files" as const, offset: 0, headLimit: 200, context: 0, displayDirectory: ".", pattern };
    const hits = await grepWithRipgrepPaged({ rgPath: rgPath!, directory: root, query, filter: () => true }, options);
    expect(renderGrep(hits, options).text).toBe(renderGrep(await grepWithRipgrep(rgPath!, root, query), options).text);
  });

  it.skipIf(process.platform === "win32")(
    "refuses a FIFO or a symlink swapped in since ripgrep's run (not left to ripgrep, which would follow or wait), without waiting",
    async () => {
      const swapped = realpathSync(mkdtempSync(path.join(os.tmpdir(), "tools-fs-rg-swapped-")));
      try {
        execFileSync("mkfifo", [path.join(swapped, "fifo.txt")]);
        writeFileSync(path.join(swapped, "outside.txt"), "k\n");
        symlinkSync(path.join(swapped, "outside.txt"), path.join(swapped, "link.txt"));
        writeFileSync(path.join(swapped, "plain.txt"), "a\nk\n");
        const query: GrepQuery = { pattern: "k", ignoreCase: true, multiline: false, context: 0 };
        const files = ["fifo.txt", "link.txt", "plain.txt"].map((name) => ({ path: name, count: 1 }));
        const found = await firstLinesInProcess(swapped, query, files);
        expect([...found.lines]).toEqual([["plain.txt", 2]]);
        expect([...found.refused].sort()).toEqual(["fifo.txt", "link.txt"]);
      } finally {
        rmSync(swapped, { recursive: true, force: true });
      }
    },
  );

  it("finds first matches past the first 64 KiB read of a file (across the boundary, further on) as ripgrep does", async () => {
    const far = realpathSync(mkdtempSync(path.join(os.tmpdir(), "tools-fs-rg-far-")));
    try {
      writeFileSync(path.join(far, "across.txt"), `${"z".repeat(65_532)}\nother 5 K\n`);
      writeFileSync(path.join(far, "further.txt"), `${`${"z".repeat(99)}\n`.repeat(1_500)}Hit 3-SOME k\n`);
      writeFileSync(path.join(far, "near.txt"), `a\nother 5 hit 3-some k\n${"z".repeat(200_000)}\n`);
      for (const [pattern, ignoreCase] of [
        ["other 5", false],
        ["k", true],
        ["hit 3-some", true],
        ["SOME", false],
      ] as const) {
        const query: GrepQuery = { pattern, ignoreCase, multiline: false, context: 0 };
        const options = { outputMode: "files" as const, offset: 0, headLimit: 200, context: 0, displayDirectory: ".", pattern };
        const { runner, runs } = countingRunner();
        const paged = renderGrep(
          await grepWithRipgrepPaged({ rgPath: rgPath!, directory: far, query: { ...query, runner }, filter: () => true }, options),
          options,
        ).text;
        expect(paged).toBe(renderGrep(await grepWithRipgrep(rgPath!, far, query), options).text);
        expect(runs()).toBe(1); // every first line found in process
      }
    } finally {
      rmSync(far, { recursive: true, force: true });
    }
  });

  it("gives the event loop a turn while it reads large page files (every 16 MiB)", async () => {
    const large = realpathSync(mkdtempSync(path.join(os.tmpdir(), "tools-fs-rg-large-")));
    try {
      const files = ["a", "b", "c", "d"].map((name) => {
        writeFileSync(path.join(large, `${name}.txt`), `${`${"z".repeat(1023)}\n`.repeat(6 * 1024)}k\n`);
        return { path: `${name}.txt`, count: 1 };
      });
      let turned = false;
      setImmediate(() => {
        turned = true;
      });
      const found = await firstLinesInProcess(large, { pattern: "k", ignoreCase: false, multiline: false, context: 0 }, files);
      expect(turned).toBe(true);
      expect([...found.lines.values()]).toEqual([6145, 6145, 6145, 6145]);
    } finally {
      rmSync(large, { recursive: true, force: true });
    }
  });

  it("reads only plain literals as literals", () => {
    expect(plainLiteral("fetchUser\\(id")).toBe("fetchUser(id");
    expect(plainLiteral("a b#c")).toBe("a b#c");
    for (const pattern of ["a.b", "\\w", "^a", "a$", "a|b", "(?i)a", "\\<a", "a\\b", "[a]", "a+", "\\x41"]) expect(plainLiteral(pattern)).toBeUndefined();
  });
});
