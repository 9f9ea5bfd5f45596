import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { SdkError } from "@agent-tools/core";
import { afterAll, describe, expect, it } from "vitest";
import { classifyDatabaseError, openSqliteStorage } from "./open-sqlite-storage.js";
import { BETTER_SQLITE3_DRIVER } from "./optional-driver.js";
import { classifyDriverError } from "./sqlite-driver.js";

const temporary = fs.mkdtempSync(path.join(os.tmpdir(), "agent-tools-open-sqlite-"));
afterAll(() => fs.rmSync(temporary, { recursive: true, force: true }));

/** Driver loaders whose better-sqlite3 import rejects as `error`: a simulated failed import. */
const failingDriver = (error: Error) => ({ betterSqlite3: { ...BETTER_SQLITE3_DRIVER, load: () => Promise.reject(error) } });

const openFailure = (options: Parameters<typeof openSqliteStorage>[0]) =>
  openSqliteStorage(options).then(
    () => expect.unreachable("the open should fail"),
    (error: unknown) => error as SdkError,
  );

describe("openSqliteStorage: failures are classified", () => {
  it("a missing better-sqlite3 is driver_missing, not transient, and names the install command", async () => {
    const missing = Object.assign(new Error("Cannot find package 'better-sqlite3' imported from /app/x.js"), { code: "ERR_MODULE_NOT_FOUND" });
    const error = await openFailure({ dataDir: path.join(temporary, "missing"), driver: "better-sqlite3", driverLoaders: failingDriver(missing) });
    expect(error).toBeInstanceOf(SdkError);
    expect(error).toMatchObject({ code: "storage", details: { reason: "driver_missing", transient: false, package: "better-sqlite3", version: "12" } });
    expect(error.message).toBe("openSqliteStorage needs the optional package better-sqlite3: npm install better-sqlite3@12");
  });

  it("a native module that was never built is driver_unloadable with the nodedir hint", async () => {
    const error = await openFailure({
      dataDir: path.join(temporary, "unbuilt"),
      driver: "better-sqlite3",
      driverLoaders: failingDriver(new Error("Could not locate the bindings file. Tried: ...")),
    });
    expect(error.details).toMatchObject({ reason: "driver_unloadable", transient: false, nodedirHint: true });
    expect(error.message).toMatch(/^openSqliteStorage cannot load better-sqlite3: Could not locate the bindings file/);
  });

  it("a native module built for another Node is driver_unloadable without the nodedir hint", () => {
    const failure = classifyDriverError(new Error("was compiled against a different Node.js version using NODE_MODULE_VERSION 115"), undefined);
    expect(failure).toEqual({ reason: "driver_unloadable", nodedirHint: false });
  });

  it("Bun and Deno are unsupported_runtime", () => {
    expect(classifyDriverError(new Error("'better-sqlite3' is not yet supported in Bun."), undefined)).toEqual({
      reason: "unsupported_runtime",
      runtime: "Bun",
    });
    expect(classifyDriverError(new Error("whatever the addon says"), "Deno")).toEqual({ reason: "unsupported_runtime", runtime: "Deno" });
  });

  it("a dataDir under a regular file is data_dir_unwritable", async () => {
    const file = path.join(temporary, "a-file");
    fs.writeFileSync(file, "not a directory");
    const error = await openFailure({ dataDir: path.join(file, "data") });
    expect(error).toMatchObject({ code: "storage", details: { reason: "data_dir_unwritable", transient: false } });
    expect(error.message).toContain("Cannot create the directory of the SQLite database");
  });

  it("only a lock held past the deadline is transient", () => {
    expect(classifyDatabaseError(Object.assign(new Error("database is locked"), { code: "SQLITE_BUSY" }))).toEqual({ reason: "busy" });
    expect(classifyDatabaseError(Object.assign(new Error("readonly"), { code: "SQLITE_READONLY_DIRECTORY" }))).toEqual({ reason: "data_dir_unwritable" });
    expect(classifyDatabaseError(Object.assign(new Error("disk I/O error"), { code: "SQLITE_IOERR" }))).toEqual({ reason: "other" });
  });

  it("still opens with the real driver", async () => {
    const storage = await openSqliteStorage({ dataDir: path.join(temporary, "works"), driver: "better-sqlite3" });
    await storage.close();
  });
});
