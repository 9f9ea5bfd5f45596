import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { SdkError, createResourceHub } from "@agent-tools/core";
import type { McpManifestStore } from "@agent-tools/core/mcp";
import { openSqliteStorage } from "@agent-tools/storage";
import { afterAll, describe, expect, it } from "vitest";
import { recordingLogger } from "../__fixtures__/test-servers.js";
import { mcpTools } from "../mcp-tools-plugin.js";
import { sampleManifest } from "./__fixtures__/mcp-manifest-store-contract.js";
import { checkMcpManifestCacheOption, degradingMcpManifestStore, resolveMcpManifestCache } from "./default-mcp-manifest-store.js";
import { InMemoryMcpManifestStore } from "./in-memory-mcp-manifest-store.js";
import { MCP_MANIFEST_TABLE } from "./kysely-mcp-manifest-store.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const repositoryRoot = path.resolve(here, "../../../..");
const temporary = fs.mkdtempSync(path.join(os.tmpdir(), "agent-tools-mcp-default-manifest-"));
afterAll(() => fs.rmSync(temporary, { recursive: true, force: true }));

const getSettings = () => ({ servers: [], selected: [] });

describe("mcp.manifestCache option", () => {
  it("takes undefined, false and any object with get, put and delete", () => {
    for (const value of [undefined, false, new InMemoryMcpManifestStore(), { get: async () => undefined, put: async () => {}, delete: async () => {} }]) {
      expect(() => checkMcpManifestCacheOption(value, "mcp.manifestCache")).not.toThrow();
      expect(() => mcpTools({ getSettings, manifestCache: value as McpManifestStore | false | undefined })).not.toThrow();
    }
  });

  it("fails closed on anything else, naming mcp.manifestCache, what is missing and a valid value", () => {
    const cases: Array<[unknown, RegExp, string]> = [
      [true, /not true\.$/, "false"],
      ["sqlite", /not "sqlite"\.$/, "new InMemoryMcpManifestStore()"],
      [null, /not null\.$/, "new InMemoryMcpManifestStore()"],
      [[], /not an array\.$/, "new InMemoryMcpManifestStore()"],
      [{ get: async () => undefined, put: async () => {} }, /it has no delete function\)\.$/, "new InMemoryMcpManifestStore()"],
      [{ get: 1 }, /it has no get, put, delete functions\)\.$/, "new InMemoryMcpManifestStore()"],
    ];
    for (const [value, message, suggestion] of cases) {
      const error = (() => {
        try {
          mcpTools({ getSettings, manifestCache: value as false });
        } catch (thrown) {
          return thrown;
        }
        return undefined;
      })();
      expect(error, JSON.stringify(value)).toBeInstanceOf(SdkError);
      expect((error as SdkError).code).toBe("invalid_options");
      expect((error as SdkError).message).toMatch(/^mcp\.manifestCache must be false or an McpManifestStore/);
      expect((error as SdkError).message).toMatch(message);
      expect((error as SdkError).details).toMatchObject({ option: "mcp.manifestCache", suggestion });
    }
  });
});

