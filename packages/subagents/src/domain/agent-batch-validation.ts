/**
 * Validation of an Agent call: every issue at once (the call is atomic: one
 * issue rejects it and nothing starts), then each entry resolved into an
 * identity, a mode, an apply policy and its output paths.
 */
import { createIdentity } from "./agent-identity.js";
import { findTemplate } from "./agent-templates.js";
import {
  type AgentPromptTemplate,
  type ResolvedAgentEntry,
  SUBAGENT_ID_PATTERN,
  SUBAGENT_LIMITS,
  type SubagentApplyPolicy,
  type SubagentIdentity,
  type SubagentIssue,
  type SubagentMode,
} from "./subagent-types.js";

/** What {@link validateAgentBatch} checks the call against. */
export interface AgentBatchValidationContext {
  /** The parent conversation's existing identities. */
  readonly roster: readonly SubagentIdentity[];
  /** The offered templates (see `offeredTemplates`). */
  readonly templates: readonly AgentPromptTemplate[];
  /** Plan mode: an explicit `mode=worktree` is an issue and an omitted mode is `readonly`. */
  readonly forceReadonly?: boolean;
  /** Creation time of new identities. */
  readonly now: number;
}

/** The outcome of {@link validateAgentBatch}. */
export type AgentBatchValidation =
  | { readonly ok: true; readonly entries: ResolvedAgentEntry[]; readonly concurrency: number }
  | { readonly ok: false; readonly issues: SubagentIssue[]; readonly concurrency: number };

/** The Agent call's top-level parameters. */
export const AGENT_PARAMETERS = ["agents", "concurrency"] as const;
/** The fields of one `agents` entry. */
export const AGENT_ENTRY_FIELDS = [
  "id",
  "prompt",
  "name",
  "role",
  "identity",
  "template",
  "mode",
  "apply_policy",
  "allowed_output_paths",
  "resume",
  "retain_worktree",
] as const;

const MODES: readonly SubagentMode[] = ["readonly", "worktree"];
const APPLY_POLICIES: readonly SubagentApplyPolicy[] = ["none", "explicit", "auto"];
const quoteAll = (values: readonly string[]) => values.map((value) => `"${value}"`).join(", ");

/**
 * Validates raw Agent arguments against the roster and the offered
 * templates. Collects every issue (shape, unknown keys, ids, duplicates,
 * templates, identity conflicts, modes, apply policies, output paths) rather
 * than stopping at the first. Output paths are not resolved here: the caller
 * checks them against its path policy.
 *
 * Identity rules: a new id's name is the given name, else the template's
 * name, else the id title-cased; its role the given role, else the
 * template's description, else the name. An existing id (matched
 * case-insensitively, keeping its canonical case) keeps its identity:
 * name/role/identity/template apply only at creation, and a differing
 * non-empty one is an `identity_conflict`.
 *
 * @example
 * const result = validateAgentBatch({ agents: [{ id: "reviewer", prompt: "Review src/" }] }, { roster: [], templates: [], now: Date.now() });
 * if (result.ok) console.log(result.entries[0].identity.name); // "Reviewer"
 */
export function validateAgentBatch(input: unknown, context: AgentBatchValidationContext): AgentBatchValidation {
  const issues: SubagentIssue[] = [];
  const invalid = (message: string, agentId?: string) => issues.push(issue("invalid_arguments", message, agentId));
  if (!isRecord(input)) {
    invalid('Agent arguments must be an object: {"agents": [{"id": "...", "prompt": "..."}], "concurrency"?: 1-8}.');
    return { ok: false, issues, concurrency: 1 };
  }
  for (const key of Object.keys(input)) {
    if (!(AGENT_PARAMETERS as readonly string[]).includes(key)) {
      invalid(`Unknown Agent parameter "${key}". Allowed parameters: ${quoteAll(AGENT_PARAMETERS)}; per-agent settings go inside each agents entry.`);
    }
  }
  const agents = input.agents;
  const count = Array.isArray(agents) ? agents.length : 0;
  const concurrency = resolveConcurrency(input.concurrency, count, invalid);
  if (!Array.isArray(agents) || agents.length === 0) {
    invalid('"agents" must be a non-empty array of {id, prompt} entries.');
    return { ok: false, issues, concurrency };
  }
  if (agents.length > SUBAGENT_LIMITS.maxAgents) {
    invalid(`Too many agents: ${agents.length} (at most ${SUBAGENT_LIMITS.maxAgents} per call). Split dependent work across sequential calls.`);
  }

  const rosterById = new Map(context.roster.map((identity) => [identity.id.toLowerCase(), identity]));
  const seen = new Set<string>();
  const entries: ResolvedAgentEntry[] = [];
  agents.forEach((raw: unknown, index: number) => {
    const entry = validateEntry(raw, index, context, rosterById, seen, issues);
    if (entry !== undefined) entries.push(entry);
  });
  if (issues.length > 0) return { ok: false, issues, concurrency };
  return { ok: true, entries, concurrency };
}

