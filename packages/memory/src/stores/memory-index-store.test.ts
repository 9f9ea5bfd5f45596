import { InMemoryMemoryIndexStore } from "../ports/in-memory-memory-index-store.js";
import { runMemoryIndexStoreContract } from "../testing/memory-index-store-contract.js";

runMemoryIndexStoreContract("in-memory", { open: async () => new InMemoryMemoryIndexStore() });

const shared = new InMemoryMemoryIndexStore();
runMemoryIndexStoreContract("in-memory (one shared instance)", { open: async () => shared, dispose: async () => undefined, sharedBackend: true });
