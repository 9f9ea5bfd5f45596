/**
 * How the CLI adapter runs git on a worktree someone else wrote (a
 * subagent's; `GitClient.snapshotWorktree`). Everything inside the
 * worktree is that writer's data, never configuration: the worktree's `.git`
 * file (which the child may rewrite to name a git directory it wrote), its
 * `.gitattributes` (which may name filter, diff and merge drivers), nested
 * `.git` entries (submodules git would recurse into) and the host's own
 * `GIT_*` variables are all kept out of the host's git runs.
 *
 * Invariants of every run here:
 * - git finds nothing by discovery: `GIT_DIR` is a private git directory
 *   made for the run (HEAD at the base commit, objects borrowed read-only
 *   from the repository through `objects/info/alternates`, a config written
 *   here), `GIT_WORK_TREE` the worktree, `GIT_INDEX_FILE` a throwaway index.
 * - The environment is built from nothing: `PATH`, a private `HOME` and
 *   `XDG_CONFIG_HOME`, no system config (`GIT_CONFIG_NOSYSTEM`), an empty
 *   global config (`GIT_CONFIG_GLOBAL`), no system attributes.
 * - The private config defines no filter, diff or merge driver, so an
 *   attribute naming one names nothing; `info/attributes` (the highest
 *   precedence) unsets `filter`, `diff` and `merge` for every path anyway.
 *   Hooks point at `/dev/null`, fsmonitor, the untracked cache and the split
 *   index are off; diffs run with `--no-ext-diff --no-textconv`.
 * - Submodules (gitlinks of the index) are excluded from `git add`, so git
 *   never runs `git status` inside one (that run would read the submodule's
 *   own `.git`, which the child controls); so are nested repositories the
 *   child made (a `.git` file there may name any repository of the host,
 *   whose HEAD `git add` would record), reported as `submodule` exclusions.
 * - Bounded reads: the untracked and modified files are sized with `lstat`
 *   before git reads them, and git's output is read up to `maxBytes`
 *   (git killed past it); more is a `too_large` GitClientError, never a
 *   host holding a child's gigabytes.
 * - Only a few settings that change what a diff means (line endings, file
 *   modes, symlinks, case, the user's global excludes file) are carried over
 *   from the repository's config, read in the repository (not the worktree).
 */
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { GitClientError } from "@agent-tools/core";
import type { GitWorktreeExclusion, GitWorktreeSnapshot } from "@agent-tools/core/git";
import { type GitRun, runIsolatedGit, withoutRepositoryVariables } from "./isolated-git-run.js";
import { carriedSettings, findWorktreeGitDir, privateConfig } from "./private-git-config.js";
import { isUtf8, parseBlobBatch, parseRaw, refusedByAdd } from "@agent-tools/core/internal";
import { stagedDiffArguments } from "../staged-diff-arguments.js";

/** The worktree a snapshot reads: the repository it belongs to and the commit its changes count from. */
export interface SnapshotTarget {
  /** A directory of the repository the worktree belongs to (trusted: git runs there as usual). */
  readonly repositoryRoot: string;
  /** The linked worktree (untrusted). */
  readonly path: string;
  /** The commit the diff is against; absent: the worktree's HEAD as its git directory records it. */
  readonly baseCommit?: string;
}

/** Settings every run gets on its command line (the highest precedence). */
const HARDENING = ["core.hooksPath=/dev/null", "core.fsmonitor=false", "core.untrackedCache=false", "core.splitIndex=false", "core.sparseCheckout=false"];
/** The objects a snapshot writes are thrown away: stored, not compressed; binary patches at zlib's fastest level. */
const THROWAWAY_OBJECTS = ["core.looseCompression=0", "core.compression=1"];
/** Unsets every driver attribute; the private config defines none anyway. */
const NEUTRAL_ATTRIBUTES = "* !filter !diff !merge\n";
/** The same, with every file's patch written as binary (for trees with text that is not UTF-8). */
const BINARY_ATTRIBUTES = "* !filter -diff -merge -text\n";
/** Default most bytes of a worktree's changed files, and of its patch, a snapshot reads: 64 MiB. */
export const DEFAULT_SNAPSHOT_MAX_BYTES = 64 * 1024 * 1024;
/** Retries of `git add` after it named a path it cannot take (each retry leaves one more path out). */
const MAX_EXCLUSION_RETRIES = 64;
const utf8 = new TextDecoder("utf-8", { fatal: true });

