import type { MemoryScope } from "../domain/memory-types.js";

/** One scope the query covers: `{ scope: "global", workdirHash: "" }` or a project. */
export interface MemoryScopeRef {
  readonly scope: MemoryScope;
  readonly workdirHash: string;
}
