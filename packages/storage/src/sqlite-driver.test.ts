import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { SdkError, createResourceHub } from "@agent-tools/core";
import { afterAll, describe, expect, it } from "vitest";
import { leaseSqliteStorage, openSqliteStorage } from "./index.js";
import { BETTER_SQLITE3_DRIVER } from "./optional-driver.js";

const temporary = fs.mkdtempSync(path.join(os.tmpdir(), "agent-tools-sqlite-driver-"));
afterAll(() => fs.rmSync(temporary, { recursive: true, force: true }));

const repositoryRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const child = path.join(path.dirname(fileURLToPath(import.meta.url)), "__fixtures__", "sqlite-driver-child.mjs");
const NODES = { "Node 22": "compat/node22/node_modules/node/bin/node", "Node 24": "compat/node24/node_modules/node/bin/node" } as const;

/** Runs one check of the child fixture under `node` (a path under the repository, or the running Node) and parses its JSON line. */
async function runChild(node: string, mode: string): Promise<{ result: Record<string, any>; stderr: string }> {
  const directory = fs.mkdtempSync(path.join(temporary, "child-"));
  const { stdout, stderr } = await promisify(execFile)(
    node === process.execPath ? node : path.join(repositoryRoot, node),
    ["--import", "tsx", "--conditions=@agent-tools/source", child, mode, directory],
    { cwd: repositoryRoot, timeout: 90_000 },
  );
  return { result: JSON.parse(stdout.trim().split("\n").at(-1)!), stderr };
}

const openFailure = (options: Parameters<typeof openSqliteStorage>[0]) =>
  openSqliteStorage(options).then(
    () => expect.unreachable("the open should fail"),
    (error: unknown) => error as SdkError,
  );

/** What Node's import() rejects with when better-sqlite3 is not installed. */
const hiddenBetterSqlite3 = {
  ...BETTER_SQLITE3_DRIVER,
  load: () => Promise.reject(Object.assign(new Error("Cannot find package 'better-sqlite3' imported from /app/x.js"), { code: "ERR_MODULE_NOT_FOUND" })),
};

describe("openSqliteStorage: the driver option", () => {
  it("refuses an unknown driver, naming it and the valid ones (at open and at lease time)", async () => {
    const error = await openFailure({ filename: ":memory:", driver: "sqlite3" as never });
    expect(error).toBeInstanceOf(SdkError);
    expect(error.code).toBe("invalid_options");
    expect(error.message).toBe('openSqliteStorage: unknown SQLite driver "sqlite3"; use one of "auto", "node:sqlite", "better-sqlite3".');
    expect(() => leaseSqliteStorage({ dataDir: temporary, driver: "bun:sqlite" as never, resources: createResourceHub() })).toThrow(
      /unknown SQLite driver "bun:sqlite"/,
    );
  });

  describe.each(Object.entries(NODES))("on %s (a real child process)", (_label, node) => {
    it("auto uses node:sqlite (errors carry errcode) even though better-sqlite3 is built for another Node here", async () => {
      const { result } = await runChild(node, "open-auto");
      expect(result).toMatchObject({
        opened: true,
        blobIsBuffer: true,
        rowPrototypeIsObject: true,
        emptyBlob: { type: "blob", length: 0 },
        journal: { journal_mode: "wal" },
        foreignKeys: { foreign_keys: 1 },
        violation: { code: "SQLITE_CONSTRAINT_UNIQUE", errcode: 2067, message: "UNIQUE constraint failed: t.x" },
      });
    });

    it("maps a real BUSY between two node:sqlite connections to SQLITE_BUSY, classified busy", async () => {
      const { result } = await runChild(node, "busy");
      expect(result).toMatchObject({ error: { code: "SQLITE_BUSY", errcode: 5 }, classified: { reason: "busy" } });
    });

    it("driver better-sqlite3 built for another Node is driver_unloadable and says npm rebuild", async () => {
      const { result } = await runChild(node, "open-better-sqlite3");
      expect(result).toMatchObject({ opened: false, error: { code: "storage", details: { reason: "driver_unloadable", driver: "better-sqlite3" } } });
      expect(result.error.message).toMatch(/^openSqliteStorage cannot load better-sqlite3: .*NODE_MODULE_VERSION/s);
      expect(result.error.message).toContain("npm rebuild better-sqlite3");
    });

    it("drops only node:sqlite's ExperimentalWarning and restores process.emitWarning", async () => {
      const { result, stderr } = await runChild(node, "warnings");
      expect(result).toMatchObject({ restored: true, seen: ["ExperimentalWarning: a warning of the host's own"] });
      expect(stderr).not.toContain("SQLite is an experimental feature");
      expect(stderr).toContain("a warning of the host's own");
    });
  });

  // The machine's vitest runs on Node 20, which has no node:sqlite.
  describe.runIf(process.versions.node.startsWith("20."))("on Node 20 (this process)", () => {
    it("driver node:sqlite is driver_missing and names Node 22.16+ or better-sqlite3", async () => {
      const error = await openFailure({ filename: ":memory:", driver: "node:sqlite" });
      expect(error).toMatchObject({ code: "storage", details: { reason: "driver_missing", driver: "node:sqlite", transient: false } });
      expect(error.message).toBe(
        `openSqliteStorage cannot use node:sqlite: Node ${process.version} does not have it; use Node 22.16+ or 24+ for the built-in node:sqlite, or choose driver "better-sqlite3" (npm install better-sqlite3@12).`,
      );
    });

    it("auto with better-sqlite3 missing says both ways out", async () => {
      const error = await openFailure({ filename: ":memory:", driverLoaders: { betterSqlite3: hiddenBetterSqlite3 } });
      expect(error).toMatchObject({
        code: "storage",
        details: { reason: "driver_missing", driver: "better-sqlite3", package: "better-sqlite3", version: "12" },
      });
      expect(error.message).toBe(
        `openSqliteStorage needs a SQLite driver: Node ${process.version} has no node:sqlite and better-sqlite3 is not installed; use Node 22.16+ or 24+ for the built-in node:sqlite, or npm install better-sqlite3@12.`,
      );
    });

    it("driver better-sqlite3 missing names the install command", async () => {
      const error = await openFailure({ filename: ":memory:", driver: "better-sqlite3", driverLoaders: { betterSqlite3: hiddenBetterSqlite3 } });
      expect(error.message).toBe("openSqliteStorage needs the optional package better-sqlite3: npm install better-sqlite3@12");
    });

    it("auto falls back to better-sqlite3 (its errors are better-sqlite3's SqliteError)", async () => {
      const { result } = await runChild(process.execPath, "open-auto");
      expect(result).toMatchObject({
        opened: true,
        emptyBlob: { type: "blob", length: 0 },
        journal: { journal_mode: "wal" },
        violation: { name: "SqliteError", code: "SQLITE_CONSTRAINT_UNIQUE" },
      });
      expect(result.violation.errcode).toBeUndefined();
    });
  });
});
