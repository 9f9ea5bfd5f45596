/** What a running cron scheduler reports through `onEvent`. */

/** One event of a cron scheduler. */
export type CronSchedulerEvent =
  | { readonly type: "started"; readonly owner: string }
  | { readonly type: "tasks-reloaded"; readonly count: number }
  | { readonly type: "run-queued"; readonly taskId: string; readonly runId: string; readonly scheduledAt: number }
  | {
      readonly type: "run-started";
      readonly taskId: string;
      readonly runId: string;
      readonly scheduledAt: number;
      /** True when the run was taken over from a scheduler whose lease lapsed. */
      readonly takenOver: boolean;
    }
  | {
      readonly type: "run-finished";
      readonly taskId: string;
      readonly runId: string;
      readonly scheduledAt: number;
      readonly success: boolean;
      readonly durationMs: number;
    }
  | { readonly type: "lease-lost"; readonly taskId: string; readonly runId: string }
  | { readonly type: "task-disabled"; readonly taskId: string; readonly reason: string }
  | { readonly type: "runs-expired"; readonly count: number }
  | { readonly type: "runs-pruned"; readonly count: number }
  | { readonly type: "error"; readonly message: string; readonly taskId?: string }
  | { readonly type: "stopped"; readonly owner: string };
