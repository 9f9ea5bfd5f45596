import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { type Logger, type ToolResult, toolResultText } from "@agent-tools/core";
import { afterAll, describe, expect, it } from "vitest";
import { buildBuiltinToolRegistry } from "./build-builtin-tool-registry.js";
import { taskStoreOpenError } from "./task-store-status.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const repositoryRoot = path.resolve(here, "../../..");
const temporary = fs.mkdtempSync(path.join(os.tmpdir(), "agent-tools-sdk-task-store-"));
afterAll(() => fs.rmSync(temporary, { recursive: true, force: true }));

const taskCreate = { name: "TaskCreate", arguments: { subject: "Plan", description: "Plan the work", activeForm: "Planning" } };

function recordingLogger(): { logger: Logger; warnings: string[] } {
  const warnings: string[] = [];
  const ignore = () => undefined;
  return { warnings, logger: { debug: ignore, info: ignore, error: ignore, warn: (message) => void warnings.push(message) } };
}

/** Runs two TaskCreate calls in a Node process where better-sqlite3 is unavailable as `simulate` says. */
async function withoutBetterSqlite3(simulate: "missing" | "unbuilt"): Promise<{ results: ToolResult[]; stderr: string }> {
  const workdir = fs.mkdtempSync(path.join(temporary, "project-"));
  const { stdout, stderr } = await promisify(execFile)(
    process.execPath,
    [
      "--import",
      "tsx",
      "--import",
      path.join(here, "__fixtures__", "without-better-sqlite3.mjs"),
      "--conditions=@agent-tools/source",
      path.join(here, "__fixtures__", "task-tools-process.mjs"),
      workdir,
      path.join(workdir, "data"),
      JSON.stringify([taskCreate, taskCreate]),
    ],
    { cwd: repositoryRoot, timeout: 90_000, env: { ...process.env, AGENT_TOOLS_SIMULATE: simulate } },
  );
  return { results: JSON.parse(stdout.trim().split("\n").at(-1)!).results, stderr };
}

describe("buildBuiltinToolRegistry: a task store that cannot open", () => {
  it("without better-sqlite3, TaskCreate says to install it or pass a store, is not recoverable, and the host is warned once", async () => {
    const { results, stderr } = await withoutBetterSqlite3("missing");
    for (const result of results) {
      expect(result).toMatchObject({ isError: true, details: { code: "unavailable", reason: "driver_missing", recoverable: false } });
      const text = toolResultText(result, "");
      expect(text).toContain("the SQLite driver better-sqlite3 is not installed");
      expect(text).toContain("npm install better-sqlite3@12");
      expect(text).toContain("Node 22.16+ or 24+, whose built-in node:sqlite needs no driver");
      expect(text).toContain("`tasks.store`");
      expect(text).toContain("openPostgresStorage");
      expect(text).not.toContain("Retry later");
      expect(text).not.toContain("npm_config_nodedir");
    }
    expect(stderr.match(/\[agent-tools\] Task tools: The task tools are unavailable/g)).toHaveLength(1);
  }, 120_000);

  it("with better-sqlite3's native module never built, TaskCreate says to build it and names npm_config_nodedir", async () => {
    const { results } = await withoutBetterSqlite3("unbuilt");
    expect(results[0]).toMatchObject({ isError: true, details: { code: "unavailable", reason: "driver_unloadable", recoverable: false } });
    const text = toolResultText(results[0]!, "");
    expect(text).toContain("Could not locate the bindings file");
    expect(text).toContain("npm rebuild better-sqlite3");
    expect(text).toContain("npm_config_nodedir");
    expect(text).not.toContain("Retry later");
  }, 120_000);

  it("with a dataDir under a regular file, TaskCreate says to pass a writable dataDir and warns the host once", async () => {
    const file = path.join(temporary, "a-file");
    fs.writeFileSync(file, "not a directory");
    const workdir = fs.mkdtempSync(path.join(temporary, "project-"));
    const { logger, warnings } = recordingLogger();
    const registry = await buildBuiltinToolRegistry({ workdir, dataDir: path.join(file, "data"), logger });
    try {
      for (const id of ["1", "2"]) {
        const result = await registry.executeToolCall({ id, ...taskCreate });
        expect(result).toMatchObject({ isError: true, details: { code: "unavailable", reason: "data_dir_unwritable", recoverable: false } });
        const text = toolResultText(result, "");
        expect(text).toContain("ENOTDIR");
        expect(text).toContain("pass a writable `dataDir`");
        expect(text).not.toContain("Retry later");
      }
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(/^Task tools: The task tools are unavailable: the data directory cannot be written/);
    } finally {
      await registry.close();
    }
  });

  it("says 'Retry later' for a lock held too long, and only then", () => {
    const busy = taskStoreOpenError(Object.assign(new Error("database is locked"), { code: "SQLITE_BUSY" }));
    expect(busy).toMatchObject({ code: "unavailable", recoverable: true, details: { reason: "busy", recoverable: true } });
    expect(busy.message).toMatch(/Retry later\.$/);
    expect(taskStoreOpenError(new Error("disk I/O error")).message).not.toContain("Retry later");
  });
});
