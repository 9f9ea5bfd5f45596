/**
 * The texts a child's model reads: its system prompt (identity, mode rules,
 * apply policy, paths), its first task message, the continuation message of
 * a resumed run, and the header of a refreshed bus snapshot.
 */
import type { AgentPromptTemplate, SubagentApplyPolicy, SubagentIdentity, SubagentMode } from "./subagent-types.js";

/** First line of the user message that refreshes the bus snapshot at a turn boundary. */
export const BUS_REFRESH_HEADER = "Agent Message Bus snapshot refreshed for this turn.";

/** What {@link buildSubagentSystemPrompt} needs. */
export interface SubagentSystemPromptOptions {
  readonly identity: SubagentIdentity;
  readonly mode: SubagentMode;
  readonly applyPolicy: SubagentApplyPolicy;
  readonly allowedOutputPaths: readonly string[];
  /** The parent's working directory. */
  readonly parentWorkdir: string;
  /** The child's worktree (worktree mode). */
  readonly worktree?: { readonly path: string; readonly workdir: string; readonly branch: string };
  /** The identity's template, whose prompt joins the identity's instructions. */
  readonly template?: AgentPromptTemplate;
}

/**
 * The child's system prompt: who it is, what its mode allows, what happens
 * to its changes, where it works, and that it cannot start agents and talks
 * only through SendMessage.
 *
 * @example
 * buildSubagentSystemPrompt({ identity, mode: "readonly", applyPolicy: "none", allowedOutputPaths: [], parentWorkdir: "/repo" });
 */
export function buildSubagentSystemPrompt(options: SubagentSystemPromptOptions): string {
  const { identity, mode } = options;
  const sections: string[] = [
    [`You are ${identity.name} (agent id: ${identity.id}), a subagent working for a parent agent on one delegated task.`, `Role: ${identity.role}`].join("\n"),
  ];
  const instructions = [options.template?.prompt.trim() ?? "", identity.identityPrompt.trim()].filter((text) => text !== "");
  if (instructions.length > 0) sections.push(`Instructions:\n${instructions.join("\n\n")}`);

  if (mode === "readonly" || options.worktree === undefined) {
    sections.push(
      [
        "Mode: readonly.",
        `You work in the parent's workspace at ${options.parentWorkdir}, read-only: read, list and search files, and use the read-only tools you are given.`,
        "You cannot create, edit or delete files or run commands; describe the changes you propose in your report instead.",
      ].join("\n"),
    );
  } else {
    const { worktree } = options;
    sections.push(
      [
        "Mode: worktree.",
        `You work in your own git worktree at ${worktree.path} (branch ${worktree.branch}); your working directory is ${worktree.workdir}.`,
        "Edit files and run commands there freely; relative paths resolve against your working directory.",
        `Do not change the parent's workspace at ${options.parentWorkdir}. Do not commit, switch branches or remove the worktree: the parent takes your changes from the work tree.`,
        applyPolicySentence(options.applyPolicy, options.allowedOutputPaths),
      ].join("\n"),
    );
  }
  sections.push(
    [
      "Rules:",
      "- You cannot start other agents.",
      '- You talk to the parent and the other agents only through SendMessage: to "parent", to an agent id, or to "*" for everyone. Messages to you arrive as Agent Message Bus snapshots at turn boundaries; there is no waiting for replies.',
      "- Stay within your task. When you are done, answer with a concise final report (what you found or changed, with paths, and anything left open): it is returned to the parent as your summary.",
    ].join("\n"),
  );
  return sections.join("\n\n");
}

/** The sentence stating what happens to a worktree child's changes. */
export function applyPolicySentence(applyPolicy: SubagentApplyPolicy, allowedOutputPaths: readonly string[]): string {
  switch (applyPolicy) {
    case "none":
      return "Apply policy none: your changes are not applied to the parent's workspace; they stay in your worktree and the parent sees the changed paths as candidate artifacts.";
    case "explicit":
      return `Apply policy explicit: when you complete, your changes are applied to the parent's workspace only if every changed path matches one of: ${allowedOutputPaths.join(", ")}. Change nothing else, or nothing is applied.`;
    case "auto":
      return "Apply policy auto: when you complete, all your changes are applied to the parent's workspace.";
  }
}

/** The first user message of a fresh run: the task. */
export function buildTaskMessage(prompt: string): string {
  return `Your task:\n\n${prompt}`;
}

/**
 * The user message that continues a resumed run: who the agent is, its
 * previous run and mode, the new task and the current bus snapshot.
 */
export function buildContinuationMessage(options: {
  readonly identity: SubagentIdentity;
  readonly previousRunId: string;
  readonly previousMode: SubagentMode;
  readonly mode: SubagentMode;
  readonly prompt: string;
  /** A rendered bus snapshot; left out when empty. */
  readonly busSnapshot: string;
}): string {
  const { identity } = options;
  const modeLine =
    options.previousMode === options.mode
      ? `Mode: ${options.mode} (unchanged).`
      : `Mode: ${options.previousMode} -> ${options.mode}. Follow the rules of mode=${options.mode} from now on.`;
  const parts = [
    [
      `You are resuming as ${identity.name} (agent id: ${identity.id}, role: ${identity.role}).`,
      `Previous run: ${options.previousRunId}. The conversation above is that run's context.`,
      modeLine,
    ].join("\n"),
    `New task:\n\n${options.prompt}`,
  ];
  if (options.busSnapshot.trim() !== "") parts.push(options.busSnapshot);
  return parts.join("\n\n");
}
