/**
 * Not public API: shared by the @agent-tools packages, may change in any release.
 *
 * The SQLite file name and its resolution, for benchmarks and tests. Hosts import from `@agent-tools/storage`.
 *
 * @packageDocumentation
 */
export { DEFAULT_SQLITE_FILE_NAME, resolveSqliteFilename } from "./open-sqlite-storage.js";
