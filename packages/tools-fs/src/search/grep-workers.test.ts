import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { grepWithTypeScript } from "./grep-engine.js";
import { renderGrep } from "./grep-format.js";
import { liveGrepWorkerCount } from "./grep-workers.js";
import type { GrepFileHits } from "./grep-result.js";
import type { GrepQuery } from "./grep-ripgrep.js";

let root: string;
const FILE_COUNT = 3000;

/** A generated tree: plain, CRLF, BOM, binary, empty, ignored and multi-line files. */
function writeTree(base: string): void {
  writeFileSync(path.join(base, ".gitignore"), "ignored/\n*.tmp\n");
  mkdirSync(path.join(base, "ignored"));
  writeFileSync(path.join(base, "ignored", "hidden.ts"), "return value\n");
  for (let index = 0; index < FILE_COUNT; index += 1) {
    const directory = path.join(base, `pkg-${index % 17}`, `dir-${index % 5}`);
    mkdirSync(directory, { recursive: true });
    const kind = index % 9;
    const lines: string[] = [];
    for (let line = 0; line < 5 + (index % 23); line += 1) {
      if ((index + line) % 4 === 0) lines.push(`  return helper${line}(value); // Return ${index}`);
      else if ((index + line) % 7 === 0) lines.push(`function make${index}_${line}(input) {`);
      else lines.push(`const item${line} = "${"x".repeat(line % 5)}"; ✓`);
    }
    let text = `${lines.join("\n")}\n`;
    if (kind === 1) text = text.replace(/\n/g, "\r\n");
    if (kind === 2) text = `\ufeff${text}`;
    if (kind === 3) text = `${text}\u0000binary`;
    if (kind === 4) text = "";
    if (kind === 5) text = text.slice(0, -1); // no final newline
    writeFileSync(path.join(directory, `file-${index}.${kind === 6 ? "tmp" : "ts"}`), text);
  }
}

beforeAll(() => {
  root = realpathSync(mkdtempSync(path.join(os.tmpdir(), "tools-fs-grep-workers-")));
  writeTree(root);
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Everything a hit list shows: paths, counts, match lines and the text around them. */
function snapshot(hits: GrepFileHits[]) {
  return [...hits]
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
    .map((hit) => ({
      path: hit.path,
      matchCount: hit.matchCount,
      firstMatchLine: hit.firstMatchLine,
      lines: [...hit.matchLines()],
      texts: hit.matchLines().flatMap((line) => [line - 1, line, line + 1].map((number) => hit.lineText(number) ?? null)),
    }));
}

const queries: Array<Partial<GrepQuery> & { pattern: string }> = [
  { pattern: "return", ignoreCase: true },
  { pattern: "Return", ignoreCase: false },
  { pattern: "function\\s+\\w+\\(" },
  { pattern: "✓$" },
  { pattern: "\\{\\n\\s+return", multiline: true },
  { pattern: "no such text anywhere" },
];

describe("Grep on worker threads", () => {
  it.each(queries)("gives the in-process results for $pattern", async (partial) => {
    const query: GrepQuery = { ignoreCase: false, multiline: false, context: 1, ...partial };
    const all = () => true;
    const inProcess = await grepWithTypeScript(root, query, all, { workerThreshold: Number.POSITIVE_INFINITY });
    const onWorkers = await grepWithTypeScript(root, query, all, { workerThreshold: 0 });
    if (partial.pattern !== "no such text anywhere") expect(inProcess.length).toBeGreaterThan(100);
    expect(snapshot(onWorkers)).toEqual(snapshot(inProcess));
    const format = { outputMode: "content" as const, offset: 0, headLimit: 0, context: 1, displayDirectory: ".", pattern: query.pattern };
    expect(renderGrep(onWorkers, format)).toEqual(renderGrep(inProcess, format));
    expect(liveGrepWorkerCount()).toBe(0);
  });

  it("applies the file filter and searches given file lists", async () => {
    const query: GrepQuery = { pattern: "return", ignoreCase: true, multiline: false, context: 0 };
    const filter = (relative: string) => relative.startsWith("pkg-3/");
    const inProcess = await grepWithTypeScript(root, query, filter, { workerThreshold: Number.POSITIVE_INFINITY });
    const onWorkers = await grepWithTypeScript(root, query, filter, { workerThreshold: 0 });
    expect(onWorkers.every((hit) => hit.path.startsWith("pkg-3/"))).toBe(true);
    expect(snapshot(onWorkers)).toEqual(snapshot(inProcess));
    const listed = await grepWithTypeScript(root, query, () => true, {
      files: ["pkg-1/dir-0/file-35.ts", "missing.ts", "ignored/hidden.ts"],
      workerThreshold: 0,
    });
    expect(listed.map((hit) => hit.path).sort()).toEqual(["ignored/hidden.ts", "pkg-1/dir-0/file-35.ts"]);
  });

  it("stops on abort with the abort reason", async () => {
    const controller = new AbortController();
    const query: GrepQuery = { pattern: "return", ignoreCase: true, multiline: false, context: 0, signal: controller.signal };
    const files = Array.from({ length: 40 }, () =>
      Array.from({ length: FILE_COUNT }, (_, index) => `pkg-${index % 17}/dir-${index % 5}/file-${index}.ts`),
    ).flat();
    const search = grepWithTypeScript(root, query, () => true, { files, workerThreshold: 0 });
    setTimeout(() => controller.abort(new Error("stop now")), 20);
    await expect(search).rejects.toThrow("stop now");
    expect(liveGrepWorkerCount()).toBe(0);
    controller.abort();
    const walking = new AbortController();
    walking.abort(new Error("before the walk"));
    await expect(grepWithTypeScript(root, { ...query, signal: walking.signal }, () => true, { workerThreshold: 0 })).rejects.toThrow("before the walk");
    expect(liveGrepWorkerCount()).toBe(0);
  });
});
