/**
 * What the diagnostics-after-edits provider needs from a manager beyond its
 * public interface: the running instance of a path without starting one,
 * and direct document sync. Carried on the manager under a symbol, so the
 * tool's API stays the design's.
 */
import type { LanguageServerInstance } from "./language-server-instance.js";
import type { LanguageServerManager } from "./language-server-manager-types.js";

/** The diagnostics-facing internals the edit-diagnostics provider uses (not part of the tool's API). */
export interface LanguageServerManagerInternals {
  /** The running instance for `path` without starting one. */
  runningInstanceFor(path: string): LanguageServerInstance | undefined;
  /** Starts (or reuses) the instance for `path`. */
  instanceFor(path: string): Promise<LanguageServerInstance>;
  /** The file's text through the workspace port. */
  readText(path: string, signal?: AbortSignal): Promise<string>;
  /** Makes the server hold `text` for `path` (didOpen / didChange). */
  syncText(instance: LanguageServerInstance, path: string, text: string): Promise<void>;
}

/** The property under which a manager carries its internals. */
export const MANAGER_INTERNALS: unique symbol = Symbol.for("agent-tools.lsp.manager-internals");

/** The internals of a manager made by `createLanguageServerManager`. */
export function managerInternals(manager: LanguageServerManager): LanguageServerManagerInternals | undefined {
  return (manager as unknown as Record<symbol, LanguageServerManagerInternals | undefined>)[MANAGER_INTERNALS];
}