/** `min(count, clamp(floor(c), 1, 8))`, default 8; a non-number is an issue. */
function resolveConcurrency(value: unknown, count: number, invalid: (message: string) => void): number {
  let limit: number = SUBAGENT_LIMITS.maxAgents;
  if (value !== undefined) {
    if (typeof value === "number" && Number.isFinite(value)) {
      limit = Math.min(SUBAGENT_LIMITS.maxAgents, Math.max(1, Math.floor(value)));
    } else {
      invalid(`"concurrency" must be an integer from 1 to ${SUBAGENT_LIMITS.maxAgents} (got ${describe(value)}).`);
    }
  }
  return Math.max(1, Math.min(count, limit));
}

function validateEntry(
  raw: unknown,
  index: number,
  context: AgentBatchValidationContext,
  rosterById: ReadonlyMap<string, SubagentIdentity>,
  seen: Set<string>,
  issues: SubagentIssue[],
): ResolvedAgentEntry | undefined {
  const where = `agents[${index}]`;
  if (!isRecord(raw)) {
    issues.push(issue("invalid_arguments", `${where} must be an object with at least "id" and "prompt" (got ${describe(raw)}).`));
    return undefined;
  }
  const rawId = typeof raw.id === "string" ? raw.id : undefined;
  const before = issues.length;
  const invalid = (message: string) => issues.push(issue("invalid_arguments", message, rawId));

  for (const key of Object.keys(raw)) {
    if (!(AGENT_ENTRY_FIELDS as readonly string[]).includes(key)) {
      invalid(`Unknown field "${key}" in ${where}. Allowed fields: ${quoteAll(AGENT_ENTRY_FIELDS)}.`);
    }
  }
  if (rawId === undefined || !SUBAGENT_ID_PATTERN.test(rawId)) {
    invalid(
      `${where}.id must be 1-64 characters: a letter or digit, then letters, digits, ".", "_" or "-" (got ${rawId === undefined ? describe(raw.id) : `"${rawId}"`}).`,
    );
  }
  if (typeof raw.prompt !== "string" || raw.prompt.trim() === "") {
    invalid(`${where}.prompt must be a non-empty string: the task for this agent.`);
  }
  const text = (field: "name" | "role" | "identity" | "template"): string | undefined => {
    const value = raw[field];
    if (value === undefined) return undefined;
    if (typeof value !== "string") {
      invalid(`${where}.${field} must be a string (got ${describe(value)}).`);
      return undefined;
    }
    return value.trim() === "" ? undefined : value.trim();
  };
  const name = text("name");
  const role = text("role");
  const identityPrompt = text("identity");
  const templateRef = text("template");
  const flag = (field: "resume" | "retain_worktree", fallback: boolean): boolean => {
    const value = raw[field];
    if (value === undefined) return fallback;
    if (typeof value !== "boolean") {
      invalid(`${where}.${field} must be true or false (got ${describe(value)}).`);
      return fallback;
    }
    return value;
  };
  const resume = flag("resume", true);
  const retainWorktree = flag("retain_worktree", false);

  let explicitMode: SubagentMode | undefined;
  if (raw.mode !== undefined) {
    if ((MODES as readonly unknown[]).includes(raw.mode)) explicitMode = raw.mode as SubagentMode;
    else invalid(`${where}.mode must be "readonly" or "worktree" (got ${describe(raw.mode)}).`);
  }
  let explicitPolicy: SubagentApplyPolicy | undefined;
  if (raw.apply_policy !== undefined) {
    if ((APPLY_POLICIES as readonly unknown[]).includes(raw.apply_policy)) explicitPolicy = raw.apply_policy as SubagentApplyPolicy;
    else invalid(`${where}.apply_policy must be "none", "explicit" or "auto" (got ${describe(raw.apply_policy)}).`);
  }
  const allowedOutputPaths = outputPaths(raw.allowed_output_paths, where, invalid, (message) =>
    issues.push(issue("output_path_outside_workspace", message, rawId)),
  );

  // Duplicates, templates and identity (only for a well-formed id).
  const existing = rawId === undefined ? undefined : rosterById.get(rawId.toLowerCase());
  if (rawId !== undefined && SUBAGENT_ID_PATTERN.test(rawId)) {
    const key = rawId.toLowerCase();
    if (seen.has(key)) {
      issues.push(
        issue("duplicate_agent_id", `Agent id "${rawId}" appears more than once in this call (ids are case-insensitive); give each agent its own id.`, rawId),
      );
    }
    seen.add(key);
  }
  let template: AgentPromptTemplate | undefined;
  if (templateRef !== undefined) {
    template = findTemplate(context.templates, templateRef);
    if (template === undefined) {
      const offered = context.templates.map((candidate) => `"${candidate.id}" (${candidate.name})`).join(", ");
      issues.push(
        issue(
          "unknown_template",
          `Unknown template "${templateRef}" in ${where}. ${offered === "" ? "No templates are offered." : `Offered templates (by id or name): ${offered}.`}`,
          rawId,
        ),
      );
    }
  }
  if (existing !== undefined) {
    const differing: string[] = [];
    if (name !== undefined && name !== existing.name) differing.push("name");
    if (role !== undefined && role !== existing.role) differing.push("role");
    if (identityPrompt !== undefined && identityPrompt !== existing.identityPrompt) differing.push("identity");
    if (template !== undefined && template.id.toLowerCase() !== (existing.templateId ?? "").toLowerCase()) differing.push("template");
    if (differing.length > 0) {
      issues.push(
        issue(
          "identity_conflict",
          `Agent "${existing.id}" already exists with a different ${differing.join(", ")}. name, role, identity and template apply only when an id is created: omit them to resume "${existing.id}", or use a new id.`,
          rawId,
        ),
      );
    }
  }

  // Mode, apply policy and output paths.
  let mode: SubagentMode = explicitMode ?? existing?.lastMode ?? "readonly";
  if (context.forceReadonly === true) {
    if (explicitMode === "worktree") {
      invalid(`${where}.mode=worktree is not available in plan mode: agents can only read. Use mode "readonly" or omit mode.`);
    }
    mode = "readonly";
  }
  const applyPolicy: SubagentApplyPolicy = explicitPolicy ?? "none";
  if (applyPolicy !== "none" && mode !== "worktree") {
    invalid(`${where}: apply_policy is only valid with mode=worktree (this agent runs in mode=${mode}); set mode "worktree" or drop apply_policy.`);
  }
  if (allowedOutputPaths.length > 0 && applyPolicy !== "explicit") {
    invalid(`${where}: allowed_output_paths requires apply_policy "explicit".`);
  }
  if (applyPolicy === "explicit" && allowedOutputPaths.length === 0) {
    invalid(`${where}: apply_policy "explicit" requires allowed_output_paths with at least one path or glob.`);
  }

  if (issues.length > before || rawId === undefined || typeof raw.prompt !== "string") return undefined;
  const identity: SubagentIdentity = existing ?? createIdentity(rawId, { name, role, identityPrompt, template }, context.now);
  const entryTemplate = existing === undefined ? template : findTemplate(context.templates, existing.templateId ?? "");
  return {
    index,
    identity,
    isNew: existing === undefined,
    prompt: raw.prompt,
    mode,
    applyPolicy,
    allowedOutputPaths,
    resume,
    retainWorktree,
    ...(entryTemplate === undefined ? {} : { template: entryTemplate }),
  };
}

