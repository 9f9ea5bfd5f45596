/**
 * Whether a task's workdir lies inside the directories the registry that
 * created it may write (its workspace and roots granted with write access),
 * by canonical path: symlinks resolved, so `/`, `..`, a symlink leading out
 * or a folder swapped for one are caught. Checked when a task is created or
 * changed and again right before each run.
 */
import { canonicalizeTarget, isWithin, tryRealpath } from "@agent-tools/core/internal";
import { type CronTaskPolicy, cronPolicyReadOnlyRoots, cronPolicyWritableRoots, describeCronPolicyWritableRoots } from "../domain/cron-task-policy.js";

/** The verdict on one workdir. */
export interface CronWorkdirVerdict {
  /** Its canonical path (a missing tail appended as written); undefined when it cannot be resolved (a symlink loop). */
  readonly canonical: string | undefined;
  /** True when `canonical` lies in one of the writable roots that still resolve to their recorded path. */
  readonly inside: boolean;
  /** Writable roots that no longer resolve to their recorded path (moved, deleted, or replaced by a symlink). */
  readonly changedRoots: readonly string[];
}

/**
 * Judges `workdir` against `policy`'s writable roots. The roots are
 * canonical already (recorded that way); each is resolved again, and one
 * that now resolves elsewhere counts for nothing.
 *
 * @example
 * judgeCronWorkdir("/repo/..", policy); // { canonical: "/", inside: false, changedRoots: [] }
 */
export function judgeCronWorkdir(workdir: string, policy: CronTaskPolicy): CronWorkdirVerdict {
  const roots = cronPolicyWritableRoots(policy);
  const changedRoots = roots.filter((root) => tryRealpath(root) !== root);
  let canonical: string | undefined;
  try {
    canonical = canonicalizeTarget(workdir).canonicalPath;
  } catch {
    canonical = undefined;
  }
  const inside = canonical !== undefined && roots.some((root) => !changedRoots.includes(root) && isWithin(root, canonical));
  return { canonical, inside, changedRoots };
}

/**
 * Why `workdir` may not be used, for the model or a run log, or undefined
 * when it lies inside the writable roots. `subject` names it (e.g.
 * `workdir "/"`, `The working directory /x of task cron_1`).
 */
export function cronWorkdirRefusal(subject: string, workdir: string, verdict: CronWorkdirVerdict, policy: CronTaskPolicy, whose: string): string | undefined {
  if (verdict.inside) return undefined;
  const resolved =
    verdict.canonical === undefined
      ? " (it cannot be resolved: a symlink loop)"
      : verdict.canonical !== workdir
        ? ` (it resolves to ${verdict.canonical})`
        : "";
  const changed =
    verdict.changedRoots.length === 0
      ? ""
      : `; ${verdict.changedRoots.join(", ")} no longer resolve${verdict.changedRoots.length === 1 ? "s" : ""} to ${verdict.changedRoots.length === 1 ? "itself" : "themselves"} and count${verdict.changedRoots.length === 1 ? "s" : ""} for nothing`;
  return `${subject}${resolved} is outside the directories ${whose} may write: ${describeCronPolicyWritableRoots(policy)}${changed}`;
}

/** A policy's roots that still resolve to their recorded canonical path, by access. */
export interface LiveCronPolicyRoots {
  /** The workspace and the write roots. */
  readonly writable: readonly string[];
  readonly readOnly: readonly string[];
}

/**
 * The roots of `policy` that may be bound into a run now: each resolved
 * again and kept only when it still resolves to itself (a root replaced by
 * a symlink since it was recorded would bind wherever the link points).
 *
 * @example
 * liveCronPolicyRoots(policy); // { writable: ["/repo"], readOnly: [] }
 */
export function liveCronPolicyRoots(policy: CronTaskPolicy): LiveCronPolicyRoots {
  const live = (root: string) => tryRealpath(root) === root;
  return { writable: cronPolicyWritableRoots(policy).filter(live), readOnly: cronPolicyReadOnlyRoots(policy).filter(live) };
}
