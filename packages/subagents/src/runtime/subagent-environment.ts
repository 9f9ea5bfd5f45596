import type { AdditionalRoot, ModelClient, ToolRegistry } from "@agent-tools/core";
import type { SubagentWorktrees } from "../ports/subagent-worktrees.js";
import type { SubagentConversation } from "./subagent-conversation.js";
import type { SubagentScheduler } from "./subagent-scheduler.js";

/** Options of a fresh registry for a worktree child (the host builds it: file, shell, read-only memory, MCP tools). */
export interface WorktreeRegistryOptions {
  /** The child's working directory inside its worktree. */
  readonly workdir: string;
  /** The parent's additional roots, every one read-only. */
  readonly additionalRoots: readonly AdditionalRoot[];
}

/** Who a child's own tools (its SendMessage) speak for. */
export interface ChildToolOwner {
  readonly agentId: string;
  readonly name: string;
  readonly runId: string;
}

/** Everything a subagent run needs from its registry; one per Agent tool bundle. */
export interface SubagentEnvironment {
  readonly model: ModelClient;
  readonly scheduler: SubagentScheduler;
  readonly conversation: SubagentConversation;
  /** The parent's registry: readonly children use its read-only tools. */
  parentRegistry(): ToolRegistry;
  /** A fresh registry on a worktree; absent: mode=worktree is unavailable. */
  readonly createWorktreeRegistry?: (options: WorktreeRegistryOptions) => Promise<ToolRegistry>;
  /** Worktree provisioning; absent: mode=worktree is unavailable. */
  readonly worktrees?: SubagentWorktrees;
  /** The child's own tools for one run (closed when the run ends); undefined when there are none. */
  ownTools(owner: ChildToolOwner): ToolRegistry | undefined;
  readonly parentWorkdir: string;
  readonly additionalRoots: readonly AdditionalRoot[];
  /** Plan mode or a strictly read-only parent: no MCP business tools for children either. */
  readonly strictReadOnly: boolean;
  /** Rounds a child may take before its run fails. */
  readonly maxRounds: number;
  /** Names worktrees (with the call and agent): e.g. the host's session id. */
  readonly sessionLabel: string;
  now(): number;
  /** A fresh unique id (run ids). */
  randomId(): string;
}
