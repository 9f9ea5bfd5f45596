import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { leaseSqliteStorage } from "./shared-sqlite-storage.js";

const temporary = fs.mkdtempSync(path.join(os.tmpdir(), "agent-tools-shared-storage-"));
afterAll(() => fs.rmSync(temporary, { recursive: true, force: true }));

describe("leaseSqliteStorage", () => {
  it("gives every lease on one file the same storage and closes it with the last release", async () => {
    const dataDir = path.join(temporary, "one");
    const first = leaseSqliteStorage({ dataDir });
    const second = leaseSqliteStorage({ dataDir: `${dataDir}/` });
    const storage = await first.get();
    expect(await second.get()).toBe(storage);
    await first.release();
    expect(storage.closed).toBe(false);
    await storage.db.selectNoFrom((eb) => eb.val(1).as("one")).execute();
    await second.release();
    expect(storage.closed).toBe(true);
    const later = leaseSqliteStorage({ dataDir });
    const reopened = await later.get();
    expect(reopened).not.toBe(storage);
    expect(reopened.closed).toBe(false);
    await later.release();
  });

  it("keeps different files apart and never shares :memory:", async () => {
    const a = leaseSqliteStorage({ dataDir: path.join(temporary, "a") });
    const b = leaseSqliteStorage({ dataDir: path.join(temporary, "b") });
    const m1 = leaseSqliteStorage({ filename: ":memory:" });
    const m2 = leaseSqliteStorage({ filename: ":memory:" });
    expect(await a.get()).not.toBe(await b.get());
    expect(await m1.get()).not.toBe(await m2.get());
    await Promise.all([a, b, m1, m2].map((lease) => lease.release()));
  });

  it("refuses get() after release and releases once", async () => {
    const lease = leaseSqliteStorage({ dataDir: path.join(temporary, "released") });
    await lease.release();
    await lease.release();
    await expect(lease.get()).rejects.toThrow("released");
  });
});
