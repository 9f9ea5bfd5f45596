import { execFile, execFileSync } from "node:child_process";
import { mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestWorkspace, type TestWorkspace } from "../__fixtures__/workspace.js";
import { cannotBacktrack } from "./grep-regex-budget.js";
import { liveGrepWorkerCount } from "./grep-workers.js";
import { locateRipgrep } from "./ripgrep.js";

const rgPath = locateRipgrep();
const engines = [
  { name: "ripgrep", ripgrepPath: rgPath ?? undefined },
  { name: "typescript", ripgrepPath: false as const },
].filter((engine) => engine.name === "typescript" || rgPath !== null);

// On a run of 40 "a" and a "!", `(a+)+$` backtracks about 2^40 times and `(.*a){20}$` about C(40, 20): hours of work.
const EVIL_LINE = `${"a".repeat(40)}!`;
const EVIL_PATTERNS = ["(a+)+$", "(a|aa)+$", "(.*a){20}$"];

/** A workspace whose files hold lines that make backtracking regexes explode. */
function evilWorkspace(options: { ripgrepPath?: string | false; regexTimeBudgetMs?: number } = {}): TestWorkspace {
  return createTestWorkspace(
    {
      "src/plain.ts": "export const answer = 42;\n",
      "src/evil.txt": `first line\n${EVIL_LINE}\n${EVIL_LINE}\n`,
    },
    { ripgrepPath: false, ...options },
  );
}

/** Calls Grep, aborts after `abortAfterMs`, and measures how long the call took after the abort. */
async function abortedGrep(ws: TestWorkspace, args: Record<string, unknown>, abortAfterMs: number) {
  const controller = new AbortController();
  let abortedAt = 0;
  let ticks = 0;
  // The event loop must stay free while the regex runs.
  const ticker = setInterval(() => (ticks += 1), 10);
  const timer = setTimeout(() => {
    abortedAt = performance.now();
    controller.abort();
  }, abortAfterMs);
  try {
    const result = await ws.call("Grep", args, { signal: controller.signal });
    return { result, latencyMs: performance.now() - abortedAt, ticks, abortedAt };
  } finally {
    clearInterval(ticker);
    clearTimeout(timer);
  }
}

/** Waits until no Grep worker thread of this process is alive (they exit asynchronously). */
async function workersGone(): Promise<number> {
  for (let attempt = 0; attempt < 100 && liveGrepWorkerCount() > 0; attempt += 1) await new Promise((resolve) => setTimeout(resolve, 20));
  return liveGrepWorkerCount();
}

describe("cannotBacktrack", () => {
  it.each(["return", "fetchUser\\(id\\)", "a.b", "[a-z]x\\d", "(?i)foo(?:bar)", "^import "])("accepts %s", (pattern) => {
    expect(cannotBacktrack(pattern)).toBe(true);
  });
  it.each(["a+", "(a+)+$", "(a|aa)", "x{2}", "colou?r", ".*", "(?x)a b", "[[a]]", "\\p{L"])("refuses %s", (pattern) => {
    expect(cannotBacktrack(pattern)).toBe(false);
  });
});

