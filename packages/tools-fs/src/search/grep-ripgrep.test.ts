import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeSearchTree } from "../__fixtures__/search-tree.js";
import { renderGrep } from "./grep-format.js";
import type { GrepOutputMode } from "./grep-result.js";
import { type GrepQuery, grepWithRipgrep, parseRipgrepOutput } from "./grep-ripgrep.js";
import { type GrepPagedOptions, grepWithRipgrepPaged } from "./grep-ripgrep-paged.js";
import { locateRipgrep } from "./ripgrep.js";

const rgPath = locateRipgrep();
let root: string;

beforeAll(() => {
  root = realpathSync(mkdtempSync(path.join(os.tmpdir(), "tools-fs-rg-paged-")));
  writeSearchTree(root);
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe.skipIf(!rgPath)("grepWithRipgrepPaged", () => {
  const cases: Array<[string, Partial<GrepQuery>, GrepOutputMode, number, number]> = [
    ["TODO", {}, "content", 0, 200],
    ["TODO", {}, "content", 3, 4],
    ["TODO", { context: 1 }, "content", 1, 3],
    ["todo", { ignoreCase: false }, "content", 0, 200],
    ["e", {}, "count", 0, 200],
    ["\\w+\\(", {}, "files", 1, 2],
    ["return", {}, "files", 0, 200],
    ["nothing-matches-this", {}, "content", 0, 200],
  ];

  it.each(cases)("%s %j %s offset=%d limit=%d: two passes render what one full pass renders", async (pattern, extra, outputMode, offset, headLimit) => {
    const query: GrepQuery = { pattern, ignoreCase: true, multiline: false, context: 0, ...extra };
    const options = { outputMode, offset, headLimit, context: query.context, displayDirectory: ".", pattern };
    const onePass = renderGrep(await grepWithRipgrep(rgPath!, root, query), options).text;
    const twoPasses = renderGrep(await grepWithRipgrepPaged(rgPath!, root, query, () => true, { outputMode, offset, headLimit }), options).text;
    expect(twoPasses).toBe(onePass);
  });

  // Tiny limits force every page strategy: one file per ripgrep run, a single pass that completes, one that is stopped.
  const strategies: Array<[string, GrepPagedOptions]> = [
    ["one file per page run", { fileArgumentBytes: 1 }],
    ["a completed single pass", { singlePassMinLines: 1 }],
    ["a stopped single pass", { singlePassMinLines: 1, singlePassBytesPerLine: 1 }],
  ];
  it.each(strategies.flatMap(([name, tuning]) => cases.map((testCase) => [name, tuning, ...testCase] as const)))(
    "%s: %s %j %s offset=%d limit=%d renders what one full pass renders",
    async (_name, tuning, pattern, extra, outputMode, offset, headLimit) => {
      const query: GrepQuery = { pattern, ignoreCase: true, multiline: false, context: 0, ...extra };
      const options = { outputMode, offset, headLimit, context: query.context, displayDirectory: ".", pattern };
      const onePass = renderGrep(await grepWithRipgrep(rgPath!, root, query), options).text;
      const paged = renderGrep(await grepWithRipgrepPaged(rgPath!, root, query, () => true, { outputMode, offset, headLimit }, tuning), options).text;
      expect(paged).toBe(onePass);
    },
  );
});

describe("parseRipgrepOutput", () => {
  it("splits files at LF and CRLF empty lines (ripgrep --crlf on one thread)", () => {
    const output = Buffer.from("./a.ts\u00002:one\r\n5:two\n\r\n./b.ts\u00001:three\n\n./c.ts\u00007:four\n");
    const files = parseRipgrepOutput(output);
    expect(files.map((file) => [file.path, file.matchCount, file.firstMatchLine])).toEqual([
      ["a.ts", 2, 2],
      ["b.ts", 1, 1],
      ["c.ts", 1, 7],
    ]);
    expect(files[0]!.lineText(5)).toBe("two");
    expect(files[0]!.lineText(2)).toBe("one");
  });
});
