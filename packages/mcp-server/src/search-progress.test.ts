import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type HttpServedRegistry, connectHttp, serveRegistryOverHttp, tempWorkdir, textOf } from "./testing-helpers.js";

// A long Grep's progress reaches an MCP client as notifications/progress. The registry
// reports after fs.progressIntervalMs (1 ms here instead of a second) on a tree of 3,000 files.

describe("Grep progress over MCP", () => {
  const work = tempWorkdir("mcp-server-grep-progress-");
  let served: HttpServedRegistry;
  beforeAll(async () => {
    const text = `${Array.from({ length: 20 }, (_, line) => (line % 2 ? `needle ${line}` : `hay ${line}`)).join("\n")}\n`;
    for (let directory = 0; directory < 250; directory += 1) {
      const folder = path.join(work.dir, `pkg${directory}`);
      mkdirSync(folder);
      for (let file = 0; file < 12; file += 1) writeFileSync(path.join(folder, `f${file}.txt`), text);
    }
    served = await serveRegistryOverHttp({ workdir: work.dir, dataDir: path.join(work.dir, ".data"), fs: { progressIntervalMs: 1 } }, { port: 0 });
  }, 60_000);
  afterAll(async () => {
    await served?.close();
    work.cleanup();
  });

  it("sends the counts of a running Grep as progress notifications with the request's token", async () => {
    const connection = await connectHttp(served.listener.url);
    try {
      const notifications: Array<{ progress: number; message?: string }> = [];
      const result = await connection.client.callTool({ name: "Grep", arguments: { pattern: "needle", output_mode: "count" } }, undefined, {
        onprogress: (progress) => void notifications.push(progress),
      });
      expect(result.isError).toBe(false);
      expect(textOf(result)).toBe("matches=30000\nfiles=3000");
      expect(notifications.length).toBeGreaterThan(0);
      for (const notification of notifications) expect(notification.message).toMatch(/^Grep: searching, [\d,]+ matching lines in [\d,]+ files so far/);
      const progressValues = notifications.map((notification) => notification.progress);
      expect(progressValues).toEqual([...progressValues].sort((a, b) => a - b));
      expect(new Set(progressValues).size).toBe(progressValues.length);

      // Without onprogress the client sends no token, and the same call answers the same.
      const quiet = await connection.client.callTool({ name: "Grep", arguments: { pattern: "needle", output_mode: "count" } });
      expect(textOf(quiet)).toBe(textOf(result));
    } finally {
      await connection.close();
    }
  });
});