/**
 * The `allowed_output_paths` entries, trimmed and deduplicated. An entry
 * with a `..` segment anywhere (also after a glob: `src/**\/../x`, and with
 * `\` separators) is `outside`: output paths are workspace-relative and
 * never climb out of it.
 */
function outputPaths(value: unknown, where: string, invalid: (message: string) => void, outside: (message: string) => void): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) {
    invalid(`${where}.allowed_output_paths must be an array of workspace paths or globs (got ${describe(value)}).`);
    return [];
  }
  const paths: string[] = [];
  value.forEach((path: unknown, position: number) => {
    if (typeof path !== "string" || path.trim() === "") {
      invalid(`${where}.allowed_output_paths[${position}] must be a non-empty string (got ${describe(path)}).`);
    } else if (path.split(/[\\/]/).some((segment) => segment.trim() === "..")) {
      outside(
        `${where}.allowed_output_paths[${position}] ${describe(path)} has a ".." segment: output paths are relative to the workspace and stay inside it. Name the files or folders inside the workspace (e.g. "src/**" or "docs").`,
      );
    } else if (!paths.includes(path.trim())) {
      paths.push(path.trim());
    }
  });
  return paths;
}

function issue(code: SubagentIssue["code"], message: string, agentId?: string): SubagentIssue {
  return agentId === undefined ? { code, message } : { code, agentId, message };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "string") return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}...` : value);
  if (typeof value === "object") return "an object";
  return String(value);
}
