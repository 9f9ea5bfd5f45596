import type { Storage, StorageDialect } from "@agent-tools/storage";
import { type Kysely, type RawBuilder, sql } from "kysely";
import type { SubagentIdentity, SubagentMessage, SubagentRunRecord } from "../domain/subagent-types.js";
import { DEFAULT_SUBAGENT_MESSAGE_LIST_LIMIT, DEFAULT_SUBAGENT_RUN_LIST_LIMIT, normaliseCount } from "../ports/in-memory-subagent-store.js";
import type { NewSubagentMessage, SubagentStore } from "../ports/subagent-store.js";
import { SUBAGENT_STORAGE_MIGRATIONS, SUBAGENT_STORAGE_NAMESPACE } from "./subagent-migrations.js";
import {
  SUBAGENT_IDENTITIES_TABLE,
  SUBAGENT_MESSAGES_TABLE,
  SUBAGENT_MESSAGE_COUNTERS_TABLE,
  SUBAGENT_RUNS_TABLE,
  type SubagentDatabase,
  type SubagentMessageRow,
  identityToRow,
  rowToIdentity,
  rowToMessage,
  rowToRun,
  runToRow,
} from "./subagent-rows.js";

/**
 * A {@link SubagentStore} on a core `Storage`: the embedded SQLite file or
 * PostgreSQL, same code. `appendMessage` takes its seq from a per-conversation
 * counter row, incremented with `insert ... on conflict do update ...
 * returning` inside the transaction that inserts the message: the row's
 * write lock serialises appenders of one conversation (across pools and
 * processes) until commit, so seqs are unique, gapless and become visible in
 * order. The store does not own the storage: close the storage yourself.
 *
 * @example
 * const storage = await openSqliteStorage({ dataDir });
 * const store = await KyselySubagentStore.open(storage);
 * await store.appendMessage("conversation-1", { senderId: "parent", recipientId: "*", channel: "shared", body: "hello" });
 */
export class KyselySubagentStore implements SubagentStore {
  readonly #db: Kysely<SubagentDatabase>;
  readonly #dialect: StorageDialect;

  private constructor(storage: Storage) {
    this.#db = storage.db as Kysely<SubagentDatabase>;
    this.#dialect = storage.dialect;
  }

  /** Applies the package's migrations (namespace `subagents`), then returns the store. */
  static async open(storage: Storage): Promise<KyselySubagentStore> {
    await storage.migrate(SUBAGENT_STORAGE_NAMESPACE, SUBAGENT_STORAGE_MIGRATIONS);
    return new KyselySubagentStore(storage);
  }

