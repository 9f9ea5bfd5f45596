import { tryRealpath } from "@agent-tools/core/internal";
import type { FastIo } from "../fast-io/fast-io.js";
import type { SearchCaches } from "../search/search-caches.js";
import type { FileToolState } from "./file-state.js";
import type { MutationQueue } from "../file-engine/mutation-queue.js";

/** What every file tool of one bundle shares. */
export interface FsToolEnvironment {
  /** The bundle's file state (one per registry). */
  readonly state: FileToolState;
  /** Serialises Write, Edit and Delete of one file within the bundle (one per registry). */
  readonly mutations: MutationQueue;
  /** Absolute path of the ripgrep binary, or null to use the pure TypeScript engines. */
  readonly ripgrepPath: string | null;
  /** The bundle's hashing worker, buffer pool and WebAssembly instances (closed with the bundle). */
  readonly fastIo: FastIo;
  /**
   * The bundle's search caches (compiled ignore files, name verdicts, Grep's
   * text buffer; dropped with the bundle); undefined: fresh ones per call.
   */
  readonly searchCaches?: SearchCaches;
}

/** The file-state key of a path: its canonical form when it exists. */
export function stateKey(absolutePath: string): string {
  return tryRealpath(absolutePath) ?? absolutePath;
}

/** Standard metadata of the file tools. */
export const FS_GROUP = "fs" as const;
