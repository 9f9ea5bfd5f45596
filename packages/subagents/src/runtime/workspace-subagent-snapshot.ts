/**
 * What a child's worktree on a non-local workspace changed, read by git run
 * through the workspace's processes, trusting nothing inside the worktree
 * (the same invariants as the git CLI adapter's local snapshot):
 *
 * - git finds nothing by discovery and reads none of the repository's
 *   config or attributes: it runs in a private git directory made for the
 *   read in a scratch folder of the workspace (`workspace-subagent-private-git.ts`),
 *   `GIT_WORK_TREE` the worktree, `GIT_INDEX_FILE` a throwaway index; the
 *   worktree's own `.git` file is never read; diffs run with
 *   `--no-ext-diff --no-textconv`.
 * - Submodules the child populated and nested repositories it made are left
 *   out of `git add` and reported (their `.git` is never read).
 * - Bounded: changed files are sized with `lstat` before git reads them;
 *   git's output is read up to `maxBytes`.
 *
 * Unlike the local read, the worktree's index is not copied for its cached
 * stat data (the port sets no mtimes): every file of the worktree is hashed.
 */
import { randomBytes } from "node:crypto";
import { posix } from "node:path";
import type { GitWorktreeExclusion, GitWorktreeSnapshot } from "@agent-tools/core/git";
import type { Workspace } from "@agent-tools/core/workspace";
import type { SubagentWorktree } from "../ports/subagent-worktrees.js";
import { SubagentWorktreeError } from "./git-subagent-worktree-error.js";
import { isUtf8, parseBlobBatch, parseRaw, refusedByAdd } from "@agent-tools/core/internal";
import { existsIn, lstatIn, removeTreeIn } from "./workspace-subagent-fs.js";
import { type WorkspaceGitRun, describeGitRun } from "./workspace-subagent-git.js";
import { commonGitDir, preparePrivateGit } from "./workspace-subagent-private-git.js";

const BINARY_ATTRIBUTES = "* !filter -diff -merge -text\n";
const MAX_EXCLUSION_RETRIES = 64;
const utf8 = new TextDecoder("utf-8", { fatal: true });

/** Options of {@link snapshotWorkspaceWorktree}. */
export interface WorkspaceSnapshotOptions {
  /** A folder of the workspace (not the worktree) to hold the read's scratch folder, removed afterwards. */
  readonly scratchParent: string;
  /** Most bytes of changed files and of git's output read. */
  readonly maxBytes: number;
  readonly signal?: AbortSignal;
}

function unreadable(worktree: SubagentWorktree, message: string, details: Record<string, unknown> = {}): SubagentWorktreeError {
  return new SubagentWorktreeError("worktree_unreadable", message, { worktreePath: worktree.path, ...details });
}

/**
 * The worktree's changes against `worktree.baseCommit`, read through the
 * workspace (see the module comment). Rejects with `worktree_unreadable`
 * when git fails or the changes are larger than `maxBytes`.
 *
 * @example
 * const snapshot = await snapshotWorkspaceWorktree(workspace, worktree, { scratchParent: "/srv/app/.agent-tools-subagents/app", maxBytes: 64 << 20 });
 */
export async function snapshotWorkspaceWorktree(
  workspace: Workspace,
  worktree: SubagentWorktree,
  options: WorkspaceSnapshotOptions,
): Promise<GitWorktreeSnapshot> {
  const stats = await lstatIn(workspace, worktree.path);
  if (stats?.type !== "directory") throw unreadable(worktree, `The worktree ${worktree.path} is gone (or not a folder).`);
  const scratch = posix.join(options.scratchParent, `.snapshot-${randomBytes(6).toString("hex")}`);
  await workspace.fs.mkdir(scratch, { recursive: true });
  try {
    return await snapshotIn(workspace, worktree, scratch, options);
  } finally {
    await removeTreeIn(workspace, scratch).catch(() => undefined);
  }
}