  /** A text column compared in byte order (PostgreSQL's default collation may be a locale's). */
  #byteOrder(column: string): RawBuilder<unknown> {
    return this.#dialect === "postgres" ? sql`${sql.ref(column)} collate "C"` : sql`${sql.ref(column)}`;
  }

  /** {@inheritDoc SubagentStore.upsertIdentity} */
  async upsertIdentity(conversationId: string, identity: SubagentIdentity): Promise<void> {
    await this.#db
      .insertInto(SUBAGENT_IDENTITIES_TABLE)
      .values(identityToRow(conversationId, identity))
      // Everything but `id`: the identity keeps the case it was created with.
      .onConflict((conflict) =>
        conflict.columns(["conversation_id", "id_key"]).doUpdateSet((update) => ({
          name: update.ref("excluded.name"),
          role: update.ref("excluded.role"),
          identity_prompt: update.ref("excluded.identity_prompt"),
          template_id: update.ref("excluded.template_id"),
          last_mode: update.ref("excluded.last_mode"),
          created_at: update.ref("excluded.created_at"),
          updated_at: update.ref("excluded.updated_at"),
        })),
      )
      .execute();
  }

  /** {@inheritDoc SubagentStore.listIdentities} */
  async listIdentities(conversationId: string): Promise<readonly SubagentIdentity[]> {
    const rows = await this.#db
      .selectFrom(SUBAGENT_IDENTITIES_TABLE)
      .selectAll()
      .where("conversation_id", "=", conversationId)
      .orderBy(this.#byteOrder("id"))
      .execute();
    return rows.map(rowToIdentity);
  }

  /** {@inheritDoc SubagentStore.saveRun} */
  async saveRun(conversationId: string, run: SubagentRunRecord): Promise<void> {
    const { conversation_id: _conversation, run_id: _run, ...changes } = runToRow(conversationId, run);
    await this.#db
      .insertInto(SUBAGENT_RUNS_TABLE)
      .values(runToRow(conversationId, run))
      .onConflict((conflict) => conflict.columns(["conversation_id", "run_id"]).doUpdateSet(changes))
      .execute();
  }

  /** {@inheritDoc SubagentStore.loadRun} */
  async loadRun(conversationId: string, runId: string): Promise<SubagentRunRecord | undefined> {
    const row = await this.#db
      .selectFrom(SUBAGENT_RUNS_TABLE)
      .selectAll()
      .where("conversation_id", "=", conversationId)
      .where("run_id", "=", runId)
      .executeTakeFirst();
    return row === undefined ? undefined : rowToRun(row);
  }

  /** {@inheritDoc SubagentStore.listRuns} */
  async listRuns(
    conversationId: string,
    options: { readonly agentId?: string; readonly limit?: number; readonly withMessages?: boolean } = {},
  ): Promise<readonly SubagentRunRecord[]> {
    let query = this.#db
      .selectFrom(SUBAGENT_RUNS_TABLE)
      .select([
        "conversation_id",
        "run_id",
        "agent_id",
        "agent_key",
        "status",
        "mode",
        "prompt",
        "context_schema_version",
        "rounds",
        "tool_calls",
        "summary",
        "error",
        "worktree_path",
        "started_at",
        "updated_at",
        "ended_at",
      ])
      .$if(options.withMessages !== false, (builder) => builder.select("messages_json"))
      .where("conversation_id", "=", conversationId);
    if (options.agentId !== undefined) query = query.where("agent_key", "=", options.agentId.toLowerCase());
    const rows = await query
      .orderBy("started_at", "desc")
      .orderBy(sql`${this.#byteOrder("run_id")} desc`)
      .limit(normaliseCount(options.limit, DEFAULT_SUBAGENT_RUN_LIST_LIMIT))
      .execute();
    return rows.map(rowToRun);
  }

  /** {@inheritDoc SubagentStore.pruneRuns} */
  async pruneRuns(conversationId: string, keepPerAgent: number): Promise<number> {
    const keep = normaliseCount(keepPerAgent, 0);
    const ranked = sql`(select run_id from (
        select run_id, row_number() over (partition by agent_key order by started_at desc, ${this.#byteOrder("run_id")} desc) as position
        from ${sql.table(SUBAGENT_RUNS_TABLE)} where conversation_id = ${conversationId}
      ) ranked where position > ${keep})`;
    const result = await this.#db
      .deleteFrom(SUBAGENT_RUNS_TABLE)
      .where("conversation_id", "=", conversationId)
      .where(sql<boolean>`run_id in ${ranked}`)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /** {@inheritDoc SubagentStore.appendMessage} */
  async appendMessage(conversationId: string, message: NewSubagentMessage): Promise<SubagentMessage> {
    const createdAt = message.createdAt ?? Date.now();
    return this.#db.transaction().execute(async (transaction) => {
      // The first statement writes, so SQLite takes its write lock at once (a deferred transaction
      // that read first could fail to upgrade); on PostgreSQL the counter row stays locked until commit.
      const counter = await transaction
        .insertInto(SUBAGENT_MESSAGE_COUNTERS_TABLE)
        .values({ conversation_id: conversationId, last_seq: 1 })
        .onConflict((conflict) =>
          conflict.column("conversation_id").doUpdateSet((update) => ({ last_seq: update(`${SUBAGENT_MESSAGE_COUNTERS_TABLE}.last_seq`, "+", 1) })),
        )
        .returning("last_seq")
        .executeTakeFirstOrThrow();
      const row: SubagentMessageRow = {
        conversation_id: conversationId,
        seq: Number(counter.last_seq),
        sender_id: message.senderId,
        recipient_id: message.recipientId,
        channel: message.channel,
        subject: message.subject ?? null,
        body: message.body,
        source_run_id: message.sourceRunId ?? null,
        source_tool_call_id: message.sourceToolCallId ?? null,
        created_at: createdAt,
      };
      await transaction.insertInto(SUBAGENT_MESSAGES_TABLE).values(row).execute();
      return rowToMessage(row);
    });
  }

  /** {@inheritDoc SubagentStore.listMessages} */
  async listMessages(conversationId: string, options: { readonly afterSeq?: number; readonly limit?: number } = {}): Promise<readonly SubagentMessage[]> {
    const rows = await this.#db
      .selectFrom(SUBAGENT_MESSAGES_TABLE)
      .selectAll()
      .where("conversation_id", "=", conversationId)
      .where("seq", ">", options.afterSeq ?? 0)
      .orderBy("seq", "asc")
      .limit(normaliseCount(options.limit, DEFAULT_SUBAGENT_MESSAGE_LIST_LIMIT))
      .execute();
    return rows.map(rowToMessage);
  }

  /** Opens nothing of its own, so releases nothing: the storage stays open for its owner to close. */
  async close(): Promise<void> {}
}
