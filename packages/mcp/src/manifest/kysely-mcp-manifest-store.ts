import type { McpManifest, McpManifestStore } from "@agent-tools/core/mcp";
import type { Storage, StorageMigration } from "@agent-tools/storage";
import type { Kysely } from "kysely";
import { MAX_MCP_MANIFESTS_PER_SERVER, MAX_STORED_MCP_MANIFEST_BYTES, parseStoredMcpManifest } from "./mcp-manifest-schema.js";

/** The storage namespace (migration history) of the MCP manifest store. */
export const MCP_MANIFEST_STORAGE_NAMESPACE = "mcp_manifests";

/** The table holding the manifests, one row per (server id, configuration hash), up to 16 per server. */
export const MCP_MANIFEST_TABLE = "agent_tools_mcp_manifests";

interface McpManifestTable {
  server_id: string;
  config_hash: string;
  /** Epoch ms (bigint: PostgreSQL hands it back as a string). */
  fetched_at: number | string;
  /** The manifest as JSON, validated on read. */
  body: string;
}

interface McpManifestDatabase {
  [MCP_MANIFEST_TABLE]: McpManifestTable;
}

/** The schema steps of the MCP manifest store, in order. */
export const MCP_MANIFEST_STORAGE_MIGRATIONS: readonly StorageMigration[] = [
  {
    name: "0001-create-mcp-manifests",
    async up(db) {
      await db.schema
        .createTable(MCP_MANIFEST_TABLE)
        .addColumn("server_id", "text", (column) => column.notNull())
        .addColumn("config_hash", "text", (column) => column.notNull())
        .addColumn("fetched_at", "bigint", (column) => column.notNull())
        .addColumn("body", "text", (column) => column.notNull())
        .addPrimaryKeyConstraint(`${MCP_MANIFEST_TABLE}_pk`, ["server_id", "config_hash"])
        .execute();
    },
  },
];

/**
 * An {@link McpManifestStore} on a `Storage` (the embedded SQLite file or
 * PostgreSQL, same code): one row per (server, configuration hash),
 * replaced in one statement by each `put`, so concurrent writers leave one
 * whole manifest; a server keeps its 16 newest rows by `fetchedAt` (each put
 * drops the older ones). A row that is not valid JSON of a manifest, or whose
 * hash is not the one asked for, reads as a miss (never an error). A manifest
 * over 4 MiB of JSON is not stored: `put` drops that (server, hash) row
 * instead, so the next build lists the server live. The store does not own the storage: close the storage yourself.
 *
 * @example
 * const storage = await openSqliteStorage({ dataDir });
 * const manifestCache = await KyselyMcpManifestStore.open(storage);
 */
export class KyselyMcpManifestStore implements McpManifestStore {
  readonly #db: Kysely<McpManifestDatabase>;

  private constructor(storage: Storage) {
    this.#db = storage.db as Kysely<McpManifestDatabase>;
  }

  /** Applies the store's migrations (namespace `mcp_manifests`), then returns the store. */
  static async open(storage: Storage): Promise<KyselyMcpManifestStore> {
    await storage.migrate(MCP_MANIFEST_STORAGE_NAMESPACE, MCP_MANIFEST_STORAGE_MIGRATIONS);
    return new KyselyMcpManifestStore(storage);
  }

  /** {@inheritDoc McpManifestStore.get} */
  async get(serverId: string, configHash: string): Promise<McpManifest | undefined> {
    const row = await this.#db
      .selectFrom(MCP_MANIFEST_TABLE)
      .select(["config_hash", "body"])
      .where("server_id", "=", serverId)
      .where("config_hash", "=", configHash)
      .executeTakeFirst();
    if (row === undefined || row.config_hash !== configHash) return undefined;
    return parseStoredMcpManifest(row.body, serverId, configHash);
  }

  /** {@inheritDoc McpManifestStore.put} */
  async put(manifest: McpManifest): Promise<void> {
    const body = JSON.stringify(manifest);
    if (Buffer.byteLength(body, "utf8") > MAX_STORED_MCP_MANIFEST_BYTES) {
      // Too large to cache: forget this configuration's older manifest too, so no stale listing outlives this one.
      await this.#db.deleteFrom(MCP_MANIFEST_TABLE).where("server_id", "=", manifest.serverId).where("config_hash", "=", manifest.configHash).execute();
      return;
    }
    const fetchedAt = Number.isFinite(manifest.fetchedAt) ? Math.trunc(manifest.fetchedAt) : 0;
    const row = { fetched_at: fetchedAt, body };
    // One upsert keyed by (server_id, config_hash): atomic on both dialects, so the row is always one writer's whole manifest.
    await this.#db
      .insertInto(MCP_MANIFEST_TABLE)
      .values({ server_id: manifest.serverId, config_hash: manifest.configHash, ...row })
      .onConflict((conflict) => conflict.columns(["server_id", "config_hash"]).doUpdateSet(row))
      .execute();
    // Keep the server's newest rows (by fetched_at; of equals, by hash) and drop the rest.
    await this.#db
      .deleteFrom(MCP_MANIFEST_TABLE)
      .where("server_id", "=", manifest.serverId)
      .where("config_hash", "not in", (db) =>
        db
          .selectFrom(MCP_MANIFEST_TABLE)
          .select("config_hash")
          .where("server_id", "=", manifest.serverId)
          .orderBy("fetched_at", "desc")
          .orderBy("config_hash", "desc")
          .limit(MAX_MCP_MANIFESTS_PER_SERVER),
      )
      .execute();
  }

  /** {@inheritDoc McpManifestStore.delete} */
  async delete(serverId: string): Promise<void> {
    await this.#db.deleteFrom(MCP_MANIFEST_TABLE).where("server_id", "=", serverId).execute();
  }
}
