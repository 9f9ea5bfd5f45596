import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createTestWorkspace } from "../__fixtures__/workspace.js";
import { GREP_WARM_WORKER_THRESHOLD, grepWithTypeScript } from "./grep-engine.js";
import type { GrepFileHits } from "./grep-result.js";
import type { GrepQuery } from "./grep-ripgrep.js";
import { GREP_WORKER_COUNT, GrepWorkerHost } from "./grep-worker-host.js";
import { liveGrepWorkerCount } from "./grep-workers.js";

const FILE_COUNT = GREP_WARM_WORKER_THRESHOLD + 100;
let root: string;

/** The contents of a tree of `FILE_COUNT` small files, every seventh holding the needle. */
function treeFiles(): Record<string, string> {
  const files: Record<string, string> = {};
  for (let index = 0; index < FILE_COUNT; index += 1) {
    const needle = index % 7 === 0 ? `const needle${index} = "Levenshtein";\n` : "";
    files[`dir-${index % 13}/file-${index}.ts`] = `export const value${index} = ${index};\n${needle}// end\n`;
  }
  return files;
}

beforeAll(() => {
  root = realpathSync(mkdtempSync(path.join(os.tmpdir(), "tools-fs-grep-host-")));
  for (const [relative, text] of Object.entries(treeFiles())) {
    mkdirSync(path.join(root, path.dirname(relative)), { recursive: true });
    writeFileSync(path.join(root, relative), text);
  }
});
afterAll(() => rmSync(root, { recursive: true, force: true }));
afterEach(async () => expect(await workersGone()).toBe(0));

const query: GrepQuery = { pattern: "levenshtein", ignoreCase: true, multiline: false, context: 0 };
const all = () => true;

/** Waits until `done()` holds (threads start and exit asynchronously), at most about 20 s. */
async function waitFor(done: () => boolean): Promise<boolean> {
  for (let attempt = 0; attempt < 1000 && !done(); attempt += 1) await new Promise((resolve) => setTimeout(resolve, 20));
  return done();
}

/** Waits until no Grep worker thread of this process is alive; the count left. */
async function workersGone(): Promise<number> {
  await waitFor(() => liveGrepWorkerCount() === 0);
  return liveGrepWorkerCount();
}

/** Paths and matching lines, sorted by path. */
function snapshot(hits: GrepFileHits[]) {
  return hits.map((hit) => ({ path: hit.path, lines: [...hit.matchLines()] })).sort((a, b) => (a.path < b.path ? -1 : 1));
}

/** Counts the threads `host` hands out. */
function countAcquired(host: GrepWorkerHost): { count: number } {
  const counter = { count: 0 };
  const acquire = host.acquire.bind(host);
  host.acquire = () => {
    counter.count += 1;
    return acquire();
  };
  return counter;
}

describe("Grep worker threads started for the next search", () => {
  it("a main-thread search of more than the warm threshold starts the threads, and the next search runs on them", async () => {
    const host = new GrepWorkerHost();
    const acquired = countAcquired(host);
    try {
      const first = await grepWithTypeScript(root, query, all, { workers: host });
      expect(first).toHaveLength(Math.ceil(FILE_COUNT / 7));
      // The first search ran on the main thread; the threads start after it, in the background.
      expect(acquired.count).toBe(0);
      expect(host.threadCount).toBe(GREP_WORKER_COUNT);
      expect(await waitFor(() => host.readyIdle === GREP_WORKER_COUNT)).toBe(true);
      const live = liveGrepWorkerCount();
      const second = await grepWithTypeScript(root, query, all, { workers: host });
      expect(acquired.count).toBe(GREP_WORKER_COUNT);
      expect(snapshot(second)).toEqual(snapshot(first));
      expect(second.map((hit) => hit.lineText(hit.firstMatchLine))).toEqual(first.map((hit) => hit.lineText(hit.firstMatchLine)));
      // No thread was started for it, and both went back to the host.
      expect(liveGrepWorkerCount()).toBe(live);
      expect(host.readyIdle).toBe(GREP_WORKER_COUNT);
    } finally {
      await host.close();
    }
    expect(host.threadCount).toBe(0);
  });

  it("starts nothing for a search of at most the warm threshold, nor for a host that is closed or of this call only", async () => {
    const host = new GrepWorkerHost();
    const files = Object.keys(treeFiles()).slice(0, GREP_WARM_WORKER_THRESHOLD);
    await grepWithTypeScript(root, query, all, { workers: host, files });
    expect(host.threadCount).toBe(0);
    await host.close();
    await grepWithTypeScript(root, query, all, { workers: host });
    expect(host.threadCount).toBe(0);
    // Without a host given, the call's own host is closed with it.
    await grepWithTypeScript(root, query, all);
    expect(liveGrepWorkerCount()).toBe(0);
  });

  it("idle started threads end by themselves after the idle time", async () => {
    const host = new GrepWorkerHost(300);
    try {
      await grepWithTypeScript(root, query, all, { workers: host });
      expect(host.threadCount).toBe(GREP_WORKER_COUNT);
      expect(liveGrepWorkerCount()).toBe(GREP_WORKER_COUNT);
      expect(await waitFor(() => host.threadCount === 0)).toBe(true);
      expect(await workersGone()).toBe(0);
    } finally {
      await host.close();
    }
  });

  it("starts threads again after idle ones ended before they were ready", async () => {
    const host = new GrepWorkerHost(1);
    try {
      host.prestart();
      expect(host.threadCount).toBe(GREP_WORKER_COUNT);
      expect(await waitFor(() => host.threadCount === 0)).toBe(true);
      host.prestart();
      expect(host.threadCount).toBe(GREP_WORKER_COUNT);
    } finally {
      await host.close();
    }
  });

  it("registry.close() ends the threads a Grep started", async () => {
    const ws = createTestWorkspace(treeFiles(), { ripgrepPath: false });
    try {
      const first = await ws.call("Grep", { pattern: "Levenshtein", output_mode: "count" });
      expect(first.details).toMatchObject({ engine: "typescript", matchCount: Math.ceil(FILE_COUNT / 7) });
      expect(liveGrepWorkerCount()).toBe(GREP_WORKER_COUNT);
      const second = await ws.call("Grep", { pattern: "Levenshtein", output_mode: "count" });
      expect(second.details).toMatchObject({ matchCount: Math.ceil(FILE_COUNT / 7) });
      expect(liveGrepWorkerCount()).toBe(GREP_WORKER_COUNT);
      await ws.registry.close();
      expect(await workersGone()).toBe(0);
    } finally {
      ws.cleanup();
    }
  });
});
