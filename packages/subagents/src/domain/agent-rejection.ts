/**
 * The result of a rejected Agent call: every issue numbered, the existing
 * agents to resume and the offered templates, so the model can retry with
 * one corrected call.
 */
import type { SubagentBatchDetails } from "./subagent-protocol.js";
import type { AgentPromptTemplate, SubagentIdentity, SubagentIssue } from "./subagent-types.js";

/** The first line of a rejection. */
export const AGENT_REJECTION_HEADER = "Agent rejected this call. No subagents were started. Fix every issue and retry with one corrected call.";

/** The first line when the subagent store could not be read (the issues say why; retrying the same way does not help). */
export const AGENT_STORE_FAILURE_HEADER = "Agent could not read its subagent store. No subagents were started.";

/**
 * Renders a rejection: the header, `N. [code] agent=<id> message` per issue
 * (`agent=` left out for call-level issues), the roster under "Existing
 * agents (reuse these ids to resume)" and the offered (enabled) templates.
 * The details are a `subagent_batch` with status `rejected` and no agents.
 * With `rosterUnavailable` (the store could not be read) the header says so
 * and the roster reads `(none: the subagent store could not be read)`.
 *
 * @example
 * const { text, details } = renderAgentRejection({ issues, roster, templates, concurrency: 1 });
 */
export function renderAgentRejection(options: {
  readonly issues: readonly SubagentIssue[];
  readonly roster: readonly SubagentIdentity[];
  readonly templates: readonly AgentPromptTemplate[];
  readonly concurrency: number;
  /** The roster is empty because the store could not be read. */
  readonly rosterUnavailable?: boolean;
}): { text: string; details: SubagentBatchDetails } {
  const templates = options.templates.filter((template) => template.enabled);
  const lines = [options.rosterUnavailable === true ? AGENT_STORE_FAILURE_HEADER : AGENT_REJECTION_HEADER, "", "Issues:"];
  options.issues.forEach((issue, position) => {
    const agent = issue.agentId === undefined ? "" : ` agent=${issue.agentId}`;
    lines.push(`${position + 1}. [${issue.code}]${agent} ${issue.message}`);
  });
  lines.push("", "Existing agents (reuse these ids to resume):");
  if (options.roster.length === 0) lines.push(options.rosterUnavailable === true ? "(none: the subagent store could not be read)" : "(none)");
  for (const identity of options.roster) {
    const mode = identity.lastMode === undefined ? "" : `, last mode=${identity.lastMode}`;
    lines.push(`- ${identity.id}: ${identity.name} (${identity.role}${mode})`);
  }
  lines.push("", "Templates (template=<id or name>):");
  if (templates.length === 0) lines.push("(none)");
  for (const template of templates) {
    const description = template.description.trim() === "" ? "" : `: ${template.description.trim()}`;
    lines.push(`- ${template.id} (${template.name})${description}`);
  }
  return {
    text: lines.join("\n"),
    details: {
      kind: "subagent_batch",
      status: "rejected",
      agentCount: 0,
      concurrency: options.concurrency,
      totalDurationMs: 0,
      mode: "readonly",
      agents: [],
      issues: [...options.issues],
      roster: [...options.roster],
      templates,
    },
  };
}
