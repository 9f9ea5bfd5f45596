/**
 * Lines for the subagent tools: the `subagent_batch` details of an Agent
 * result (one line per agent) and the `subagent_card` progress an Agent call
 * streams through `onUpdate` data (one line when an agent's status changes).
 * Details are read structurally: the CLI does not depend on the package.
 */

type Details = Record<string, unknown>;

/** One agent as a `subagent_batch` or `subagent_card` carries it, reduced to what the CLI shows. */
export interface SubagentLineView {
  id: string;
  status: string;
  rounds?: number;
  toolCalls?: number;
  mode?: string;
  applyStatus?: string;
  applyMethod?: string;
  skipReason?: string;
  worktreePath?: string;
  worktreeCleanupStatus?: string;
  cleanupReason?: string;
  error?: string;
}

/** A progress card: which agent of which Agent call, and its state so far. */
export interface SubagentCardView {
  parentToolCallId: string;
  index: number;
  total: number;
  agent: SubagentLineView;
}

/** The agents of `subagent_batch` details, or undefined for other details. */
export function subagentBatchAgents(details: unknown): SubagentLineView[] | undefined {
  const record = asRecord(details);
  if (record.kind !== "subagent_batch" || !Array.isArray(record.agents)) return undefined;
  return record.agents.map((agent) => agentView(agent));
}

/** The issues of a rejected `subagent_batch`, as `[code] agent=<id> message` lines (empty when none). */
export function subagentBatchIssues(details: unknown): string[] {
  const record = asRecord(details);
  if (record.kind !== "subagent_batch" || !Array.isArray(record.issues)) return [];
  return record.issues.map((raw) => {
    const issue = asRecord(raw);
    const agent = typeof issue.agentId === "string" ? ` agent=${issue.agentId}` : "";
    return `[${String(issue.code ?? "?")}]${agent} ${String(issue.message ?? "")}`;
  });
}

/** A `subagent_card` from a tool update's data, or undefined for other data. */
export function subagentCard(data: unknown): SubagentCardView | undefined {
  const record = asRecord(data);
  if (record.kind !== "subagent_card") return undefined;
  return {
    parentToolCallId: String(record.parentToolCallId ?? ""),
    index: num(record.index) ?? 0,
    total: num(record.total) ?? 0,
    agent: agentView(record.agent),
  };
}

/**
 * One agent as a line: `<id> <status> rounds=N tools=N`, then for a worktree
 * agent the apply outcome (`applied (git_apply)`, `skipped (reason)`,
 * `failed`) and the worktree cleanup (`worktree removed`,
 * `worktree retained (reason)`), then the error of a failed run.
 *
 * @example
 * subagentLine({ id: "fixer", status: "completed", rounds: 3, toolCalls: 7, mode: "worktree", applyStatus: "applied", applyMethod: "git_apply", worktreeCleanupStatus: "removed" });
 * // "fixer completed rounds=3 tools=7 · applied (git_apply) · worktree removed"
 */
export function subagentLine(agent: SubagentLineView): string {
  const parts = [`${agent.id} ${agent.status} rounds=${agent.rounds ?? 0} tools=${agent.toolCalls ?? 0}`];
  const apply = applyText(agent);
  if (apply !== undefined) parts.push(apply);
  if (agent.worktreeCleanupStatus !== undefined) {
    const reason = agent.worktreeCleanupStatus !== "removed" && agent.cleanupReason ? ` (${agent.cleanupReason})` : "";
    parts.push(`worktree ${agent.worktreeCleanupStatus}${reason}`);
  }
  if (agent.error !== undefined && agent.status !== "completed") parts.push(agent.error);
  return parts.join(" · ");
}

/** `2 agents · 1 failed` / `3 agents` / `rejected (2 issues)`: the one-line summary of an Agent result. */
export function summarizeSubagentBatch(details: unknown): string | undefined {
  const record = asRecord(details);
  if (record.kind !== "subagent_batch") return undefined;
  if (record.status === "rejected") {
    const issues = Array.isArray(record.issues) ? record.issues.length : 0;
    return `rejected (${issues} ${issues === 1 ? "issue" : "issues"}); no agents started`;
  }
  const agents = subagentBatchAgents(details) ?? [];
  const notCompleted = agents.filter((agent) => agent.status !== "completed");
  const counts = new Map<string, number>();
  for (const agent of notCompleted) counts.set(agent.status, (counts.get(agent.status) ?? 0) + 1);
  return [`${agents.length} ${agents.length === 1 ? "agent" : "agents"}`, ...[...counts].map(([status, count]) => `${count} ${status}`)].join(" · ");
}

/**
 * The state a live card line shows, or undefined while there is nothing new
 * to show: an agent is shown when it starts and when it ends, and a
 * worktree agent ends only once its worktree is settled (apply and cleanup).
 */
export function subagentCardState(agent: SubagentLineView): string | undefined {
  if (agent.status === "running") return "running";
  if (agent.mode === "worktree" && agent.worktreePath !== undefined && agent.worktreeCleanupStatus === undefined) return undefined;
  return `${agent.status}:${agent.worktreeCleanupStatus ?? ""}`;
}

function applyText(agent: SubagentLineView): string | undefined {
  switch (agent.applyStatus) {
    case "applied":
      return agent.applyMethod ? `applied (${agent.applyMethod})` : "applied";
    case "skipped":
      return agent.skipReason ? `skipped (${agent.skipReason})` : "skipped";
    case "failed":
      return "failed";
    default:
      return agent.mode === "worktree" && agent.status !== "running" && agent.status !== "completed" ? "not applied" : undefined;
  }
}

function agentView(raw: unknown): SubagentLineView {
  const agent = asRecord(raw);
  const view: SubagentLineView = { id: str(agent.id) ?? "?", status: str(agent.status) ?? "running" };
  const rounds = num(agent.rounds);
  const toolCalls = num(agent.toolCalls);
  if (rounds !== undefined) view.rounds = rounds;
  if (toolCalls !== undefined) view.toolCalls = toolCalls;
  for (const key of ["mode", "applyStatus", "applyMethod", "skipReason", "worktreePath", "worktreeCleanupStatus", "cleanupReason", "error"] as const) {
    const value = str(agent[key]);
    if (value !== undefined) view[key] = value;
  }
  return view;
}

function asRecord(value: unknown): Details {
  return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Details) : {};
}

function str(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

function num(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}
