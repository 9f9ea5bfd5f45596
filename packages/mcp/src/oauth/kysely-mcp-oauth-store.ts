import type { Storage, StorageMigration } from "@agent-tools/storage";
import type { Kysely } from "kysely";
import type { McpOAuthStore, McpOAuthStoreKey } from "./mcp-oauth-store.js";

/** The storage namespace (migration history) of the MCP OAuth store. */
export const MCP_OAUTH_STORAGE_NAMESPACE = "mcp_oauth";

/** The table holding one credential record per server id and URL. */
export const MCP_OAUTH_TABLE = "agent_tools_mcp_oauth";

interface McpOAuthTable {
  server_id: string;
  server_url: string;
  value: string;
  updated_at: string;
}

interface McpOAuthDatabase {
  [MCP_OAUTH_TABLE]: McpOAuthTable;
}

/** The schema steps of the MCP OAuth store, in order. */
export const MCP_OAUTH_STORAGE_MIGRATIONS: readonly StorageMigration[] = [
  {
    name: "0001-create-mcp-oauth",
    async up(db) {
      await db.schema
        .createTable(MCP_OAUTH_TABLE)
        .addColumn("server_id", "text", (column) => column.notNull())
        .addColumn("server_url", "text", (column) => column.notNull())
        .addColumn("value", "text", (column) => column.notNull())
        .addColumn("updated_at", "text", (column) => column.notNull())
        .addPrimaryKeyConstraint("agent_tools_mcp_oauth_pk", ["server_id", "server_url"])
        .execute();
    },
  },
];

/**
 * An {@link McpOAuthStore} on a `Storage` (the embedded SQLite file or
 * PostgreSQL, same code). The store does not own the storage: close the
 * storage yourself.
 *
 * @example
 * const storage = await openSqliteStorage({ dataDir });
 * const store = await KyselyMcpOAuthStore.open(storage);
 */
export class KyselyMcpOAuthStore implements McpOAuthStore {
  readonly #db: Kysely<McpOAuthDatabase>;

  private constructor(storage: Storage) {
    this.#db = storage.db as Kysely<McpOAuthDatabase>;
  }

  /** Applies the store's migrations (namespace `mcp_oauth`), then returns the store. */
  static async open(storage: Storage): Promise<KyselyMcpOAuthStore> {
    await storage.migrate(MCP_OAUTH_STORAGE_NAMESPACE, MCP_OAUTH_STORAGE_MIGRATIONS);
    return new KyselyMcpOAuthStore(storage);
  }

  /** {@inheritDoc McpOAuthStore.load} */
  async load(key: McpOAuthStoreKey): Promise<string | undefined> {
    const row = await this.#db
      .selectFrom(MCP_OAUTH_TABLE)
      .select("value")
      .where("server_id", "=", key.serverId)
      .where("server_url", "=", key.serverUrl)
      .executeTakeFirst();
    return row?.value;
  }

  /** {@inheritDoc McpOAuthStore.save} */
  async save(key: McpOAuthStoreKey, value: string): Promise<void> {
    const updatedAt = new Date().toISOString();
    await this.#db
      .insertInto(MCP_OAUTH_TABLE)
      .values({ server_id: key.serverId, server_url: key.serverUrl, value, updated_at: updatedAt })
      .onConflict((conflict) => conflict.columns(["server_id", "server_url"]).doUpdateSet({ value, updated_at: updatedAt }))
      .execute();
  }

  /** {@inheritDoc McpOAuthStore.delete} */
  async delete(key: { readonly serverId: string; readonly serverUrl?: string }): Promise<void> {
    let query = this.#db.deleteFrom(MCP_OAUTH_TABLE).where("server_id", "=", key.serverId);
    if (key.serverUrl !== undefined) query = query.where("server_url", "=", key.serverUrl);
    await query.execute();
  }
}
