// The index backends every tool test runs on.
import { type MemoryTestBackend, inMemoryBackend } from "./memory-registry.js";

/** In-memory, and SQLite through the Kysely store. */
export const MEMORY_TEST_BACKENDS: readonly MemoryTestBackend[] = [inMemoryBackend];
