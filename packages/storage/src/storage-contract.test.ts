import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { sqliteTestBackends } from "./testing/sqlite-test-backends.js";
import { runStorageContract, usePostgresTestCluster } from "./testing/storage-contract.js";
import { openPostgresStorage } from "./index.js";
import { openSqliteStorage } from "./index.js";
import { DEFAULT_SQLITE_FILE_NAME, resolveSqliteFilename } from "./internal.js";
import { openStorage } from "./index.js";

const temporary = fs.mkdtempSync(path.join(os.tmpdir(), "agent-tools-storage-"));
afterAll(() => fs.rmSync(temporary, { recursive: true, force: true }));

const cluster = usePostgresTestCluster();
let postgresUrl: Promise<string> | undefined;

for (const sqlite of sqliteTestBackends(temporary)) {
  runStorageContract(`${sqlite.label}, file under dataDir`, {
    open: () => sqlite.open({ dataDir: path.join(temporary, `data-${sqlite.driver.replace(/\W/g, "-")}`) }),
    concurrentInstances: true,
  });
}
runStorageContract("postgres (real server)", {
  open: async () => openPostgresStorage({ connectionString: await (postgresUrl ??= cluster().createDatabase("storage")) }),
  concurrentInstances: true,
});

describe("SQLite migrations across processes", () => {
  it("apply each step exactly once when several processes start together", async () => {
    const dataDir = path.join(temporary, "race");
    const fixture = path.join(path.dirname(fileURLToPath(import.meta.url)), "__fixtures__", "migrate-process.mjs");
    const repositoryRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
    // Processes start slowly on a busy machine; they all begin migrating at startAt.
    const startAt = String(Date.now() + 6_000);
    const runOne = () =>
      promisify(execFile)(process.execPath, ["--import", "tsx", "--conditions=@agent-tools/source", fixture, dataDir, startAt], {
        cwd: repositoryRoot,
        timeout: 90_000,
      });
    const outputs = await Promise.all([runOne(), runOne(), runOne()]);
    const reports = outputs.map(({ stdout }) => JSON.parse(stdout.trim().split("\n").at(-1)!) as { pid: number; applied: string[] });
    expect(new Set(reports.map((report) => report.pid)).size).toBe(3);
    expect(reports.flatMap((report) => report.applied).sort()).toEqual(["0001-create", "0002-first-row", "0003-second-row"]);
    const storage = await openSqliteStorage({ dataDir });
    try {
      const rows = await storage.db.selectFrom("race_rows").select("migration").orderBy("migration").execute();
      expect(rows.map((row) => row.migration)).toEqual(["0002-first-row", "0003-second-row"]);
    } finally {
      await storage.close();
    }
  });
});

describe("openSqliteStorage", () => {
  it("creates <dataDir>/agent-tools.sqlite in WAL mode with foreign keys on", async () => {
    const dataDir = path.join(temporary, "fresh", "nested");
    const storage = await openSqliteStorage({ dataDir });
    try {
      expect(resolveSqliteFilename({ dataDir })).toBe(path.join(dataDir, DEFAULT_SQLITE_FILE_NAME));
      expect(fs.existsSync(path.join(dataDir, DEFAULT_SQLITE_FILE_NAME))).toBe(true);
      const { sql } = await import("kysely");
      const journal = await sql<{ journal_mode: string }>`pragma journal_mode`.execute(storage.db);
      expect(journal.rows[0]?.journal_mode).toBe("wal");
      const foreignKeys = await sql<{ foreign_keys: number }>`pragma foreign_keys`.execute(storage.db);
      expect(foreignKeys.rows[0]?.foreign_keys).toBe(1);
    } finally {
      await storage.close();
    }
  });

  it("lets two connections share the file", async () => {
    const dataDir = path.join(temporary, "shared");
    const first = await openSqliteStorage({ dataDir });
    const second = await openSqliteStorage({ dataDir });
    try {
      await first.db.schema.createTable("shared_rows").addColumn("id", "text").execute();
      await first.db.insertInto("shared_rows").values({ id: "from-first" }).execute();
      expect(await second.db.selectFrom("shared_rows").selectAll().execute()).toEqual([{ id: "from-first" }]);
    } finally {
      await Promise.all([first.close(), second.close()]);
    }
  });

  it("refuses missing options and an unreadable path with SdkError", async () => {
    await expect(openSqliteStorage({})).rejects.toMatchObject({ code: "invalid_options" });
    const blocker = path.join(temporary, "not-a-directory");
    fs.writeFileSync(blocker, "x");
    await expect(openSqliteStorage({ filename: path.join(blocker, "inner", "db.sqlite") })).rejects.toThrow();
  });
});

describe("openPostgresStorage", () => {
  it("leaves a host-owned pool open on close", async () => {
    const { default: pg } = await import("pg");
    const pool = new pg.Pool({ connectionString: cluster().connectionString() });
    try {
      const storage = await openStorage({ dialect: "postgres", pool });
      expect(storage.dialect).toBe("postgres");
      await storage.close();
      const result = await pool.query("select 1 as one");
      expect(result.rows).toEqual([{ one: 1 }]);
    } finally {
      await pool.end();
    }
  });

  it("fails with SdkError when the server is unreachable or options are missing", async () => {
    await expect(openPostgresStorage({ connectionString: "postgres://postgres@127.0.0.1:1/none" })).rejects.toMatchObject({ code: "storage" });
    await expect(openPostgresStorage({})).rejects.toMatchObject({ code: "invalid_options" });
    await expect(openStorage({ dialect: "nope" } as never)).rejects.toMatchObject({ code: "invalid_options" });
  });
});