describe("Grep with a catastrophic regex (pure TypeScript engine)", () => {
  it.each(EVIL_PATTERNS)("ends within moments of an abort while matching %s, the event loop free", async (pattern) => {
    const ws = evilWorkspace();
    try {
      // Warm up (module loading, JIT, a worker started): the event loop ticks then measure the regex alone.
      expect((await ws.call("Grep", { pattern: "answer\\s*=" })).isError).toBe(false);
      const { result, latencyMs, ticks, abortedAt } = await abortedGrep(ws, { pattern }, 300);
      expect(result.isError).toBe(true);
      expect(result.details).toMatchObject({ cancelled: true });
      // The thread stuck in the regex is terminated, not kept for the next call.
      expect(await workersGone()).toBe(0);
      const terminatedMs = performance.now() - abortedAt;
      console.log(
        `abort latency for ${pattern}: call ended after ${latencyMs.toFixed(1)} ms, worker threads gone after ${terminatedMs.toFixed(1)} ms (event loop ticks meanwhile: ${ticks})`,
      );
      // Generous bounds (noisy machines); without workers the call would run for hours.
      expect(latencyMs).toBeLessThan(1000);
      expect(terminatedMs).toBeLessThan(1000);
      expect(ticks).toBeGreaterThan(5);
    } finally {
      await ws.registry.close();
      ws.cleanup();
    }
  });

  it("ends within moments of an abort when the path names the file itself", async () => {
    const ws = evilWorkspace();
    try {
      const { result, latencyMs } = await abortedGrep(ws, { pattern: "(a+)+$", path: "src/evil.txt" }, 300);
      console.log(`abort latency, single file: ${latencyMs.toFixed(1)} ms`);
      expect(result.details).toMatchObject({ cancelled: true });
      expect(latencyMs).toBeLessThan(1000);
    } finally {
      await ws.registry.close();
      ws.cleanup();
      expect(await workersGone()).toBe(0);
    }
  });

  it.each([
    { where: "a tree", path: undefined, ripgrepPath: false as const },
    { where: "a single file", path: "src/evil.txt", ripgrepPath: false as const },
    ...(rgPath ? [{ where: "a single file with ripgrep configured", path: "src/evil.txt", ripgrepPath: rgPath }] : []),
  ])("answers a clear error when the regex time budget runs out on $where", async ({ path: searchPath, ripgrepPath }) => {
    const ws = evilWorkspace({ ripgrepPath, regexTimeBudgetMs: 300 });
    try {
      const started = performance.now();
      const result = await ws.call("Grep", { pattern: "(a|aa)+$", path: searchPath });
      console.log(`budget of 300 ms ended the call after ${(performance.now() - started).toFixed(1)} ms`);
      expect(result.isError).toBe(true);
      expect(result.details).toMatchObject({ code: "timeout", reason: "pattern_too_expensive", budgetMs: 300 });
      expect(result.text).toContain("too expensive");
      expect(result.text).toContain("catastrophic backtracking");
      expect(result.text).toContain("nested quantifiers");
      expect(result.text).toContain("path or file_pattern");
      // The registry stays usable: the next call gets a fresh worker.
      const next = await ws.call("Grep", { pattern: "answer\\s*=", path: searchPath === undefined ? undefined : "src/plain.ts" });
      expect(next.isError).toBe(false);
      expect(next.text).toContain("plain.ts:1: export const answer = 42;");
    } finally {
      await ws.registry.close();
      ws.cleanup();
      expect(await workersGone()).toBe(0);
    }
  });

  it("keeps idle worker threads per registry and releases them on close", async () => {
    const ws = evilWorkspace();
    try {
      const first = await ws.call("Grep", { pattern: "answer\\s*=\\s*\\d+" });
      expect(first.text).toContain("src/plain.ts:1:");
      expect(liveGrepWorkerCount()).toBeGreaterThan(0);
      const second = await ws.call("Grep", { pattern: "first\\s+line", output_mode: "count" });
      expect(second.isError).toBe(false);
      expect(second.details).toMatchObject({ matchCount: 1, engine: "typescript" });
      // Literal patterns stay on the main thread and are not limited.
      const literal = await ws.call("Grep", { pattern: "first line", output_mode: "count" });
      expect(literal.details).toMatchObject({ matchCount: 1 });
    } finally {
      await ws.registry.close();
      ws.cleanup();
    }
    expect(await workersGone()).toBe(0);
  });

  it("never keeps the process alive: a host that forgets close() still exits", async () => {
    const packageDirectory = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
    const directory = realpathSync(mkdtempSync(path.join(os.tmpdir(), "tools-fs-grep-exit-")));
    writeFileSync(path.join(directory, "a.txt"), "value = 1\n");
    const script = `
      import { createToolRegistry } from "@agent-tools/core";
      import { createFsToolBundle } from "@agent-tools/tools-fs";
      const registry = createToolRegistry({ workdir: ${JSON.stringify(directory)}, dataDir: ${JSON.stringify(path.join(directory, ".data"))}, bundles: [createFsToolBundle({ ripgrepPath: false })], loopBreaker: false });
      const result = await registry.executeToolCall({ id: "1", name: "Grep", arguments: { pattern: "value\\\\s*=" } });
      console.log(JSON.stringify(result.details));
    `;
    const started = performance.now();
    try {
      const output = await new Promise<string>((resolve, reject) => {
        execFile(
          path.join(packageDirectory, "../../node_modules/.bin/tsx"),
          ["--conditions=@agent-tools/source", "--input-type=module", "-e", script],
          { cwd: packageDirectory, timeout: 20_000 },
          (error, stdout, stderr) => (error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout)),
        );
      });
      console.log(`child process with an idle Grep worker exited after ${(performance.now() - started).toFixed(0)} ms`);
      expect(JSON.parse(output.trim())).toMatchObject({ kind: "grep", matchCount: 1, engine: "typescript" });
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  }, 30_000);
});

