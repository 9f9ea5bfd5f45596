import type { SubagentIdentity, SubagentMessage, SubagentRunRecord } from "../domain/subagent-types.js";
import type { NewSubagentMessage, SubagentStore } from "./subagent-store.js";

/** Runs listed when `listRuns` gets no `limit`. */
export const DEFAULT_SUBAGENT_RUN_LIST_LIMIT = 50;
/** Messages listed when `listMessages` gets no `limit`. */
export const DEFAULT_SUBAGENT_MESSAGE_LIST_LIMIT = 80;

/** Everything one parent conversation holds. */
interface ConversationState {
  /** By lower-cased id. */
  readonly identities: Map<string, SubagentIdentity>;
  /** By run id. */
  readonly runs: Map<string, SubagentRunRecord>;
  readonly messages: SubagentMessage[];
  lastSeq: number;
}

/** Byte-order comparison (not `localeCompare`), as the stores sort ids. */
export function compareSubagentKeys(left: string, right: string): number {
  return left < right ? -1 : left > right ? 1 : 0;
}

/** Newest `startedAt` first; on a tie the larger run id first, so every store lists in one order. */
export function compareRunsNewestFirst(left: SubagentRunRecord, right: SubagentRunRecord): number {
  return right.startedAt - left.startedAt || compareSubagentKeys(right.runId, left.runId);
}

/** A whole, non-negative count from a caller's limit (`fallback` when absent). */
export function normaliseCount(value: number | undefined, fallback: number): number {
  if (value === undefined || Number.isNaN(value)) return fallback;
  return Math.max(0, Math.floor(value));
}

/**
 * A {@link SubagentStore} in memory: for tests and hosts that keep nothing
 * across restarts. Values are deep-copied on the way in and out, so callers
 * can never change stored state by mutating what they passed or got back.
 *
 * @example
 * const store = new InMemorySubagentStore();
 * const message = await store.appendMessage("conversation-1", { senderId: "parent", recipientId: "*", channel: "shared", body: "hello" });
 * message.seq; // 1
 */
export class InMemorySubagentStore implements SubagentStore {
  readonly #conversations = new Map<string, ConversationState>();

  #conversation(conversationId: string): ConversationState {
    let state = this.#conversations.get(conversationId);
    if (state === undefined) {
      state = { identities: new Map(), runs: new Map(), messages: [], lastSeq: 0 };
      this.#conversations.set(conversationId, state);
    }
    return state;
  }

  /** {@inheritDoc SubagentStore.upsertIdentity} */
  async upsertIdentity(conversationId: string, identity: SubagentIdentity): Promise<void> {
    const identities = this.#conversation(conversationId).identities;
    const key = identity.id.toLowerCase();
    const existing = identities.get(key);
    identities.set(key, structuredClone({ ...identity, id: existing?.id ?? identity.id }));
  }

  /** {@inheritDoc SubagentStore.listIdentities} */
  async listIdentities(conversationId: string): Promise<readonly SubagentIdentity[]> {
    const identities = [...(this.#conversations.get(conversationId)?.identities.values() ?? [])];
    return structuredClone(identities.sort((left, right) => compareSubagentKeys(left.id, right.id)));
  }

  /** {@inheritDoc SubagentStore.saveRun} */
  async saveRun(conversationId: string, run: SubagentRunRecord): Promise<void> {
    this.#conversation(conversationId).runs.set(run.runId, structuredClone(run));
  }

  /** {@inheritDoc SubagentStore.loadRun} */
  async loadRun(conversationId: string, runId: string): Promise<SubagentRunRecord | undefined> {
    const run = this.#conversations.get(conversationId)?.runs.get(runId);
    return run === undefined ? undefined : structuredClone(run);
  }

  /** {@inheritDoc SubagentStore.listRuns} */
  async listRuns(
    conversationId: string,
    options: { readonly agentId?: string; readonly limit?: number; readonly withMessages?: boolean } = {},
  ): Promise<readonly SubagentRunRecord[]> {
    const agentKey = options.agentId?.toLowerCase();
    const runs = [...(this.#conversations.get(conversationId)?.runs.values() ?? [])]
      .filter((run) => agentKey === undefined || run.agentId.toLowerCase() === agentKey)
      .sort(compareRunsNewestFirst)
      .slice(0, normaliseCount(options.limit, DEFAULT_SUBAGENT_RUN_LIST_LIMIT));
    return runs.map((run) => structuredClone(options.withMessages === false ? { ...run, messages: [] } : run));
  }

  /** {@inheritDoc SubagentStore.pruneRuns} */
  async pruneRuns(conversationId: string, keepPerAgent: number): Promise<number> {
    const runs = this.#conversations.get(conversationId)?.runs;
    if (runs === undefined) return 0;
    const keep = normaliseCount(keepPerAgent, 0);
    const seen = new Map<string, number>();
    let deleted = 0;
    for (const run of [...runs.values()].sort(compareRunsNewestFirst)) {
      const key = run.agentId.toLowerCase();
      const count = (seen.get(key) ?? 0) + 1;
      seen.set(key, count);
      if (count > keep) {
        runs.delete(run.runId);
        deleted += 1;
      }
    }
    return deleted;
  }

  /** {@inheritDoc SubagentStore.appendMessage} */
  async appendMessage(conversationId: string, message: NewSubagentMessage): Promise<SubagentMessage> {
    const state = this.#conversation(conversationId);
    state.lastSeq += 1;
    const stored: SubagentMessage = structuredClone({ ...message, seq: state.lastSeq, createdAt: message.createdAt ?? Date.now() });
    state.messages.push(stored);
    return structuredClone(stored);
  }

  /** {@inheritDoc SubagentStore.listMessages} */
  async listMessages(conversationId: string, options: { readonly afterSeq?: number; readonly limit?: number } = {}): Promise<readonly SubagentMessage[]> {
    const afterSeq = options.afterSeq ?? 0;
    const messages = (this.#conversations.get(conversationId)?.messages ?? []).filter((message) => message.seq > afterSeq);
    return structuredClone(messages.slice(0, normaliseCount(options.limit, DEFAULT_SUBAGENT_MESSAGE_LIST_LIMIT)));
  }
}
