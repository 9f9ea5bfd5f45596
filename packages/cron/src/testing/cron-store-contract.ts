import { describe } from "vitest";
import type { CronStoreContractTarget } from "./cron-store-contract-fixtures.js";
import { describeCronLeaseContract } from "./cron-store-lease-contract.js";
import { describeCronRaceContract } from "./cron-store-race-contract.js";
import { describeCronRunContract } from "./cron-store-run-contract.js";
import { describeCronTaskContract } from "./cron-store-task-contract.js";

export type { CronStoreContractTarget, OpenedCronStore, OpenedCronStores } from "./cron-store-contract-fixtures.js";

/**
 * The contract every {@link CronStore} meets: tasks (ids, round trip of
 * every field, listing, partial and optimistic updates, delete with runs,
 * the fingerprint), claims (once per occurrence, pending for the prompt
 * queue, refused for a task gone, disabled or exhausted, the decrement down
 * to 0), leases (renew, finish only by the owner, takeover of lapsed leases
 * only, lease loss), the prompt queue and its expiry, the run log, pruning,
 * and races between schedulers (stores from `openMany` when given).
 *
 * @example
 * runCronStoreContract({ name: "in-memory", open: async () => ({ store: new InMemoryCronStore(), close: async () => {} }) });
 */
export function runCronStoreContract(target: CronStoreContractTarget): void {
  describe(`CronStore contract: ${target.name}`, () => {
    describeCronTaskContract(target);
    describeCronRunContract(target);
    describeCronLeaseContract(target);
    describeCronRaceContract(target);
  });
}
