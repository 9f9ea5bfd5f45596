/** What the GitClient contract files share: the target type and small helpers. */

import type { GitClient } from "@agent-tools/core";

/** A GitClient adapter under test. */
export interface GitClientContractTarget {
  /** Shown in the suite's title. */
  name: string;
  create(): GitClient | Promise<GitClient>;
  /** False when the adapter rejects worktree add/remove with `SdkError("unsupported")`; default true. */
  supportsWorktrees?: boolean;
  /** False when the adapter clones http(s) URLs only and rejects a local repository with `SdkError("unsupported")`; default true. */
  supportsLocalClone?: boolean;
  /** False when the adapter rejects a 3-way apply that needs a merge with `SdkError("unsupported")`; default true. */
  supportsThreeWay?: boolean;
}

/** `count` numbered lines (`line N`), some replaced by `change`, with a final newline. */
export const numbered = (count: number, change?: Record<number, string>): string =>
  `${Array.from({ length: count }, (_, index) => change?.[index + 1] ?? `line ${index + 1}`).join("\n")}\n`;

/** What `promise` rejects with, or undefined when it resolves. */
export async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
}
