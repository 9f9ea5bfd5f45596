/**
 * Table names and row types of the subagent store, and the conversions
 * between rows and domain records (null columns become absent fields).
 */
import type { SubagentChannel, SubagentIdentity, SubagentMessage, SubagentMode, SubagentRunRecord, SubagentRunStatus } from "../domain/subagent-types.js";

/** Identities, per conversation and lower-cased id. */
export const SUBAGENT_IDENTITIES_TABLE = "agent_tools_subagent_identities";
/** Runs, per conversation and run id. */
export const SUBAGENT_RUNS_TABLE = "agent_tools_subagent_runs";
/** Bus messages, per conversation and seq. */
export const SUBAGENT_MESSAGES_TABLE = "agent_tools_subagent_messages";
/** The last seq handed out per conversation; its row lock serialises appends. */
export const SUBAGENT_MESSAGE_COUNTERS_TABLE = "agent_tools_subagent_message_counters";

/** A timestamp or count column: PostgreSQL hands `bigint` back as a string. */
type Numeric = number | string;

/** A row of {@link SUBAGENT_IDENTITIES_TABLE}. */
export interface SubagentIdentityRow {
  conversation_id: string;
  id_key: string;
  id: string;
  name: string;
  role: string;
  identity_prompt: string;
  template_id: string | null;
  last_mode: string | null;
  created_at: Numeric;
  updated_at: Numeric;
}

/** A row of {@link SUBAGENT_RUNS_TABLE}. */
export interface SubagentRunRow {
  conversation_id: string;
  run_id: string;
  agent_id: string;
  agent_key: string;
  status: string;
  mode: string;
  prompt: string;
  messages_json: string;
  context_schema_version: Numeric;
  rounds: Numeric;
  tool_calls: Numeric;
  summary: string | null;
  error: string | null;
  worktree_path: string | null;
  started_at: Numeric;
  updated_at: Numeric;
  ended_at: Numeric | null;
}

/** A row of {@link SUBAGENT_MESSAGES_TABLE}. */
export interface SubagentMessageRow {
  conversation_id: string;
  seq: Numeric;
  sender_id: string;
  recipient_id: string;
  channel: string;
  subject: string | null;
  body: string;
  source_run_id: string | null;
  source_tool_call_id: string | null;
  created_at: Numeric;
}

/** A row of {@link SUBAGENT_MESSAGE_COUNTERS_TABLE}. */
export interface SubagentMessageCounterRow {
  conversation_id: string;
  last_seq: Numeric;
}

/** The tables as Kysely sees them. */
export interface SubagentDatabase {
  [SUBAGENT_IDENTITIES_TABLE]: SubagentIdentityRow;
  [SUBAGENT_RUNS_TABLE]: SubagentRunRow;
  [SUBAGENT_MESSAGES_TABLE]: SubagentMessageRow;
  [SUBAGENT_MESSAGE_COUNTERS_TABLE]: SubagentMessageCounterRow;
}

/** The object without its undefined-valued keys. */
function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined)) as T;
}

/** An identity row of a conversation. */
export function identityToRow(conversationId: string, identity: SubagentIdentity): SubagentIdentityRow {
  return {
    conversation_id: conversationId,
    id_key: identity.id.toLowerCase(),
    id: identity.id,
    name: identity.name,
    role: identity.role,
    identity_prompt: identity.identityPrompt,
    template_id: identity.templateId ?? null,
    last_mode: identity.lastMode ?? null,
    created_at: identity.createdAt,
    updated_at: identity.updatedAt,
  };
}

/** The identity a row holds. */
export function rowToIdentity(row: SubagentIdentityRow): SubagentIdentity {
  return withoutUndefined({
    id: row.id,
    name: row.name,
    role: row.role,
    identityPrompt: row.identity_prompt,
    templateId: row.template_id ?? undefined,
    lastMode: (row.last_mode ?? undefined) as SubagentMode | undefined,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  });
}

/** A run row of a conversation. */
export function runToRow(conversationId: string, run: SubagentRunRecord): SubagentRunRow {
  return {
    conversation_id: conversationId,
    run_id: run.runId,
    agent_id: run.agentId,
    agent_key: run.agentId.toLowerCase(),
    status: run.status,
    mode: run.mode,
    prompt: run.prompt,
    messages_json: JSON.stringify(run.messages),
    context_schema_version: run.contextSchemaVersion,
    rounds: run.rounds,
    tool_calls: run.toolCalls,
    summary: run.summary ?? null,
    error: run.error ?? null,
    worktree_path: run.worktreePath ?? null,
    started_at: run.startedAt,
    updated_at: run.updatedAt,
    ended_at: run.endedAt ?? null,
  };
}

/** The run a row holds; `messages` empty when the row was read without its messages column. */
export function rowToRun(row: Omit<SubagentRunRow, "messages_json"> & { messages_json?: string }): SubagentRunRecord {
  return withoutUndefined({
    runId: row.run_id,
    agentId: row.agent_id,
    status: row.status as SubagentRunStatus,
    mode: row.mode as SubagentMode,
    prompt: row.prompt,
    messages: row.messages_json === undefined ? [] : (JSON.parse(row.messages_json) as unknown[]),
    contextSchemaVersion: Number(row.context_schema_version),
    rounds: Number(row.rounds),
    toolCalls: Number(row.tool_calls),
    summary: row.summary ?? undefined,
    error: row.error ?? undefined,
    worktreePath: row.worktree_path ?? undefined,
    startedAt: Number(row.started_at),
    updatedAt: Number(row.updated_at),
    endedAt: row.ended_at === null ? undefined : Number(row.ended_at),
  });
}

/** The message a row holds. */
export function rowToMessage(row: SubagentMessageRow): SubagentMessage {
  return withoutUndefined({
    seq: Number(row.seq),
    senderId: row.sender_id,
    recipientId: row.recipient_id,
    channel: row.channel as SubagentChannel,
    subject: row.subject ?? undefined,
    body: row.body,
    sourceRunId: row.source_run_id ?? undefined,
    sourceToolCallId: row.source_tool_call_id ?? undefined,
    createdAt: Number(row.created_at),
  });
}
