import type { CronTask } from "../domain/cron-types.js";
import { CRON_CLEARABLE_TASK_FIELDS, type CronTaskPatch } from "./cron-store.js";

const CLEARABLE: ReadonlySet<string> = new Set(CRON_CLEARABLE_TASK_FIELDS);

/**
 * Applies a patch to a task record in place, the same way in every store:
 * `undefined` leaves a field alone, `null` deletes a clearable field
 * (`remainingExecutions: null` is stored: unlimited), anything else is set.
 */
export function applyCronTaskPatch(task: { -readonly [K in keyof CronTask]: CronTask[K] }, patch: CronTaskPatch): void {
  const record = task as Record<string, unknown>;
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) continue;
    if (value === null && CLEARABLE.has(key)) delete record[key];
    else record[key] = value;
  }
}
