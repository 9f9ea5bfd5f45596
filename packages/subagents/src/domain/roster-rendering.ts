/**
 * The roster as text: for the Agent tool's description (agents to resume
 * and templates to use) and for the parent's system prompt (a stable
 * identity section and a volatile run-status section).
 */
import { type AgentPromptTemplate, SUBAGENT_LIMITS, type SubagentIdentity, type SubagentRunRecord } from "./subagent-types.js";

/** Compares strings by code unit (byte order for ids, which are ASCII), never by locale. */
export function compareIds(left: string, right: string): number {
  return left < right ? -1 : left > right ? 1 : 0;
}

/** The roster sorted by id in byte order. */
function sortedRoster(roster: readonly SubagentIdentity[]): SubagentIdentity[] {
  return [...roster].sort((left, right) => compareIds(left.id, right.id));
}

/** The latest run per agent id (lower-cased), by start then update time. */
function latestByAgent(runs: readonly SubagentRunRecord[]): Map<string, SubagentRunRecord> {
  const latest = new Map<string, SubagentRunRecord>();
  for (const run of runs) {
    const key = run.agentId.toLowerCase();
    const current = latest.get(key);
    if (current === undefined || run.startedAt > current.startedAt || (run.startedAt === current.startedAt && run.updatedAt >= current.updatedAt)) {
      latest.set(key, run);
    }
  }
  return latest;
}

/** Cuts to `max` characters with `...` and flattens line breaks. */
function clip(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length <= max ? flat : `${flat.slice(0, max)}...`;
}

/**
 * The roster and templates section of the Agent tool's description: at most
 * 12 agents sorted by id (byte order) with their latest run's status and
 * summary (500 characters), and at most 12 templates. `""` when there are
 * neither.
 *
 * @example
 * const suffix = renderRosterForAgentTool({ roster, latestRuns, templates: offeredTemplates(templates) });
 */
export function renderRosterForAgentTool(options: {
  readonly roster: readonly SubagentIdentity[];
  /** Runs of the roster's agents; the latest per agent is used. */
  readonly latestRuns: readonly SubagentRunRecord[];
  /** The offered templates. */
  readonly templates: readonly AgentPromptTemplate[];
}): string {
  const limit = SUBAGENT_LIMITS.rosterInDescription;
  const sections: string[] = [];
  if (options.roster.length > 0) {
    const runs = latestByAgent(options.latestRuns);
    const lines = ["Existing agents (reuse an id to resume it with its context):"];
    for (const identity of sortedRoster(options.roster).slice(0, limit)) {
      const run = runs.get(identity.id.toLowerCase());
      const mode = identity.lastMode === undefined ? "" : `, last mode=${identity.lastMode}`;
      const status = run === undefined ? "" : `, last run ${run.status}`;
      lines.push(`- ${identity.id}: ${identity.name} (${clip(identity.role, SUBAGENT_LIMITS.rosterFieldChars)}${mode}${status})`);
      const summary = run?.summary ?? run?.error;
      if (summary !== undefined && summary.trim() !== "") lines.push(`  Last summary: ${clip(summary, SUBAGENT_LIMITS.rosterSummaryChars)}`);
    }
    if (options.roster.length > limit) lines.push(`(${options.roster.length - limit} more agents not listed)`);
    sections.push(lines.join("\n"));
  }
  if (options.templates.length > 0) {
    const lines = ["Templates (set template=<id or name> on a new agent):"];
    for (const template of options.templates.slice(0, limit)) {
      const description = template.description.trim() === "" ? "" : `: ${clip(template.description, SUBAGENT_LIMITS.rosterFieldChars)}`;
      lines.push(`- ${template.id} (${template.name})${description}`);
    }
    if (options.templates.length > limit) lines.push(`(${options.templates.length - limit} more templates not listed)`);
    sections.push(lines.join("\n"));
  }
  return sections.join("\n\n");
}

/**
 * The roster for the parent's system prompt. `stable` lists identities (at
 * most 12, sorted by id in byte order) and changes only when an identity
 * does; `volatile` lists each listed agent's latest run (status, mode, run id,
 * summary or error, each field at most 360 characters), for a host to append
 * only when it changed. Both `""` for an empty roster.
 */
export function renderParentRoster(options: { readonly roster: readonly SubagentIdentity[]; readonly latestRuns: readonly SubagentRunRecord[] }): {
  stable: string;
  volatile: string;
} {
  if (options.roster.length === 0) return { stable: "", volatile: "" };
  const limit = SUBAGENT_LIMITS.rosterInDescription;
  const max = SUBAGENT_LIMITS.rosterFieldChars;
  const listed = sortedRoster(options.roster).slice(0, limit);
  const stable = ["Subagents of this conversation (message them with SendMessage by id; resume them with Agent by id):"];
  for (const identity of listed) stable.push(`- ${identity.id}: ${clip(identity.name, max)} — ${clip(identity.role, max)}`);
  if (options.roster.length > limit) stable.push(`(${options.roster.length - limit} more agents not listed)`);

  const runs = latestByAgent(options.latestRuns);
  const volatile: string[] = [];
  for (const identity of listed) {
    const run = runs.get(identity.id.toLowerCase());
    if (run === undefined) continue;
    const outcome =
      run.error !== undefined && run.error.trim() !== ""
        ? `error: ${clip(run.error, max)}`
        : run.summary === undefined
          ? ""
          : `summary: ${clip(run.summary, max)}`;
    volatile.push(`- ${identity.id}: ${run.status}, mode=${run.mode}, run ${clip(run.runId, max)}${outcome === "" ? "" : `; ${outcome}`}`);
  }
  return { stable: stable.join("\n"), volatile: volatile.length === 0 ? "" : ["Subagent run status:", ...volatile].join("\n") };
}
