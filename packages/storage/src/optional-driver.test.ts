import { SdkError } from "@agent-tools/core";
import { describe, expect, it } from "vitest";
import { BETTER_SQLITE3_DRIVER, PG_DRIVER, loadOptionalDriver } from "./optional-driver.js";

// What Node's import() rejects with when a package is not installed.
const notFound = (name: string) =>
  Object.assign(new Error(`Cannot find package '${name}' imported from /app/node_modules/@agent-tools/storage/dist/open-sqlite-storage.js`), {
    code: "ERR_MODULE_NOT_FOUND",
  });

describe("optional drivers", () => {
  it("names better-sqlite3 and how to install it when it is missing", async () => {
    const error = await loadOptionalDriver({ ...BETTER_SQLITE3_DRIVER, load: () => Promise.reject(notFound("better-sqlite3")) }, "openSqliteStorage").catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(SdkError);
    expect(error).toMatchObject({ code: "storage", details: { package: "better-sqlite3", version: "12" } });
    expect((error as Error).message).toBe("openSqliteStorage needs the optional package better-sqlite3: npm install better-sqlite3@12");
  });

  it("names pg when it is missing", async () => {
    await expect(loadOptionalDriver({ ...PG_DRIVER, load: () => Promise.reject(notFound("pg")) }, "openPostgresStorage")).rejects.toThrow(
      "openPostgresStorage needs the optional package pg: npm install pg@8.23.1",
    );
  });

  it("passes on other failures (a missing dependency of the driver is not the driver missing)", async () => {
    await expect(loadOptionalDriver({ ...PG_DRIVER, load: () => Promise.reject(notFound("pg-pool")) }, "openPostgresStorage")).rejects.toThrow(
      "Cannot find package 'pg-pool'",
    );
  });

  it("loads an installed driver", async () => {
    const module = await loadOptionalDriver(BETTER_SQLITE3_DRIVER, "openSqliteStorage");
    expect(typeof module.default).toBe("function");
  });
});