describe("resolveMcpManifestCache", () => {
  it("keeps false and passes a host's store through", () => {
    const host = { dataDir: path.join(temporary, "unused"), resources: createResourceHub() };
    const store = new InMemoryMcpManifestStore();
    expect(resolveMcpManifestCache(false, host)).toBe(false);
    expect(resolveMcpManifestCache(store, host)).toBe(store);
    expect(fs.existsSync(host.dataDir)).toBe(false);
  });

  it("defaults to the SQLite file of the host's data directory, opened on first use and closed with the hub", async () => {
    const dataDir = path.join(temporary, "default");
    const resources = createResourceHub();
    const logger = recordingLogger();
    const store = resolveMcpManifestCache(undefined, { dataDir, resources, logger });
    expect(store).not.toBe(false);
    const cache = store as McpManifestStore;
    expect(fs.existsSync(dataDir)).toBe(false);
    const manifest = sampleManifest("docs", "h1", "a");
    await cache.put(manifest);
    expect(await cache.get("docs", "h1")).toEqual(manifest);
    await resources.close();
    const storage = await openSqliteStorage({ dataDir });
    try {
      expect(await storage.db.selectFrom(MCP_MANIFEST_TABLE).select(["server_id", "config_hash"]).execute()).toEqual([
        { server_id: "docs", config_hash: "h1" },
      ]);
    } finally {
      await storage.close();
    }
    // A second registry (another hub) on the same directory reads what the first stored.
    const later = createResourceHub();
    try {
      expect(await (resolveMcpManifestCache(undefined, { dataDir, resources: later, logger }) as McpManifestStore).get("docs", "h1")).toEqual(manifest);
    } finally {
      await later.close();
    }
    expect(logger.warnings).toEqual([]);
  });

  it("degrades to no cache with one warning when the data directory cannot hold the file", async () => {
    const file = path.join(temporary, "a-file");
    fs.writeFileSync(file, "not a directory");
    const resources = createResourceHub();
    const logger = recordingLogger();
    const cache = resolveMcpManifestCache(undefined, { dataDir: path.join(file, "data"), resources, logger }) as McpManifestStore;
    try {
      await cache.put(sampleManifest("docs", "h1", "a"));
      expect(await cache.get("docs", "h1")).toBeUndefined();
      await cache.delete("docs");
      expect(await cache.get("docs", "h1")).toBeUndefined();
      expect(logger.warnings).toHaveLength(1);
      expect(logger.warnings[0]).toMatch(/^MCP manifest cache: the default SQLite store could not be opened \(/);
      expect(logger.warnings[0]).toContain("mcp.manifestCache");
    } finally {
      await resources.close();
    }
  });

  it("without the SQLite driver (better-sqlite3 not installed, Node 20), caches nothing, warns once and does not fail", async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [
        "--import",
        "tsx",
        "--import",
        path.join(repositoryRoot, "packages/sdk/src/__fixtures__/without-better-sqlite3.mjs"),
        "--conditions=@agent-tools/source",
        path.join(here, "__fixtures__", "default-store-process.mjs"),
        path.join(temporary, "no-driver"),
      ],
      { cwd: repositoryRoot, timeout: 60_000, env: { ...process.env, AGENT_TOOLS_SIMULATE: "missing" } },
    );
    const { got, warnings } = JSON.parse(stdout.trim().split("\n").at(-1)!) as { got: unknown; warnings: string[] };
    expect(got).toBeNull();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain("better-sqlite3");
  }, 90_000);
});

describe("degradingMcpManifestStore", () => {
  it("opens once; a failing opener means misses, no-op writes and a single warning", async () => {
    const logger = recordingLogger();
    let opens = 0;
    const store = degradingMcpManifestStore(async () => {
      opens += 1;
      throw new Error("driver missing");
    }, logger);
    await Promise.all([store.get("a", "h"), store.put(sampleManifest("a", "h", "x")), store.delete("a")]);
    expect(await store.get("a", "h")).toBeUndefined();
    expect(opens).toBe(1);
    expect(logger.warnings).toEqual([
      "MCP manifest cache: the default SQLite store could not be opened (driver missing); servers' tools are listed live at each registry build. Give mcp.manifestCache a store (or false to turn the cache off).",
    ]);
  });

  it("passes calls to the opened store, and turns its failures into misses with one warning", async () => {
    const logger = recordingLogger();
    const inner = new InMemoryMcpManifestStore();
    let failing = false;
    const flaky: McpManifestStore = {
      get: (serverId, hash) => (failing ? Promise.reject(new Error("SQLITE_BUSY")) : inner.get(serverId, hash)),
      put: (manifest) => (failing ? Promise.reject(new Error("SQLITE_BUSY")) : inner.put(manifest)),
      delete: (serverId) => inner.delete(serverId),
    };
    const store = degradingMcpManifestStore(async () => flaky, logger);
    const manifest = sampleManifest("a", "h", "x");
    await store.put(manifest);
    expect(await store.get("a", "h")).toEqual(manifest);
    failing = true;
    expect(await store.get("a", "h")).toBeUndefined();
    await store.put(manifest);
    expect(logger.warnings).toHaveLength(1);
    expect(logger.warnings[0]).toContain("a read failed (SQLITE_BUSY)");
    failing = false;
    await store.delete("a");
    expect(await inner.get("a", "h")).toBeUndefined();
  });
});
