/**
 * GitCliClient vs IsomorphicGitClient on one repository: status, diff and
 * apply of a typical subagent change set. Prints the median of several runs
 * and the ratio isomorphic / CLI.
 *
 *   npx tsx --conditions=@agent-tools/source bench/git/git-clients-bench.ts [files] [runs]
 */
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import type { GitClient } from "@agent-tools/core";
import { GitCliClient, IsomorphicGitClient } from "@agent-tools/git";

const fileCount = Number(process.argv[2] ?? 2000);
const runs = Number(process.argv[3] ?? 5);

const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", args, {
    cwd,
    env: { ...process.env, GIT_AUTHOR_NAME: "b", GIT_AUTHOR_EMAIL: "b@x", GIT_COMMITTER_NAME: "b", GIT_COMMITTER_EMAIL: "b@x" },
  });

async function makeRepository(base: string): Promise<string> {
  const root = path.join(base, "repo");
  git(base, "init", "-q", "-b", "main", root);
  for (let index = 0; index < fileCount; index++) {
    const directory = path.join(root, `src/module-${index % 40}`);
    await mkdir(directory, { recursive: true });
    await writeFile(
      path.join(directory, `file-${index}.ts`),
      `${Array.from({ length: 60 }, (_, line) => `export const value${line} = ${index * line};`).join("\n")}\n`,
    );
  }
  for (let index = 0; index < 5; index++) await writeFile(path.join(root, `asset-${index}.bin`), randomBytes(20_000));
  git(root, "add", "-A");
  git(root, "commit", "-q", "-m", "initial");
  // The change set: 50 edited files, 20 new files, 2 deleted, 2 binary files changed.
  for (let index = 0; index < 50; index++) {
    const file = path.join(root, `src/module-${(index * 7) % 40}/file-${(index * 7) % fileCount}.ts`);
    await writeFile(
      file,
      `${Array.from({ length: 60 }, (_, line) =>
        line === 30 ? "export const changed = true;" : `export const value${line} = ${((index * 7) % fileCount) * line};`,
      ).join("\n")}\n`,
    );
  }
  await mkdir(path.join(root, "src/new"), { recursive: true });
  for (let index = 0; index < 20; index++) await writeFile(path.join(root, `src/new/added-${index}.ts`), `export const added = ${index};\n`);
  await rm(path.join(root, "src/module-1/file-1.ts"));
  await rm(path.join(root, "src/module-2/file-2.ts"));
  for (let index = 0; index < 2; index++) await writeFile(path.join(root, `asset-${index}.bin`), randomBytes(20_000));
  return root;
}

/** Median duration; `run` may return its own measured duration (to leave setup out). */
async function median(run: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let index = 0; index < runs; index++) {
    const start = performance.now();
    const measured = await run();
    times.push(typeof measured === "number" ? measured : performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

const base = await mkdtemp(path.join(os.tmpdir(), "agent-tools-git-bench-"));
try {
  const root = await makeRepository(base);
  const clients: [string, GitClient][] = [
    ["git CLI", new GitCliClient()],
    ["isomorphic-git", new IsomorphicGitClient()],
  ];
  const results: Record<string, Record<string, number>> = {};
  const patch = await clients[0]![1].diff(root);
  let clone = 0;
  for (const [name, client] of clients) {
    results[name] = {
      status: await median(() => client.status(root)),
      diff: await median(() => client.diff(root)),
      apply: await median(async () => {
        const target = path.join(base, `clone-${clone++}`);
        git(base, "clone", "-q", root, target);
        const start = performance.now();
        await client.apply(target, patch);
        return performance.now() - start;
      }),
    };
  }
  console.log(
    `repository: ${fileCount} files + 5 binary; change set: 50 edits, 20 new, 2 deleted, 2 binary; median of ${runs} runs (apply into a fresh clone, clone time left out)`,
  );
  console.log("operation | git CLI ms | isomorphic-git ms | ratio isomorphic/CLI");
  for (const operation of ["status", "diff", "apply"]) {
    const cli = results["git CLI"]![operation]!;
    const iso = results["isomorphic-git"]![operation]!;
    console.log(`${operation} | ${cli.toFixed(1)} | ${iso.toFixed(1)} | ${(iso / cli).toFixed(2)}`);
  }
} finally {
  await rm(base, { recursive: true, force: true });
}
