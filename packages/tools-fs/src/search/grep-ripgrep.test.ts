import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeSearchTree } from "../__fixtures__/search-tree.js";
import { renderGrep } from "./grep-format.js";
import type { GrepOutputMode } from "./grep-result.js";
import { type GrepQuery, grepWithRipgrepPaged } from "./grep-ripgrep.js";
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

  it.each(cases)("%s %j %s offset=%d limit=%d: one pass, a stopped pass and two passes render the same", async (pattern, extra, outputMode, offset, headLimit) => {
    const query: GrepQuery = { pattern, ignoreCase: true, multiline: false, context: 0, ...extra };
    const page = { outputMode, offset, headLimit };
    const render = async (limit: number) =>
      renderGrep(await grepWithRipgrepPaged(rgPath!, root, query, () => true, page, limit), { outputMode, offset, headLimit, context: query.context, displayDirectory: ".", pattern }).text;
    const onePass = await render(1024 * 1024); // the fixture's output is far below this
    expect(await render(1)).toBe(onePass); // stopped after the first bytes, then counted
    expect(await render(0)).toBe(onePass); // straight to two passes
  });
});
