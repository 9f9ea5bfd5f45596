import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { SdkError, type ToolResult } from "@agent-tools/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildBuiltinToolRegistry } from "./build-builtin-tool-registry.js";

// Grep and Glob report progress through onUpdate once a run passes fs.progressIntervalMs
// (default one second); the tests use a 1 ms interval on a real tree of a few thousand files.

const DIRECTORIES = 300;
const FILES_PER_DIRECTORY = 12;
const MATCHING_LINES_PER_FILE = 10;

const temporary = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "agent-tools-sdk-search-progress-")));
const workdir = path.join(temporary, "tree");
afterAll(() => fs.rmSync(temporary, { recursive: true, force: true }));

beforeAll(() => {
  const lines: string[] = [];
  for (let line = 0; line < 2 * MATCHING_LINES_PER_FILE; line += 1) lines.push(line % 2 === 0 ? `const needle${line} = ${line};` : `// filler ${line}`);
  const text = `${lines.join("\n")}\n`;
  for (let directory = 0; directory < DIRECTORIES; directory += 1) {
    const folder = path.join(workdir, `pkg${directory}`, "src");
    fs.mkdirSync(folder, { recursive: true });
    for (let file = 0; file < FILES_PER_DIRECTORY; file += 1) fs.writeFileSync(path.join(folder, `file${file}.${file % 2 ? "ts" : "md"}`), text);
  }
});

interface Progress {
  kind: string;
  message: string;
  [count: string]: unknown;
}

async function run(
  fsOptions: Record<string, unknown>,
  name: string,
  args: Record<string, unknown>,
  withUpdates: boolean,
): Promise<{ result: ToolResult; updates: Progress[] }> {
  const registry = await buildBuiltinToolRegistry({ workdir, dataDir: path.join(temporary, "data"), fs: fsOptions });
  const updates: Progress[] = [];
  try {
    const call = { id: `call-${name}`, name, arguments: args };
    const result = await registry.executeToolCall(call, withUpdates ? { onUpdate: (event) => void updates.push(event.update.data as Progress) } : undefined);
    return { result, updates };
  } finally {
    await registry.close();
  }
}

function textOf(result: ToolResult): string {
  return result.content.map((block) => (block.type === "text" ? block.text : "")).join("");
}

/** Every count field of the updates never goes down from one update to the next. */
function expectNonDecreasing(updates: Progress[], fields: string[]): void {
  for (let index = 1; index < updates.length; index += 1) {
    for (const field of fields) expect(updates[index]![field] as number).toBeGreaterThanOrEqual(updates[index - 1]![field] as number);
  }
}

const TOTAL_FILES = DIRECTORIES * FILES_PER_DIRECTORY;

describe("Grep and Glob progress through onUpdate", () => {
  it.each([
    ["ripgrep", {}],
    ["typescript", { ripgrepPath: false }],
  ] as const)("Grep (%s engine) reports growing counts that stay within the final ones, and answers the same", async (engine, engineOptions) => {
    const args = { pattern: "needle\\d+", file_pattern: "*.ts" };
    const quick = { ...engineOptions, progressIntervalMs: 1 };
    const { result, updates } = await run(quick, "Grep", args, true);
    expect(result.isError).toBe(false);
    const details = result.details as { matchCount: number; fileCount: number; engine: string };
    expect(details.engine).toBe(engine);
    expect(details.fileCount).toBe(TOTAL_FILES / 2);
    expect(details.matchCount).toBe((TOTAL_FILES / 2) * MATCHING_LINES_PER_FILE);

    expect(updates.length).toBeGreaterThan(0);
    for (const update of updates) {
      expect(update.kind).toBe("grep_progress");
      expect(update.message).toMatch(/^Grep: searching/);
      expect(update.matchCount as number).toBeLessThanOrEqual(details.matchCount);
      expect(update.fileCount as number).toBeLessThanOrEqual(details.fileCount);
    }
    expectNonDecreasing(updates, ["matchCount", "fileCount"]);
    expect(Math.max(...updates.map((update) => update.matchCount as number))).toBeGreaterThan(0);
    if (engine === "typescript") {
      expectNonDecreasing(updates, ["filesScanned"]);
      expect(Math.max(...updates.map((update) => update.filesScanned as number))).toBeLessThanOrEqual(TOTAL_FILES / 2);
    }

    const plain = await run(engineOptions, "Grep", args, false);
    expect(textOf(plain.result)).toBe(textOf(result));
    expect(plain.result.details).toEqual(result.details);
  });

  it("Grep in files and count modes reports progress too (ripgrep's counting runs)", async () => {
    for (const outputMode of ["files", "count"]) {
      const args = { pattern: "needle", output_mode: outputMode };
      const { result, updates } = await run({ progressIntervalMs: 1 }, "Grep", args, true);
      const details = result.details as { matchCount: number; fileCount: number };
      expect(details.matchCount).toBe(TOTAL_FILES * MATCHING_LINES_PER_FILE);
      expect(updates.length).toBeGreaterThan(0);
      for (const update of updates) {
        expect(update.matchCount as number).toBeLessThanOrEqual(details.matchCount);
        expect(update.fileCount as number).toBeLessThanOrEqual(details.fileCount);
      }
      expectNonDecreasing(updates, ["matchCount", "fileCount"]);
      const plain = await run({}, "Grep", args, false);
      expect(textOf(plain.result)).toBe(textOf(result));
    }
  });

  it("Glob reports files and directories walked and matches so far, and answers the same", async () => {
    const args = { pattern: "**/*.ts", max_results: 50 };
    const { result, updates } = await run({ progressIntervalMs: 1 }, "Glob", args, true);
    const details = result.details as { totalMatches: number };
    expect(details.totalMatches).toBe(TOTAL_FILES / 2);
    expect(updates.length).toBeGreaterThan(0);
    for (const update of updates) {
      expect(update.kind).toBe("glob_progress");
      expect(update.message).toMatch(/^Glob: walking/);
      expect(update.totalMatches as number).toBeLessThanOrEqual(details.totalMatches);
      expect(update.filesWalked as number).toBeLessThanOrEqual(TOTAL_FILES);
      expect(update.directoriesWalked as number).toBeLessThanOrEqual(1 + 2 * DIRECTORIES);
    }
    expectNonDecreasing(updates, ["totalMatches", "filesWalked", "directoriesWalked"]);
    expect(Math.max(...updates.map((update) => update.filesWalked as number))).toBeGreaterThan(0);
    const plain = await run({}, "Glob", args, false);
    expect(textOf(plain.result)).toBe(textOf(result));
    expect(plain.result.details).toEqual(result.details);
  });

  it("sends nothing for a run that ends before the interval", async () => {
    for (const [name, args] of [
      ["Grep", { pattern: "needle", file_pattern: "*.md" }],
      ["Glob", { pattern: "**/*.md" }],
    ] as const) {
      const { result, updates } = await run({ progressIntervalMs: 600_000 }, name, args, true);
      expect(result.isError).toBe(false);
      expect(updates).toEqual([]);
    }
  });

  it("refuses a progress interval that is not a positive number of milliseconds", async () => {
    for (const value of [0, -5, Number.NaN, "1000", null]) {
      const attempt = buildBuiltinToolRegistry({ workdir, dataDir: path.join(temporary, "data"), fs: { progressIntervalMs: value as never } });
      await expect(attempt).rejects.toThrow(SdkError);
      await expect(attempt).rejects.toThrow(/fs\.progressIntervalMs/);
    }
  });
});
