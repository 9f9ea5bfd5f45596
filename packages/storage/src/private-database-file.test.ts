import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { sql } from "kysely";
import { afterAll, describe, expect, it } from "vitest";
import { openSqliteStorage } from "./open-sqlite-storage.js";
import { createPrivateDatabaseFile } from "./private-database-file.js";

const temporary = fs.mkdtempSync(path.join(os.tmpdir(), "agent-tools-private-sqlite-"));
afterAll(() => fs.rmSync(temporary, { recursive: true, force: true }));

const modeOf = (file: string) => (fs.statSync(file).mode & 0o777).toString(8);

/** Runs `action` with the process umask set to `mask` (vitest runs each file in its own forked process). */
async function withUmask<T>(mask: number, action: () => Promise<T>): Promise<T> {
  const before = process.umask(mask);
  try {
    return await action();
  } finally {
    process.umask(before);
  }
}

/**
 * Opens the storage, writes a row and, while the connection is still open (so
 * `-wal` and `-shm` exist), runs `whileOpen` and lists the files beside the
 * database with their modes.
 */
async function openAndWrite(
  options: { dataDir?: string; filename?: string },
  whileOpen: (directory: string) => void = () => {},
): Promise<Record<string, string>> {
  const storage = await openSqliteStorage({ ...options, driver: "better-sqlite3" });
  try {
    await sql`create table if not exists secrets (value text)`.execute(storage.db);
    await sql`insert into secrets (value) values (${"tenant_alice_tool"})`.execute(storage.db);
    const directory = options.filename === undefined ? (options.dataDir as string) : path.dirname(options.filename);
    whileOpen(directory);
    return Object.fromEntries(fs.readdirSync(directory).map((name) => [name, modeOf(path.join(directory, name))]));
  } finally {
    await storage.close();
  }
}

/** A user other than the one running the tests that can run commands here, when this process is root and has one. */
const otherUser = (() => {
  if (process.getuid?.() !== 0) return undefined;
  const probe = spawnSync("runuser", ["-u", "sbxuser", "--", "true"], { stdio: "ignore" });
  return probe.status === 0 ? "sbxuser" : undefined;
})();

describe("openSqliteStorage: the files it creates are the owner's alone", () => {
  for (const mask of [0o022, 0o000]) {
    it(`umask ${mask.toString(8).padStart(3, "0")}: a missing dataDir is made 0700, the database and its -wal/-shm 0600`, async () => {
      const dataDir = path.join(temporary, `umask-${mask.toString(8)}`, "nested", "data");
      const files = await withUmask(mask, () => openAndWrite({ dataDir }));
      expect(files).toEqual({ "agent-tools.sqlite": "600", "agent-tools.sqlite-wal": "600", "agent-tools.sqlite-shm": "600" });
      expect(modeOf(dataDir)).toBe("700");
      expect(modeOf(path.dirname(dataDir))).toBe("700"); // every directory it had to make
      expect(modeOf(path.join(temporary, `umask-${mask.toString(8)}`))).toBe("700");
    });
  }

  it("an explicit filename is created 0600 too, under umask 000", async () => {
    const filename = path.join(temporary, "explicit", "my.db");
    const files = await withUmask(0o000, () => openAndWrite({ filename }));
    expect(files).toEqual({ "my.db": "600", "my.db-wal": "600", "my.db-shm": "600" });
    expect(modeOf(path.dirname(filename))).toBe("700");
  });

  it("SQLite gives a rollback -journal the database file's mode (what the 0600 of the side files rests on)", async () => {
    const filename = path.join(temporary, "journal", "rollback.db");
    fs.mkdirSync(path.dirname(filename));
    await withUmask(0o000, async () => {
      expect(createPrivateDatabaseFile(filename)).toBe(true);
      const database = new Database(filename);
      try {
        database.pragma("journal_mode = DELETE");
        database.exec("begin; create table t (x); insert into t values (1);");
        expect(modeOf(`${filename}-journal`)).toBe("600");
        database.exec("commit");
      } finally {
        database.close();
      }
    });
  });

  it("a directory and a file the host made keep their modes (the host's call)", async () => {
    const dataDir = path.join(temporary, "host-made");
    fs.mkdirSync(dataDir, { mode: 0o755 });
    fs.chmodSync(dataDir, 0o755);
    fs.writeFileSync(path.join(dataDir, "agent-tools.sqlite"), "", { mode: 0o640 });
    fs.chmodSync(path.join(dataDir, "agent-tools.sqlite"), 0o640);
    const files = await withUmask(0o022, () => openAndWrite({ dataDir }));
    expect(files["agent-tools.sqlite"]).toBe("640");
    expect(modeOf(dataDir)).toBe("755");
    expect(createPrivateDatabaseFile(path.join(dataDir, "agent-tools.sqlite"))).toBe(false);
  });

  it("a symlink where the file would be is not followed to create a file", () => {
    const directory = path.join(temporary, "symlinked");
    fs.mkdirSync(directory);
    fs.symlinkSync(path.join(directory, "elsewhere.db"), path.join(directory, "agent-tools.sqlite"));
    expect(createPrivateDatabaseFile(path.join(directory, "agent-tools.sqlite"))).toBe(false);
    expect(fs.existsSync(path.join(directory, "elsewhere.db"))).toBe(false);
  });

  it.skipIf(otherUser === undefined)("another local user cannot read it, even in a dataDir the host made world-traversable", async () => {
    const shared = fs.mkdtempSync(path.join(os.tmpdir(), "agent-tools-shared-host-"));
    try {
      fs.chmodSync(shared, 0o755);
      const dataDir = path.join(shared, "data");
      fs.mkdirSync(dataDir, { mode: 0o755 });
      fs.chmodSync(dataDir, 0o755);
      const tryRead = (file: string) => spawnSync("runuser", ["-u", otherUser as string, "--", "cat", file], { encoding: "utf8" });
      await withUmask(0o000, () =>
        openAndWrite({ dataDir }, (directory) => {
          // The row sits in the -wal until a checkpoint: that is the file to try while the connection is open.
          const wal = path.join(directory, "agent-tools.sqlite-wal");
          expect(fs.readFileSync(wal).includes("tenant_alice_tool")).toBe(true);
          expect(tryRead(wal)).toMatchObject({ status: 1, stdout: "", stderr: expect.stringContaining("Permission denied") });
        }),
      );
      const file = path.join(dataDir, "agent-tools.sqlite");
      expect(fs.readFileSync(file).includes("tenant_alice_tool")).toBe(true); // checkpointed into the file on close
      expect(tryRead(file)).toMatchObject({ status: 1, stdout: "", stderr: expect.stringContaining("Permission denied") });
    } finally {
      fs.rmSync(shared, { recursive: true, force: true });
    }
  });
});
