import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createResourceHub } from "@agent-tools/core";
import { afterAll, describe, expect, it } from "vitest";
import { leaseSqliteStorage } from "./shared-sqlite-storage.js";

const temporary = fs.mkdtempSync(path.join(os.tmpdir(), "agent-tools-shared-storage-"));
afterAll(() => fs.rmSync(temporary, { recursive: true, force: true }));

describe("leaseSqliteStorage", () => {
  it("gives every lease of one file on one hub the same storage and closes it with the hub", async () => {
    const dataDir = path.join(temporary, "one");
    const hub = createResourceHub();
    const first = leaseSqliteStorage({ dataDir, resources: hub });
    const second = leaseSqliteStorage({ dataDir: `${dataDir}/`, resources: hub });
    const storage = await first.get();
    expect(await second.get()).toBe(storage);
    await first.release();
    await second.release();
    expect(storage.closed).toBe(false);
    await storage.db.selectNoFrom((eb) => eb.val(1).as("one")).execute();
    await hub.close();
    expect(storage.closed).toBe(true);
    const later = leaseSqliteStorage({ dataDir, resources: createResourceHub() });
    const reopened = await later.get();
    expect(reopened).not.toBe(storage);
    expect(reopened.closed).toBe(false);
    await reopened.close();
  });

  it("lets the first lease on a hub choose the driver: later auto leases share it, a different explicit driver is refused", async () => {
    const dataDir = path.join(temporary, "driver");
    const hub = createResourceHub();
    const chosen = leaseSqliteStorage({ dataDir, resources: hub, driver: "better-sqlite3" });
    const auto = leaseSqliteStorage({ dataDir, resources: hub });
    expect(await auto.get()).toBe(await chosen.get());
    expect(() => leaseSqliteStorage({ dataDir, resources: hub, driver: "node:sqlite" })).toThrow(
      /already leased on this hub with driver "better-sqlite3"; a lease asks for "node:sqlite"/,
    );
    expect(leaseSqliteStorage({ dataDir, resources: hub, driver: "better-sqlite3" })).toBeDefined();
    const autoFirst = createResourceHub();
    leaseSqliteStorage({ dataDir, resources: autoFirst });
    expect(() => leaseSqliteStorage({ dataDir, resources: autoFirst, driver: "better-sqlite3" })).toThrow(/with driver "auto"/);
    await hub.close();
    await autoFirst.close();
  });

  it("shares nothing without a hub or across hubs: each lease of its own closes on release", async () => {
    const dataDir = path.join(temporary, "own");
    const own = leaseSqliteStorage({ dataDir });
    const other = leaseSqliteStorage({ dataDir });
    const hubA = createResourceHub();
    const hubB = createResourceHub();
    const storage = await own.get();
    expect(await other.get()).not.toBe(storage);
    expect(await leaseSqliteStorage({ dataDir, resources: hubA }).get()).not.toBe(await leaseSqliteStorage({ dataDir, resources: hubB }).get());
    await own.release();
    expect(storage.closed).toBe(true);
    await Promise.all([other.release(), hubA.close(), hubB.close()]);
  });

  it("keeps different files apart and never shares :memory:", async () => {
    const a = leaseSqliteStorage({ dataDir: path.join(temporary, "a") });
    const b = leaseSqliteStorage({ dataDir: path.join(temporary, "b") });
    const hub = createResourceHub();
    const m1 = leaseSqliteStorage({ filename: ":memory:", resources: hub });
    const m2 = leaseSqliteStorage({ filename: ":memory:", resources: hub });
    expect(await a.get()).not.toBe(await b.get());
    expect(await m1.get()).not.toBe(await m2.get());
    await Promise.all([a, b, m1, m2].map((lease) => lease.release()));
    await hub.close();
  });

  it("refuses get() after release and releases once", async () => {
    const lease = leaseSqliteStorage({ dataDir: path.join(temporary, "released") });
    await lease.release();
    await lease.release();
    await expect(lease.get()).rejects.toThrow("released");
  });
});
