/** Task records for the runtime tests. */
import type { CronTask } from "../domain/cron-types.js";

/** A stored-looking task with sensible defaults. */
export function testTask(fields: Partial<CronTask> & Pick<CronTask, "type">): CronTask {
  return {
    id: "cron_test",
    name: "test task",
    description: "",
    cron: "* * * * * *",
    enabled: true,
    remainingExecutions: null,
    timeoutSeconds: 300,
    createdAt: 0,
    updatedAt: 0,
    version: 1,
    ...fields,
  };
}