async function snapshotIn(workspace: Workspace, worktree: SubagentWorktree, scratch: string, options: WorkspaceSnapshotOptions): Promise<GitWorktreeSnapshot> {
  const { signal, maxBytes } = options;
  const root = worktree.repositoryRoot;
  // 1. Facts from the repository itself (trusted).
  const commonDir = await commonGitDir(workspace, root, signal);
  if (typeof commonDir !== "string")
    throw unreadable(worktree, `${root} is not a git repository (${describeGitRun(["rev-parse", "--git-common-dir"], commonDir)})`);
  const base = worktree.baseCommit;
  if (base === undefined || !/^(?:[0-9a-f]{40}|[0-9a-f]{64})$/.test(base)) throw unreadable(worktree, `The worktree ${worktree.path} has no base commit id.`);

  // 2. The private git directory and the throwaway index, in the scratch folder.
  const privateGit = await preparePrivateGit(workspace, {
    scratch,
    repositoryRoot: root,
    commonDir,
    baseCommit: base,
    workTree: worktree.path,
    ...(signal === undefined ? {} : { signal }),
  });
  const { gitDir } = privateGit;
  const write = (target: string, text: string) => workspace.fs.writeFileAtomic(target, Buffer.from(text, "utf8"));
  const git = (args: readonly string[], input?: string, bounded = false) =>
    privateGit.run(args, { ...(input === undefined ? {} : { input }), ...(bounded ? { maxStdoutBytes: maxBytes } : {}) });
  const tooLarge = (what: string) =>
    new SubagentWorktreeError(
      "worktree_unreadable",
      `The changes of the worktree ${worktree.path} are larger than ${maxBytes} bytes (${what}), more than the host reads; nothing was read or applied. Look at the worktree by hand, or have the agent leave fewer or smaller files.`,
      { worktreePath: worktree.path, maxPatchBytes: maxBytes },
    );
  const checked = async (args: readonly string[], message: string, input?: string, bounded = false): Promise<WorkspaceGitRun> => {
    const run = await git(args, input, bounded);
    if (run.overflowed === true) throw tooLarge(`of patch: git ${args[0]}`);
    if (run.exitCode !== 0)
      throw unreadable(worktree, `${message} (${describeGitRun(args, run)})`, { exitCode: run.exitCode, stderr: run.stderr.slice(0, 4_000) });
    return run;
  };
  await checked(["read-tree", base], `Cannot read the tree of ${base}`);

  // 3. Submodules: never entered; one the child populated (a .git inside) is left out and refused.
  const excluded: GitWorktreeExclusion[] = [];
  const staged = (await checked(["ls-files", "--stage", "-z"], "Cannot list the worktree's index", undefined, true)).stdout.toString("utf8").split("\0");
  const submodules = staged.filter((line) => line.startsWith("160000 ")).map((line) => line.slice(line.indexOf("\t") + 1));
  for (const submodule of submodules) {
    if (await existsIn(workspace, posix.join(worktree.path, submodule, ".git"))) {
      excluded.push({ path: submodule, reason: "submodule", detail: "the child put a .git in this submodule's folder" });
    }
  }

  // 4. Sized before git reads them; nested repositories the child made are left out.
  const listArgs = ["ls-files", "-z", "--others", "--modified", "--exclude-standard", "--", "."];
  const candidates = (await checked(listArgs, "Cannot list the worktree's changed files", undefined, true)).stdout;
  let contentBytes = 0;
  const leftOut = new Set(submodules);
  for (const name of candidates.toString("utf8").split("\0")) {
    if (name === "") continue;
    if (name.endsWith("/") && (await existsIn(workspace, posix.join(worktree.path, name, ".git")))) {
      const folder = name.slice(0, -1);
      leftOut.add(folder);
      excluded.push({ path: folder, reason: "submodule", detail: "a nested repository the child made (its .git is never read)" });
      continue;
    }
    const entry = await lstatIn(workspace, posix.join(worktree.path, name)).catch(() => undefined);
    if (entry?.type === "file") contentBytes += entry.size;
    if (contentBytes > maxBytes) throw tooLarge("of changed files");
  }

  // 5. Stage the work tree into the throwaway index; a path git cannot take is left out and reported.
  for (let attempt = 0; ; attempt += 1) {
    const args = ["add", "-A", "--", ".", ...[...leftOut].map((entry) => `:(exclude,literal)${entry}`)];
    const added = await git(args);
    if (added.exitCode === 0) break;
    const refused = refusedByAdd(added.stderr);
    if (refused === undefined || leftOut.has(refused.path) || attempt >= MAX_EXCLUSION_RETRIES) {
      throw unreadable(worktree, `Cannot read the changes of the worktree ${worktree.path} (${describeGitRun(args, added)})`);
    }
    leftOut.add(refused.path);
    excluded.push(refused);
  }

  // 6. The patch, the changed paths with their modes, and the targets of changed links.
  const diffArgs = [
    "diff",
    "--cached",
    "--binary",
    "--full-index",
    "--no-renames",
    "--no-color",
    "--no-ext-diff",
    "--no-textconv",
    "--src-prefix=a/",
    "--dst-prefix=b/",
    base,
    "--",
  ];
  const output = (await checked(diffArgs, "Cannot diff the worktree", undefined, true)).stdout;
  let patch: string;
  try {
    patch = utf8.decode(output);
  } catch {
    // Text that is not UTF-8 would not survive as a string: every file as a binary patch instead.
    await write(posix.join(gitDir, "info", "attributes"), BINARY_ATTRIBUTES);
    patch = (await checked(diffArgs, "Cannot diff the worktree", undefined, true)).stdout.toString("latin1");
  }
  const rawArgs = ["diff", "--cached", "--raw", "-z", "--no-renames", "--no-abbrev", "--no-ext-diff", "--no-textconv", base, "--"];
  const raw = parseRaw((await checked(rawArgs, "Cannot list the worktree's changes", undefined, true)).stdout);
  const links = raw.filter((entry) => entry.newMode === "120000");
  const targets = new Map<string, string>();
  if (links.length > 0) {
    const input = links.map((entry) => `${entry.newObject}\n`).join("");
    const batch = await checked(["cat-file", "--batch"], "Cannot read the worktree's symbolic links", input, true);
    const blobs = parseBlobBatch(batch.stdout, links.length);
    if (blobs === undefined) throw unreadable(worktree, "Cannot read the targets of the worktree's symbolic links.");
    links.forEach((entry, index) => {
      targets.set(entry.path, blobs[index]!.toString("utf8"));
      if (!isUtf8(blobs[index]!)) excluded.push({ path: entry.path, reason: "invalid_path", detail: "a link whose target is not UTF-8" });
    });
  }
  for (const entry of raw) if (!entry.utf8) excluded.push({ path: entry.path, reason: "invalid_path", detail: "a name that is not UTF-8" });
  const changes = raw.map(({ path: changed, oldMode, newMode }) =>
    targets.has(changed) ? { path: changed, oldMode, newMode, linkTarget: targets.get(changed)! } : { path: changed, oldMode, newMode },
  );
  return { patch, changes, excluded };
}
