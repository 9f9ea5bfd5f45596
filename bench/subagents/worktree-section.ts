/**
 * Section 1: a worktree child's git lifecycle on a large repository.
 * GitSubagentWorktrees over GitCliClient (create, changes with one edited
 * file, remove) against the bare git commands run through child_process.
 * isomorphic-git has no linked worktrees: the section reports its error.
 */
import fs from "node:fs/promises";
import path from "node:path";
import { GitCliClient, IsomorphicGitClient } from "@agent-tools/git";
import { GitSubagentWorktrees } from "@agent-tools/subagents";
import { gitAsync, median, ms, ratio, timed } from "./bench-util.js";

/** Medians of one lifecycle's steps, in ms. */
export interface LifecycleTimes {
  readonly create: number;
  readonly changes: number;
  readonly remove: number;
  readonly total: number;
}

const EDITED = "packages/pkg-0/src/area-0/part-0/file-0.ts";

async function editOne(workdir: string, run: number): Promise<void> {
  await fs.appendFile(path.join(workdir, EDITED), `export const edited${run} = true;\n`);
}

/** Create, edit one file, changes, remove through GitSubagentWorktrees, once. */
async function sdkLifecycle(root: string, run: number): Promise<LifecycleTimes> {
  const worktrees = new GitSubagentWorktrees({ git: new GitCliClient() });
  {
    let worktree: Awaited<ReturnType<GitSubagentWorktrees["create"]>> | undefined;
    const create = await timed(async () => {
      worktree = await worktrees.create({ workdir: root, label: "bench" });
    });
    await editOne(worktree!.workdir, run);
    let changed: readonly string[] = [];
    const changes = await timed(async () => {
      changed = (await worktrees.changes(worktree!, { maxDiffChars: 100_000 })).changedPaths;
    });
    if (changed.join() !== EDITED) throw new Error(`unexpected changed paths: ${changed.join(", ")}`);
    const remove = await timed(() => worktrees.remove(worktree!));
    return { create, changes, remove, total: create + changes + remove };
  }
}

/** The same lifecycle with plain git commands (worktree add -b, add -N + diff, worktree remove --force, branch -D), once. */
async function bareLifecycle(root: string, run: number): Promise<LifecycleTimes> {
  const folder = path.join(path.dirname(root), ".bare-worktrees");
  {
    const branch = `bench/bare-${run + 1}`;
    const target = path.join(folder, `bare-${run + 1}`);
    const create = await timed(() => gitAsync(root, "worktree", "add", "-q", "-b", branch, target));
    await editOne(target, run);
    let names = "";
    const changes = await timed(async () => {
      // Untracked files count too, as in the SDK: mark them intent-to-add, then one binary diff.
      await gitAsync(target, "add", "-A", "-N");
      names = (await gitAsync(target, "diff", "--binary", "HEAD", "--name-only")).trim();
      await gitAsync(target, "diff", "--binary", "HEAD");
    });
    if (names !== EDITED) throw new Error(`unexpected bare changed paths: ${names}`);
    const remove = await timed(async () => {
      await gitAsync(root, "worktree", "remove", "--force", target);
      await gitAsync(root, "branch", "-D", "-q", branch);
    });
    return { create, changes, remove, total: create + changes + remove };
  }
}

/** What isomorphic-git says when asked for a linked worktree (it has none). */
async function isomorphicAttempt(root: string): Promise<string> {
  const client = new IsomorphicGitClient();
  const target = path.join(path.dirname(root), ".iso-worktree");
  try {
    await client.addWorktree(root, { path: target, branch: "bench/iso" });
    return "isomorphic-git: addWorktree unexpectedly succeeded (no figure recorded)";
  } catch (error) {
    const code = (error as { code?: string }).code ?? "no code";
    let viaRuntime = "";
    try {
      await new GitSubagentWorktrees({ git: client }).create({ workdir: root, label: "bench" });
      viaRuntime = "GitSubagentWorktrees over it unexpectedly succeeded";
    } catch (runtimeError) {
      viaRuntime = `GitSubagentWorktrees over it rejects with ${(runtimeError as { code?: string }).code ?? "no code"}`;
    }
    return `isomorphic-git: no linked worktrees, addWorktree rejects with code ${code} (${(error as Error).message.split("\n")[0]}); ${viaRuntime}. No figure.`;
  }
}

/** Runs section 1 and prints its table. */
export async function runWorktreeSection(root: string, runs: number, describe: string): Promise<void> {
  // One unmeasured warm-up of each, then runs alternating which side goes first, so drift in the load lands on both.
  await sdkLifecycle(root, -1);
  await bareLifecycle(root, -1);
  const sdkRuns: LifecycleTimes[] = [];
  const bareRuns: LifecycleTimes[] = [];
  for (let run = 0; run < runs; run++) {
    if (run % 2 === 0) {
      sdkRuns.push(await sdkLifecycle(root, run));
      bareRuns.push(await bareLifecycle(root, run));
    } else {
      bareRuns.push(await bareLifecycle(root, run));
      sdkRuns.push(await sdkLifecycle(root, run));
    }
  }
  const medians = (all: LifecycleTimes[]): LifecycleTimes => ({
    create: median(all.map((times) => times.create)),
    changes: median(all.map((times) => times.changes)),
    remove: median(all.map((times) => times.remove)),
    total: median(all.map((times) => times.total)),
  });
  const sdk = medians(sdkRuns);
  const bare = medians(bareRuns);
  console.log(`\n1. worktree lifecycle on ${describe}; median of ${runs} runs`);
  console.log("step | GitSubagentWorktrees (git CLI) ms | bare git ms | ratio SDK/bare");
  for (const step of ["create", "changes", "remove", "total"] as const) {
    console.log(`${step} | ${ms(sdk[step])} | ${ms(bare[step])} | ${ratio(sdk[step], bare[step])}`);
  }
  console.log(await isomorphicAttempt(root));
}
