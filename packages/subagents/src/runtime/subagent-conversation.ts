import type { SubagentIdentity, SubagentMessage, SubagentRunRecord } from "../domain/subagent-types.js";
import { SUBAGENT_LIMITS } from "../domain/subagent-types.js";
import type { NewSubagentMessage, SubagentStore } from "../ports/subagent-store.js";

/** Recent runs listed at once when the latest run of every agent is asked for. */
const RECENT_RUNS = 200;

/**
 * One parent conversation's subagent state, with the store as the one
 * source of truth: the roster (loaded once, kept in step with every
 * upsert), each agent's latest run, and an LRU of hydrated run contexts
 * (64) so a resume within the process skips the load. Without a store (no
 * conversation id) nothing outlives the process and the bus is off.
 */
export class SubagentConversation {
  readonly conversationId: string;
  readonly #store: SubagentStore | undefined;
  #roster: Map<string, SubagentIdentity> | undefined;
  readonly #latestRuns = new Map<string, SubagentRunRecord>();
  readonly #contexts = new Map<string, SubagentRunRecord>();
  readonly #contextLimit: number;

  constructor(conversationId: string, store: SubagentStore | undefined, contextLimit: number = SUBAGENT_LIMITS.hydratedContexts) {
    this.conversationId = conversationId;
    this.#store = conversationId === "" ? undefined : store;
    this.#contextLimit = contextLimit;
  }

  /** True when runs persist and the message bus works. */
  get persistent(): boolean {
    return this.#store !== undefined;
  }

  /** Every identity, sorted by id in byte order. */
  async roster(): Promise<readonly SubagentIdentity[]> {
    if (this.#roster === undefined) {
      const identities = this.#store === undefined ? [] : await this.#store.listIdentities(this.conversationId);
      this.#roster = new Map(identities.map((identity) => [identity.id.toLowerCase(), identity]));
    }
    return [...this.#roster.values()].sort((left, right) => (left.id < right.id ? -1 : left.id > right.id ? 1 : 0));
  }

  /** Stores an identity (a new one, or a new `lastMode`); the roster follows only once the store took it. */
  async upsertIdentity(identity: SubagentIdentity): Promise<void> {
    await this.roster();
    await this.#store?.upsertIdentity(this.conversationId, identity);
    this.#roster!.set(identity.id.toLowerCase(), identity);
  }

  /** The agent's latest run (without its messages unless hydrated), or undefined. */
  async latestRun(agentId: string): Promise<SubagentRunRecord | undefined> {
    const key = agentId.toLowerCase();
    const known = this.#latestRuns.get(key);
    if (known !== undefined) return known;
    if (this.#store === undefined) return undefined;
    const [latest] = await this.#store.listRuns(this.conversationId, { agentId, limit: 1, withMessages: false });
    if (latest !== undefined) this.#latestRuns.set(key, latest);
    return latest;
  }

  /** Latest runs of every agent in the roster (for the Agent description and the parent's roster): one listing of recent runs, then a lookup only for agents not in it. */
  async latestRuns(): Promise<ReadonlyMap<string, SubagentRunRecord>> {
    if (this.#store !== undefined) {
      const recent = await this.#store.listRuns(this.conversationId, { limit: RECENT_RUNS, withMessages: false });
      const seen = new Set<string>();
      for (const run of recent) {
        const key = run.agentId.toLowerCase();
        if (seen.has(key)) continue; // newest first: the first one seen is the agent's latest
        seen.add(key);
        this.#latestRuns.set(key, run);
      }
    }
    const runs = new Map<string, SubagentRunRecord>();
    for (const identity of await this.roster()) {
      const run = await this.latestRun(identity.id);
      if (run !== undefined) runs.set(identity.id, run);
    }
    return runs;
  }

  /** A run with its messages: from the LRU, else the store. */
  async hydrate(runId: string): Promise<SubagentRunRecord | undefined> {
    const cached = this.#contexts.get(runId);
    if (cached !== undefined) {
      this.#contexts.delete(runId);
      this.#contexts.set(runId, cached); // most recently used last
      return cached;
    }
    const loaded = await this.#store?.loadRun(this.conversationId, runId);
    if (loaded !== undefined) this.#remember(loaded);
    return loaded;
  }

  /** Persists a run (the store may reject: the caller reports a persistence warning) and keeps it as the agent's latest. */
  async saveRun(run: SubagentRunRecord): Promise<void> {
    this.#latestRuns.set(run.agentId.toLowerCase(), run);
    this.#remember(run);
    await this.#store?.saveRun(this.conversationId, run);
  }

  /** Appends a bus message; rejects when there is no bus or the store fails. */
  async appendMessage(message: NewSubagentMessage): Promise<SubagentMessage> {
    if (this.#store === undefined) throw new Error("The message bus needs a conversation id.");
    return this.#store.appendMessage(this.conversationId, message);
  }

  /** Bus messages after `afterSeq`, ascending, all of them (pages of the store's list limit). */
  async messagesAfter(afterSeq: number): Promise<readonly SubagentMessage[]> {
    if (this.#store === undefined) return [];
    const all: SubagentMessage[] = [];
    for (let cursor = afterSeq; ; ) {
      const page = await this.#store.listMessages(this.conversationId, { afterSeq: cursor, limit: SUBAGENT_LIMITS.busListLimit });
      all.push(...page);
      if (page.length < SUBAGENT_LIMITS.busListLimit) return all;
      cursor = page[page.length - 1]!.seq;
    }
  }

  #remember(run: SubagentRunRecord): void {
    this.#contexts.delete(run.runId);
    this.#contexts.set(run.runId, run);
    while (this.#contexts.size > this.#contextLimit) this.#contexts.delete(this.#contexts.keys().next().value as string);
  }
}