function failure(message: string, run: GitRun, args: readonly string[], code: "not_a_repository" | "command_failed" = "command_failed"): GitClientError {
  const stderr = run.stderr.trim().slice(0, 4_000);
  return new GitClientError(code, `${message} (git ${args.join(" ")}: exit ${run.exitCode}: ${stderr || "no message"})`, {
    command: `git ${args.join(" ")}`,
    exitCode: run.exitCode,
    stderr,
  });
}

async function exists(target: string | Buffer): Promise<boolean> {
  return fs.lstat(target).then(
    () => true,
    () => false,
  );
}

function throwIfAborted(signal: AbortSignal | undefined): void {
  if (!signal?.aborted) return;
  const reason: unknown = signal.reason;
  throw reason instanceof Error && reason.name === "AbortError" ? reason : new DOMException("The git operation was aborted.", "AbortError");
}

/**
 * `GitClient.snapshotWorktree` of the git CLI (2.32 or newer for
 * `GIT_CONFIG_GLOBAL`; older ones still get a private, empty `HOME`): the
 * worktree's changes against its base commit, read with a private git
 * directory in a scratch folder that is removed afterwards.
 *
 * @example
 * const { patch, changes } = await snapshotWorktree("git", { repositoryRoot: "/repo", path: "/.agent-tools-subagents/repo/x-1", baseCommit }, { maxBytes: DEFAULT_SNAPSHOT_MAX_BYTES });
 */
export async function snapshotWorktree(
  binary: string,
  worktree: SnapshotTarget,
  options: { readonly maxBytes?: number; readonly signal?: AbortSignal } = {},
): Promise<GitWorktreeSnapshot> {
  throwIfAborted(options.signal);
  const scratch = await fs.mkdtemp(path.join(os.tmpdir(), "agent-tools-worktree-git-"));
  try {
    return await snapshotWith(binary, worktree, scratch, options.signal, options.maxBytes ?? DEFAULT_SNAPSHOT_MAX_BYTES);
  } finally {
    await fs.rm(scratch, { recursive: true, force: true });
  }
}

