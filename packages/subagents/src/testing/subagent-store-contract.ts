import { describe } from "vitest";
import { type SubagentStoreContractTarget, subagentStoreContractContext } from "./subagent-store-contract-fixtures.js";
import { describeSubagentIdentityAndRunContract } from "./subagent-store-identity-run-contract.js";
import { describeSubagentMessageContract } from "./subagent-store-message-contract.js";

export type { SubagentStoreContractTarget } from "./subagent-store-contract-fixtures.js";

/**
 * The contract every {@link SubagentStore} meets: identities (case-insensitive
 * ids keeping their first case, byte-order listing), runs (round trip of
 * every field and the messages JSON, newest-first listing with agent filter,
 * limit and cheap listing, prune per agent), the message bus (seq 1.. per
 * conversation, paging, round trip, gapless under concurrent appends, also
 * from two store instances over one backend), isolation between
 * conversations, and deep copies in and out.
 *
 * @example
 * runSubagentStoreContract("in-memory", { open: async () => new InMemorySubagentStore() });
 */
export function runSubagentStoreContract(label: string, target: SubagentStoreContractTarget): void {
  describe(`SubagentStore contract: ${label}`, () => {
    const context = subagentStoreContractContext(target);
    describeSubagentIdentityAndRunContract(context);
    describeSubagentMessageContract(context);
  });
}
