/**
 * Shared pieces of the subagent store contract: the target, fresh
 * conversation ids per test and sample records.
 */
import { randomBytes } from "node:crypto";
import type { SubagentIdentity, SubagentRunRecord } from "../domain/subagent-types.js";
import type { NewSubagentMessage, SubagentStore } from "../ports/subagent-store.js";

/** How {@link runSubagentStoreContract} reaches the store under test. */
export interface SubagentStoreContractTarget {
  /**
   * Opens a store. Calls may return stores over one backend that earlier
   * tests wrote to: every test uses its own conversation ids.
   */
  open(): Promise<SubagentStore>;
  /** Releases a store the suite opened; default `store.close?.()`. */
  dispose?(store: SubagentStore): Promise<void>;
  /** True when stores from separate `open()` calls share one backend; enables the cross-instance tests. */
  sharedBackend?: boolean;
}

const runPrefix = randomBytes(4).toString("hex");
let counter = 0;

/** A conversation id no other test (or earlier run over the same backend) uses. */
export function freshConversationId(label = "conversation"): string {
  counter += 1;
  return `${label}-${runPrefix}-${counter}`;
}

/** An identity with every field set, overridable. */
export function sampleIdentity(id: string, overrides: Partial<SubagentIdentity> = {}): SubagentIdentity {
  return {
    id,
    name: `Agent ${id}`,
    role: `Role of ${id}`,
    identityPrompt: `You are ${id}.`,
    templateId: "reviewer",
    lastMode: "worktree",
    createdAt: 1_700_000_000_000,
    updatedAt: 1_700_000_000_500,
    ...overrides,
  };
}

/** Model messages with text, tool calls, tool results and unicode, as a run persists them. */
export const SAMPLE_MODEL_MESSAGES: readonly unknown[] = [
  { role: "system", content: "You are a careful reviewer. Ünïcödé ✓ 日本語 🚀" },
  { role: "user", content: [{ type: "text", text: "Review src/a.ts\nand report." }] },
  {
    role: "assistant",
    content: [
      { type: "text", text: "Reading the file." },
      { type: "tool-call", toolCallId: "call_1", toolName: "Read", input: { path: "src/a.ts", start_line: 1, nested: { list: [1, 2.5, null, true] } } },
    ],
  },
  {
    role: "tool",
    content: [{ type: "tool-result", toolCallId: "call_1", toolName: "Read", output: { type: "text", value: 'line 1\n"quoted" \\ back\u0000slash' } }],
  },
  { role: "assistant", content: [{ type: "text", text: "Done: 1 issue. 🙂" }] },
];

/** A completed run with every field set, overridable. */
export function sampleRun(runId: string, agentId: string, overrides: Partial<SubagentRunRecord> = {}): SubagentRunRecord {
  return {
    runId,
    agentId,
    status: "completed",
    mode: "worktree",
    prompt: `Task for ${agentId}: ünïcode ✓`,
    messages: SAMPLE_MODEL_MESSAGES,
    contextSchemaVersion: 2,
    rounds: 3,
    toolCalls: 7,
    summary: "Summary text",
    error: "no error really",
    worktreePath: "/tmp/.agent-tools-subagents/repo/label-abc",
    startedAt: 1_700_000_001_000,
    updatedAt: 1_700_000_002_000,
    endedAt: 1_700_000_003_000,
    ...overrides,
  };
}

/** A direct message with every field set, overridable. */
export function sampleMessage(overrides: Partial<NewSubagentMessage> = {}): NewSubagentMessage {
  return {
    senderId: "parent",
    recipientId: "Reviewer",
    channel: "direct",
    subject: "Status ✓",
    body: "Please look at src/a.ts — 日本語 🚀",
    sourceRunId: "call_9:agent:1:Reviewer:uuid",
    sourceToolCallId: "call_9",
    createdAt: 1_700_000_004_000,
    ...overrides,
  };
}

/** What every contract section gets. */
export interface SubagentStoreContractContext {
  readonly target: SubagentStoreContractTarget;
  /** Opens a store, runs `body`, disposes the store (also when `body` throws). */
  withStore(body: (store: SubagentStore) => Promise<void>): Promise<void>;
}

/** Binds the helpers to a target. */
export function subagentStoreContractContext(target: SubagentStoreContractTarget): SubagentStoreContractContext {
  const dispose = async (store: SubagentStore) => (target.dispose ? target.dispose(store) : store.close?.());
  return {
    target,
    async withStore(body) {
      const store = await target.open();
      try {
        await body(store);
      } finally {
        await dispose(store);
      }
    },
  };
}