async function snapshotWith(
  binary: string,
  worktree: SnapshotTarget,
  scratch: string,
  signal: AbortSignal | undefined,
  maxPatchBytes: number,
): Promise<GitWorktreeSnapshot> {
  const stats = await fs.lstat(worktree.path).catch(() => undefined);
  if (stats === undefined || !stats.isDirectory()) {
    throw new GitClientError("command_failed", `The worktree ${worktree.path} is gone (or not a folder).`);
  }
  // 1. Facts from the repository itself (trusted), with the host's repository-locating GIT_* variables dropped.
  const hostEnv = { ...withoutRepositoryVariables(process.env), LC_ALL: "C", LANGUAGE: "C", GIT_TERMINAL_PROMPT: "0", GIT_OPTIONAL_LOCKS: "0" };
  const inRepository = (args: readonly string[]) => runIsolatedGit(binary, args, { cwd: worktree.repositoryRoot, env: hostEnv, signal });
  const commonRun = await inRepository(["rev-parse", "--git-common-dir"]);
  if (commonRun.exitCode !== 0)
    throw failure(`${worktree.repositoryRoot} is not a git repository`, commonRun, ["rev-parse", "--git-common-dir"], "not_a_repository");
  const commonDir = path.resolve(worktree.repositoryRoot, commonRun.stdout.toString("utf8").trim());
  const worktreeGitDir = await findWorktreeGitDir(commonDir, worktree.path);
  const carried = await carriedSettings(inRepository);

  // 2. The private git directory and the throwaway index.
  const gitDir = path.join(scratch, "git");
  const indexFile = path.join(scratch, "index");
  const home = path.join(scratch, "home");
  await fs.mkdir(path.join(gitDir, "objects", "info"), { recursive: true });
  await fs.mkdir(path.join(gitDir, "refs"), { recursive: true });
  await fs.mkdir(path.join(gitDir, "info"), { recursive: true });
  await fs.mkdir(home);
  await fs.writeFile(path.join(scratch, "global-config"), "");
  await fs.writeFile(path.join(gitDir, "objects", "info", "alternates"), `${path.join(commonDir, "objects")}\n`);
  await fs.writeFile(path.join(gitDir, "info", "attributes"), NEUTRAL_ATTRIBUTES);
  await fs.copyFile(path.join(commonDir, "info", "exclude"), path.join(gitDir, "info", "exclude")).catch(() => undefined);
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? "/usr/local/bin:/usr/bin:/bin",
    HOME: home,
    XDG_CONFIG_HOME: home,
    LC_ALL: "C",
    LANGUAGE: "C",
    GIT_DIR: gitDir,
    GIT_WORK_TREE: worktree.path,
    GIT_INDEX_FILE: indexFile,
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: path.join(scratch, "global-config"),
    GIT_ATTR_NOSYSTEM: "1",
    GIT_NO_REPLACE_OBJECTS: "1",
    GIT_TERMINAL_PROMPT: "0",
    GIT_OPTIONAL_LOCKS: "0",
    GIT_PAGER: "cat",
  };
  const hardened = [...HARDENING, ...THROWAWAY_OBJECTS].flatMap((setting) => ["-c", setting]);
  const git = (args: readonly string[], input?: string, maxStdoutBytes?: number) =>
    runIsolatedGit(binary, [...hardened, ...args], { cwd: worktree.path, env, input, signal, ...(maxStdoutBytes === undefined ? {} : { maxStdoutBytes }) });
  const checked = async (args: readonly string[], message: string, input?: string) => {
    const run = await git(args, input);
    if (run.exitCode !== 0) throw failure(message, run, args);
    return run;
  };
  const tooLarge = (what: string) =>
    new GitClientError("too_large", `The changes of the worktree ${worktree.path} are larger than ${maxPatchBytes} bytes (${what}), more than the host reads.`);
  // What the child's changes make git print: read up to maxPatchBytes, never whole when larger.
  const bounded = async (args: readonly string[], message: string, input?: string) => {
    const run = await git(args, input, maxPatchBytes);
    if (run.overflowed === true) throw tooLarge(`of patch: git ${args[0]}`);
    if (run.exitCode !== 0) throw failure(message, run, args);
    return run;
  };

  // The base commit, read through the worktree's git directory as the host created it (never through the worktree's .git).
  let base = worktree.baseCommit;
  if (base === undefined) {
    if (worktreeGitDir === undefined) throw new GitClientError("command_failed", `${worktree.path} is not a worktree of ${worktree.repositoryRoot}.`);
    const head = await runIsolatedGit(binary, ["--git-dir", worktreeGitDir, "rev-parse", "--verify", "--quiet", "HEAD^{commit}"], {
      cwd: scratch,
      env: { ...hostEnv, GIT_CONFIG_NOSYSTEM: "1" },
      signal,
    });
    if (head.exitCode !== 0) throw failure(`The worktree ${worktree.path} has no HEAD commit`, head, ["rev-parse", "HEAD"]);
    base = head.stdout.toString("utf8").trim();
  }
  if (!/^(?:[0-9a-f]{40}|[0-9a-f]{64})$/.test(base)) throw new GitClientError("command_failed", `The base commit "${base}" is not a full commit id.`);
  await fs.writeFile(path.join(gitDir, "HEAD"), `${base}\n`);
  await fs.writeFile(path.join(gitDir, "config"), privateConfig(base.length === 64, carried));

  // The worktree's index, for its cached stat data (else every file is hashed); the base tree when it cannot be used.
  let usable = false;
  if (worktreeGitDir !== undefined) {
    const original = await fs.stat(path.join(worktreeGitDir, "index")).catch(() => undefined);
    if (original?.isFile()) {
      await fs.copyFile(path.join(worktreeGitDir, "index"), indexFile);
      // Keep git's racy-clean check working: a copy with a fresh mtime would make git trust the cached stat data of files rewritten (same size) in the index's second.
      const mtime = new Date(original.mtimeMs - 2_000);
      await fs.utimes(indexFile, mtime, mtime);
      usable = (await git(["ls-files", "--stage", "-z"])).exitCode === 0;
    }
  }
  if (!usable) {
    await fs.rm(indexFile, { force: true });
    await checked(["read-tree", base], `Cannot read the tree of ${base}`);
  }

  // 3. Submodules: never entered; one the child populated (a .git inside) is left out and refused.
  const excluded: GitWorktreeExclusion[] = [];
  const staged = (await checked(["ls-files", "--stage", "-z"], "Cannot list the worktree's index")).stdout.toString("utf8").split("\0");
  const submodules = staged.filter((line) => line.startsWith("160000 ")).map((line) => line.slice(line.indexOf("\t") + 1));
  for (const submodule of submodules) {
    if (await exists(path.join(worktree.path, submodule, ".git"))) {
      excluded.push({ path: submodule, reason: "submodule", detail: "the child put a .git in this submodule's folder" });
    }
  }

  // 4. Sized before git reads them: the untracked and modified files (a sparse file of a terabyte costs the child nothing; git add would hash all of it).
  const candidates = await bounded(["ls-files", "-z", "--others", "--modified", "--exclude-standard", "--", "."], "Cannot list the worktree's changed files");
  let contentBytes = 0;
  const nested: string[] = [];
  for (let start = 0; start < candidates.stdout.length; ) {
    const end = candidates.stdout.indexOf(0, start);
    const name = candidates.stdout.subarray(start, end === -1 ? candidates.stdout.length : end);
    start = end === -1 ? candidates.stdout.length : end + 1;
    const absolute = Buffer.concat([Buffer.from(`${worktree.path}/`), name]);
    // A nested repository the child made (listed as `dir/`): git add would resolve its .git (which may name any repository of the host) and record that HEAD.
    if (name.at(-1) === 0x2f && (await exists(Buffer.concat([absolute, Buffer.from(".git")])))) {
      // Its name must survive as a pathspec: one that is not UTF-8 fails the snapshot (closed) rather than slip past the exclusion.
      if (!isUtf8(name)) throw new GitClientError("command_failed", `The worktree ${worktree.path} holds a nested repository whose name is not UTF-8.`);
      nested.push(name.subarray(0, -1).toString("utf8"));
      continue;
    }
    const stats = await fs.lstat(absolute).catch(() => undefined);
    if (stats?.isFile()) contentBytes += stats.size;
    if (contentBytes > maxPatchBytes) throw tooLarge("of changed files");
  }

  // 5. Stage the work tree into the throwaway index; a path git cannot take is left out and reported.
  const leftOut = new Set(submodules);
  for (const folder of nested) {
    leftOut.add(folder);
    excluded.push({ path: folder, reason: "submodule", detail: "a nested repository the child made (its .git is never read)" });
  }
  for (let attempt = 0; ; attempt += 1) {
    const args = ["add", "-A", "--", ".", ...[...leftOut].map((entry) => `:(exclude,literal)${entry}`)];
    const added = await git(args);
    if (added.exitCode === 0) break;
    const refused = refusedByAdd(added.stderr);
    if (refused === undefined || leftOut.has(refused.path) || attempt >= MAX_EXCLUSION_RETRIES) {
      throw failure(`Cannot read the changes of the worktree ${worktree.path}`, added, args);
    }
    leftOut.add(refused.path);
    excluded.push(refused);
  }

  // 6. The patch, the changed paths with their modes, and the targets of changed links.
  const diffArgs = stagedDiffArguments(base, { fullIndex: true });
  const output = (await bounded(diffArgs, "Cannot diff the worktree")).stdout;
  let patch: string;
  try {
    patch = utf8.decode(output);
  } catch {
    // A text file that is not UTF-8 would not survive as a string: emit every file as a binary patch instead.
    await fs.writeFile(path.join(gitDir, "info", "attributes"), BINARY_ATTRIBUTES);
    patch = (await bounded(diffArgs, "Cannot diff the worktree")).stdout.toString("latin1");
  }
  const raw = parseRaw(
    (await bounded(["diff", "--cached", "--raw", "-z", "--no-renames", "--no-abbrev", base, "--"], "Cannot list the worktree's changes")).stdout,
  );
  const links = raw.filter((entry) => entry.newMode === "120000");
  const targets = new Map<string, string>();
  if (links.length > 0) {
    const batch = await bounded(["cat-file", "--batch"], "Cannot read the worktree's symbolic links", links.map((entry) => `${entry.newObject}\n`).join(""));
    const blobs = parseBlobBatch(batch.stdout, links.length);
    if (blobs === undefined) {
      throw new GitClientError("command_failed", "Cannot read the targets of the worktree's symbolic links.");
    }
    links.forEach((entry, index) => {
      targets.set(entry.path, blobs[index]!.toString("utf8"));
      if (!isUtf8(blobs[index]!)) excluded.push({ path: entry.path, reason: "invalid_path", detail: "a link whose target is not UTF-8" });
    });
  }
  // A name that is not UTF-8 reads as another name (U+FFFD for its bytes) everywhere the apply checks it: refused.
  for (const entry of raw) if (!entry.utf8) excluded.push({ path: entry.path, reason: "invalid_path", detail: "a name that is not UTF-8" });
  const changes = raw.map(({ path: changed, oldMode, newMode }) =>
    targets.has(changed) ? { path: changed, oldMode, newMode, linkTarget: targets.get(changed)! } : { path: changed, oldMode, newMode },
  );
  return { patch, changes, excluded };
}
