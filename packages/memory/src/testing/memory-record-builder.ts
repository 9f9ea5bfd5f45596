/**
 * A test record builder with no test-runner import, so that child processes
 * of the tests (and hosts' own store tests) can use it too.
 */
import type { MemoryRecord } from "../domain/memory-types.js";

/**
 * A plain record with fixed, deterministic fields (global scope unless
 * overridden), for tests that build records by hand rather than through
 * the contract's fresh names.
 *
 * @example
 * const record = memoryRecord({ scope: "project", workdirHash: "0123456789abcdef", slug: "deploy-notes" });
 */
export function memoryRecord(overrides: Partial<MemoryRecord> & Pick<MemoryRecord, "slug">): MemoryRecord {
  return {
    scope: "global",
    workdirHash: "",
    type: "project",
    description: overrides.slug,
    body: `body of ${overrides.slug}`,
    unreviewed: false,
    riskFlags: [],
    source: { confidence: "low" },
    links: {},
    appendCount: 0,
    archived: false,
    bodyHash: `hash-${overrides.slug}`,
    fileMtimeMs: 1,
    fileSize: 1,
    createdAt: 1,
    updatedAt: 1,
    ...overrides,
  };
}
