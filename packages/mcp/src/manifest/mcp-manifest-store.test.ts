import path from "node:path";
import { openSqliteStorage } from "@agent-tools/storage";
import { openPostgresStorage } from "@agent-tools/storage";
import { createStoreTestBackends } from "@agent-tools/storage/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runMcpManifestStoreContract, sampleManifest } from "./__fixtures__/mcp-manifest-store-contract.js";
import { InMemoryMcpManifestStore } from "./in-memory-mcp-manifest-store.js";
import { KyselyMcpManifestStore, MCP_MANIFEST_TABLE } from "./kysely-mcp-manifest-store.js";
import { MAX_STORED_MCP_MANIFEST_BYTES } from "./mcp-manifest-schema.js";
import type { Storage } from "@agent-tools/storage";

const backends = createStoreTestBackends("agent-tools-mcp-manifest-store-");
let counter = 0;
beforeAll(() => backends.start(), 120_000);
afterAll(() => backends.stop(), 60_000);

async function openKysely(storage: Storage) {
  const store = await KyselyMcpManifestStore.open(storage);
  return {
    store,
    async corrupt(serverId: string, body: string) {
      await storage.db.updateTable(MCP_MANIFEST_TABLE).set({ body }).where("server_id", "=", serverId).execute();
    },
    close: () => storage.close(),
  };
}

runMcpManifestStoreContract({
  name: "in-memory",
  corruptible: false,
  open: async () => ({ store: new InMemoryMcpManifestStore(), close: async () => undefined }),
});
for (const sqlite of backends.sqlite) {
  runMcpManifestStoreContract({
    name: `Kysely on ${sqlite.label}`,
    corruptible: true,
    async open() {
      counter += 1;
      return openKysely(await sqlite.open({ dataDir: path.join(backends.temporary, `sqlite-${counter}`) }));
    },
  });
}
runMcpManifestStoreContract({
  name: "Kysely on PostgreSQL (real server)",
  corruptible: true,
  async open() {
    return openKysely(await openPostgresStorage({ connectionString: await backends.cluster().createDatabase("mcp_manifests") }));
  },
});

describe("KyselyMcpManifestStore on the SQLite file", () => {
  it("keeps manifests across reopening the file, one row per server and configuration hash", async () => {
    const dataDir = path.join(backends.temporary, "reopen");
    const manifest = sampleManifest("docs", "h1", "a");
    const first = await openSqliteStorage({ dataDir });
    await (await KyselyMcpManifestStore.open(first)).put(manifest);
    await (await KyselyMcpManifestStore.open(first)).put(sampleManifest("docs", "h2", "b"));
    await (await KyselyMcpManifestStore.open(first)).put(manifest);
    const rows = await first.db.selectFrom(MCP_MANIFEST_TABLE).select(["server_id", "config_hash"]).orderBy("config_hash").execute();
    expect(rows).toEqual([
      { server_id: "docs", config_hash: "h1" },
      { server_id: "docs", config_hash: "h2" },
    ]);
    await first.close();
    const second = await openSqliteStorage({ dataDir });
    try {
      expect(await (await KyselyMcpManifestStore.open(second)).get("docs", "h1")).toEqual(manifest);
    } finally {
      await second.close();
    }
  });

  it("does not store a manifest over 4 MiB of JSON and drops the older row of that hash (not the server's other hashes)", async () => {
    const storage = await openSqliteStorage({ dataDir: path.join(backends.temporary, "oversize") });
    try {
      const store = await KyselyMcpManifestStore.open(storage);
      await store.put(sampleManifest("docs", "h1", "a"));
      const otherHash = sampleManifest("docs", "h2", "b");
      await store.put(otherHash);
      const huge = sampleManifest("docs", "h1", "big", 1);
      huge.tools[0]!.description = "x".repeat(MAX_STORED_MCP_MANIFEST_BYTES);
      await store.put(huge);
      expect(await store.get("docs", "h1")).toBeUndefined();
      expect(await storage.db.selectFrom(MCP_MANIFEST_TABLE).select("config_hash").execute()).toEqual([{ config_hash: "h2" }]);
      expect(await store.get("docs", "h2")).toEqual(otherHash);
      const justUnder = sampleManifest("docs", "h1", "fits", 1);
      justUnder.tools[0]!.description = "";
      const overhead = Buffer.byteLength(JSON.stringify(justUnder), "utf8");
      justUnder.tools[0]!.description = "y".repeat(MAX_STORED_MCP_MANIFEST_BYTES - overhead);
      await store.put(justUnder);
      expect(await store.get("docs", "h1")).toEqual(justUnder);
    } finally {
      await storage.close();
    }
  });
});
