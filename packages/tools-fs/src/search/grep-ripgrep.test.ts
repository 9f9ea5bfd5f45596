import { mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeSearchTree } from "../__fixtures__/search-tree.js";
import { grepWithTypeScript } from "./grep-engine.js";
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
    ["e", {}, "files", 2, 3],
    ["x*", {}, "files", 0, 200],
    ["\\b", {}, "files", 0, 200],
    ["^", {}, "files", 1, 200],
    ["nothing-matches-this", {}, "content", 0, 200],
  ];

  it.each(cases)("%s %j %s offset=%d limit=%d: two passes render what one full pass renders", async (pattern, extra, outputMode, offset, headLimit) => {
    const query: GrepQuery = { pattern, ignoreCase: true, multiline: false, context: 0, ...extra };
    const options = { outputMode, offset, headLimit, context: query.context, displayDirectory: ".", pattern };
    const onePass = renderGrep(await grepWithRipgrep(rgPath!, root, query), options).text;
    const twoPasses = renderGrep(
      await grepWithRipgrepPaged({ rgPath: rgPath!, directory: root, query, filter: () => true }, { outputMode, offset, headLimit }),
      options,
    ).text;
    expect(twoPasses).toBe(onePass);
  });

  // Tiny limits force every page strategy: one file per ripgrep run, a single pass that completes, one that is stopped,
  // a small page's run that keeps every file's lines (the defaults), none or only some (then the others are searched again).
  const strategies: Array<[string, GrepPagedOptions]> = [
    ["one file per page run", { fileArgumentBytes: 1 }],
    ["a completed single pass", { singlePassMinLines: 1 }],
    ["a stopped single pass", { singlePassMinLines: 1, singlePassBytesPerLine: 1 }],
    ["a stopped line-number pass (files)", { lineNumbersMaxBytes: 1 }],
    ["a small page's run that keeps no lines", { retainBytes: 0 }],
    ["a small page's run that keeps the first files' lines", { retainBytes: 300 }],
    ["a small page's run stopped for the two passes", { runOnMaxBytes: 1 }],
  ];
  it.each(strategies.flatMap(([name, tuning]) => cases.map((testCase) => [name, tuning, ...testCase] as const)))(
    "%s: %s %j %s offset=%d limit=%d renders what one full pass renders",
    async (_name, tuning, pattern, extra, outputMode, offset, headLimit) => {
      const query: GrepQuery = { pattern, ignoreCase: true, multiline: false, context: 0, ...extra };
      const options = { outputMode, offset, headLimit, context: query.context, displayDirectory: ".", pattern };
      const onePass = renderGrep(await grepWithRipgrep(rgPath!, root, query), options).text;
      const paged = renderGrep(
        await grepWithRipgrepPaged({ rgPath: rgPath!, directory: root, query, filter: () => true }, { outputMode, offset, headLimit }, tuning),
        options,
      ).text;
      expect(paged).toBe(onePass);
    },
  );
});

describe.skipIf(!rgPath)("long lines (ripgrep prints a preview of lines past RIPGREP_MAX_COLUMNS)", () => {
  let longRoot: string;
  beforeAll(() => {
    longRoot = realpathSync(mkdtempSync(path.join(os.tmpdir(), "tools-fs-rg-long-")));
    const lines = [
      `return ${"a".repeat(5_000)}`,
      `return ${"a".repeat(2_041)}`,
      `return ${"a".repeat(2_040)}`,
      `return ${"é".repeat(3_000)}`,
      `return ${"😀".repeat(1_500)}`,
      `return ${"e\u0301".repeat(1_500)}`,
      `x${"é".repeat(398)}😀 return`,
      "short return",
    ];
    writeFileSync(path.join(longRoot, "long.txt"), `${lines.join("\n")}\n`);
    writeFileSync(path.join(longRoot, "crlf.txt"), `${lines.join("\r\n")}\r\n`);
    writeFileSync(
      path.join(longRoot, "invalid.txt"),
      Buffer.concat([
        Buffer.from("return "),
        Buffer.from(Array.from({ length: 4_000 }, (_, index) => [0xff, 0xc3, 0xa9, 0x41, 0xe2, 0x82][index % 6]!)),
        Buffer.from("\n"),
      ]),
    );
  });
  afterAll(() => rmSync(longRoot, { recursive: true, force: true }));

  it.each([0, 1])("renders them as the TypeScript engine does (context %d)", async (context) => {
    const query: GrepQuery = { pattern: "return", ignoreCase: true, multiline: false, context };
    const options = { outputMode: "content" as const, offset: 0, headLimit: 5_000, context, displayDirectory: ".", pattern: "return" };
    const typescript = renderGrep(await grepWithTypeScript(longRoot, query, () => true), options).text;
    expect(renderGrep(await grepWithRipgrep(rgPath!, longRoot, query), options).text).toBe(typescript);
    expect(renderGrep(await grepWithRipgrepPaged({ rgPath: rgPath!, directory: longRoot, query, filter: () => true }, options), options).text).toBe(typescript);
    expect(typescript).toContain(`long.txt:1: return ${"a".repeat(393)}...`);
  });
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
