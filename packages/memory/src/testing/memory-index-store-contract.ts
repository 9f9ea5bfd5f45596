import { describe } from "vitest";
import { contractContext, type MemoryIndexStoreContractTarget } from "./memory-contract-fixtures.js";
import { describeMemoryIndexLogContract } from "./memory-index-log-contract.js";
import { describeMemoryIndexReadContract } from "./memory-index-read-contract.js";
import { describeMemoryIndexSearchContract } from "./memory-index-search-contract.js";
import { describeMemoryIndexWriteContract } from "./memory-index-write-contract.js";
import { describeMemoryVectorIndexContract } from "./memory-vector-index-contract.js";

export type { MemoryIndexStoreContractTarget } from "./memory-contract-fixtures.js";

/**
 * The contract every {@link MemoryIndexStore} meets: get and list (order,
 * paging, filters, scopes), the quota count, search on the word and the
 * trigram index (diacritics, phrases, OR, CJK, BM25 order, filters), atomic
 * compare-and-set batches (also racing from two store instances), deletes,
 * file states, the audit log and organise runs, and the vector index
 * (`describeMemoryVectorIndexContract`: scope isolation, body-hash currency,
 * cascades, model ids, pruning, filters, order, validation, races).
 *
 * @example
 * runMemoryIndexStoreContract("in-memory", { open: async () => new InMemoryMemoryIndexStore() });
 */
export function runMemoryIndexStoreContract(label: string, target: MemoryIndexStoreContractTarget): void {
  describe(`MemoryIndexStore contract: ${label}`, () => {
    const context = contractContext(target);
    describeMemoryIndexReadContract(context);
    describeMemoryIndexSearchContract(context);
    describeMemoryIndexWriteContract(context);
    describeMemoryIndexLogContract(context);
    describe("vectors", () => describeMemoryVectorIndexContract(context));
  });
}
