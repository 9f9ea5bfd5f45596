/** Task records for the runtime tests. */
import os from "node:os";
import { canonicalizeTarget } from "@agent-tools/core/internal";
import type { CronTaskPolicy } from "../domain/cron-task-policy.js";
import type { CronTask } from "../domain/cron-types.js";

/**
 * The policy of a registry whose workspace is `workdir` (default the temp
 * directory), without a sandbox, that lets http tasks reach loopback: the
 * tests' servers listen on 127.0.0.1, the only network of the test machines.
 */
export function testPolicy(workdir?: string, overrides: Partial<CronTaskPolicy> = {}): CronTaskPolicy {
  return {
    workspace: canonicalizeTarget(workdir ?? os.tmpdir()).canonicalPath,
    roots: [],
    allowedPrivateNetworks: ["127.0.0.0/8"],
    ...overrides,
  };
}

/** A stored-looking task with sensible defaults (the policy of {@link testPolicy} on its workdir unless given, `policy: undefined` included). */
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
    ...("policy" in fields ? {} : { policy: testPolicy(fields.workdir) }),
    ...fields,
  };
}
