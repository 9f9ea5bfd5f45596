import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runStorageContract, usePostgresTestCluster } from "../testing/storage.js";
import { openPostgresStorage } from "./open-postgres-storage.js";
import { DEFAULT_SQLITE_FILE_NAME, openSqliteStorage, resolveSqliteFilename } from "./open-sqlite-storage.js";
import { openStorage } from "./open-storage.js";

const temporary = fs.mkdtempSync(path.join(os.tmpdir(), "agent-tools-storage-"));
afterAll(() => fs.rmSync(temporary, { recursive: true, force: true }));

const cluster = usePostgresTestCluster();
let postgresUrl: Promise<string> | undefined;

runStorageContract("sqlite (file under dataDir)", { open: () => openSqliteStorage({ dataDir: path.join(temporary, "data") }) });
runStorageContract("postgres (real server)", {
  open: async () => openPostgresStorage({ connectionString: await (postgresUrl ??= cluster().createDatabase("storage")) }),
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