describe.each(engines)("Grep on special paths ($name engine)", ({ ripgrepPath }) => {
  let ws: TestWorkspace;
  beforeAll(() => {
    ws = createTestWorkspace({ "tree/note.txt": "needle here\n", "tree/sub/other.txt": "no match\n" }, { ripgrepPath });
    symlinkSync("self", path.join(ws.dir, "self"));
    symlinkSync("loop-b", path.join(ws.dir, "loop-a"));
    symlinkSync("loop-a", path.join(ws.dir, "loop-b"));
    symlinkSync("missing-target", path.join(ws.dir, "dangling"));
    execFileSync("mkfifo", [path.join(ws.dir, "pipe")]);
    execFileSync("mkfifo", [path.join(ws.dir, "tree", "sub", "inner-pipe")]);
  });
  afterAll(async () => {
    await ws.registry.close();
    ws.cleanup();
  });

  it.each(["self", "loop-a"])("answers that %s is a symlink loop", async (name) => {
    const result = await ws.call("Grep", { pattern: "needle", path: name });
    expect(result.isError).toBe(true);
    // The path policy may report the loop itself; else Grep's own check does.
    expect(result.details).toMatchObject({ code: "invalid_path" });
    expect(result.text).toContain(`${name}`);
    expect(result.text).toContain("is a symlink loop");
    expect(result.text).not.toContain("does not exist");
  });

  it("answers that a dangling symlink's target does not exist", async () => {
    const result = await ws.call("Grep", { pattern: "needle", path: "dangling" });
    expect(result.details).toMatchObject({ code: "not_found", reason: "dangling_symlink" });
    expect(result.text).toContain("dangling is a symlink whose target does not exist");
  });

  it("refuses an explicit FIFO path instead of blocking on it", async () => {
    const result = await ws.call("Grep", { pattern: "needle", path: "pipe" });
    expect(result.isError).toBe(true);
    expect(result.details).toMatchObject({ code: "unsupported_target", kind: "named pipe (FIFO)" });
    expect(result.text).toContain("pipe is a named pipe (FIFO), not a regular file or directory");
  });

  it("skips a FIFO inside the searched tree", async () => {
    for (const pattern of ["needle", "need.e\\s+\\w+"]) {
      const result = await ws.call("Grep", { pattern, path: "tree" });
      expect(result.isError).toBe(false);
      expect(result.text).toContain("tree/note.txt:1: needle here");
    }
    const everything = await ws.call("Grep", { pattern: "needle" });
    expect(everything.details).toMatchObject({ matchCount: 1, fileCount: 1 });
  }, 15_000);
});
