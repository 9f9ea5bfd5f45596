import { SUBAGENT_LIMITS } from "../domain/subagent-types.js";
import { KeyedMutex, Semaphore } from "./semaphore.js";

/** Limits of a {@link SubagentScheduler}; tests make them small. */
export interface SubagentSchedulerLimits {
  /** Subagent runs at once across every Agent call of the registry; default 8. */
  readonly runs?: number;
  /** Bash executions at once across every child; default 4. */
  readonly bash?: number;
}

/**
 * What keeps a registry's subagents within bounds: at most 8 runs and 4
 * Bash executions at once across all Agent calls and children, runs of the
 * same agent one after another (across calls), and worktree applies one at
 * a time. One per registry (its bundle), never a module global.
 */
export class SubagentScheduler {
  /** Subagent runs. */
  readonly runs: Semaphore;
  /** Bash executions of children. */
  readonly bash: Semaphore;
  /** Runs of one agent (key: conversation and lower-cased agent id). */
  readonly agents = new KeyedMutex();
  /** Worktree applies to the parent's work tree. */
  readonly applies = new Semaphore(1);

  constructor(limits: SubagentSchedulerLimits = {}) {
    this.runs = new Semaphore(limits.runs ?? SUBAGENT_LIMITS.maxParallelRuns);
    this.bash = new Semaphore(limits.bash ?? SUBAGENT_LIMITS.maxParallelBash);
  }
}
