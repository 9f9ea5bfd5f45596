/**
 * How the host runs git on a child's worktree. Everything inside the
 * worktree is the child's data, never configuration: the worktree's `.git`
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
 *   own `.git`, which the child controls).
 * - Only a few settings that change what a diff means (line endings, file
 *   modes, symlinks, case, the user's global excludes file) are carried over
 *   from the repository's config, read in the repository (not the worktree).
 */
import { spawn } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { SubagentWorktreeError } from "./git-subagent-worktree-error.js";

/** The worktree a snapshot reads: the repository it belongs to and the commit its changes count from. */
export interface UntrustedWorktreeTarget {
  /** Top level of the parent's repository (trusted: git runs there as usual). */
  readonly repositoryRoot: string;
  /** The linked worktree (untrusted). */
  readonly path: string;
  /** The commit the diff is against; absent: the worktree's HEAD as its git directory records it. */
  readonly baseCommit?: string;
}

/** One changed path of a worktree, as `git diff --raw` reports it. */
export interface WorktreeChange {
  /** Repository-relative, `/` separators. */
  readonly path: string;
  /** Octal mode before (`000000` when added): `100644`, `100755`, `120000` (symlink), `160000` (submodule). */
  readonly oldMode: string;
  /** Octal mode after (`000000` when deleted). */
  readonly newMode: string;
  /** The new target of a symbolic link (`newMode` `120000`), as the patch writes it. */
  readonly linkTarget?: string;
}

/** Why a path was kept out of a snapshot's patch. */
export type WorktreeExclusionReason = "special_file" | "invalid_path" | "submodule";

/** A path of the worktree kept out of the patch: the apply must refuse it. */
export interface WorktreeExclusion {
  readonly path: string;
  readonly reason: WorktreeExclusionReason;
  /** What was found (git's message, or what the path holds). */
  readonly detail: string;
}

/** What a worktree changed against its base commit. */
export interface WorktreeSnapshot {
  /** The `git diff --binary` patch (see `GitClient.diff`), repository-relative paths. */
  readonly patch: string;
  /** Each changed path, with its modes. */
  readonly changes: readonly WorktreeChange[];
  /** Paths the snapshot left out (special files, paths git refuses, populated submodules). */
  readonly excluded: readonly WorktreeExclusion[];
}

/** Runs git on a child's worktree without trusting anything inside it. */
export interface UntrustedWorktreeGit {
  /** The worktree's changes against its base commit (tracked and untracked, ignored files left out). */
  snapshot(worktree: UntrustedWorktreeTarget, options?: { readonly signal?: AbortSignal }): Promise<WorktreeSnapshot>;
}

/** Config keys carried from the repository into the private git directory: they change what a diff means, and run nothing. */
const CARRIED_KEYS = ["autocrlf", "eol", "safecrlf", "filemode", "symlinks", "ignorecase", "precomposeunicode", "checkroundtripencoding", "excludesfile"];
/** Settings every run gets on its command line (the highest precedence). */
const HARDENING = ["core.hooksPath=/dev/null", "core.fsmonitor=false", "core.untrackedCache=false", "core.splitIndex=false", "core.sparseCheckout=false"];
/** Unsets every driver attribute; the private config defines none anyway. */
const NEUTRAL_ATTRIBUTES = "* !filter !diff !merge\n";
/** The same, with every file's patch written as binary (for trees with text that is not UTF-8). */
const BINARY_ATTRIBUTES = "* !filter -diff -merge -text\n";
/** Retries of `git add` after it named a path it cannot take (each retry leaves one more path out). */
const MAX_EXCLUSION_RETRIES = 64;
const utf8 = new TextDecoder("utf-8", { fatal: true });

interface GitRun {
  readonly exitCode: number;
  readonly stdout: Buffer;
  readonly stderr: string;
}

/** Variables that point git at another repository, work tree, index or object store than the one a run names. */
const LOCATING_VARIABLES = new Set([
  "GIT_DIR",
  "GIT_WORK_TREE",
  "GIT_INDEX_FILE",
  "GIT_COMMON_DIR",
  "GIT_OBJECT_DIRECTORY",
  "GIT_ALTERNATE_OBJECT_DIRECTORIES",
  "GIT_NAMESPACE",
  "GIT_PREFIX",
  "GIT_IMPLICIT_WORK_TREE",
  "GIT_QUARANTINE_PATH",
  "GIT_INTERNAL_SUPER_PREFIX",
  "GIT_SHALLOW_FILE",
  "GIT_GRAFT_FILE",
  "GIT_REPLACE_REF_BASE",
]);

/**
 * `env` without the variables that point git at another repository
 * (`GIT_DIR`, `GIT_WORK_TREE`, `GIT_INDEX_FILE`, `GIT_COMMON_DIR`, the
 * object directories, ...), which a host started from a git hook or alias
 * inherits: the host's own git runs on the parent's repository start from it.
 * Runs on a worktree inherit nothing at all.
 *
 * @example
 * execFile("git", ["-C", repo, "worktree", "prune"], { env: { ...withoutRepositoryVariables(process.env), LC_ALL: "C" } });
 */
export function withoutRepositoryVariables(env: NodeJS.ProcessEnv): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value !== undefined && !LOCATING_VARIABLES.has(name.toUpperCase())) kept[name] = value;
  }
  return kept;
}

function runGit(
  binary: string,
  args: readonly string[],
  options: { cwd: string; env: Record<string, string>; input?: string; signal?: AbortSignal },
): Promise<GitRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, [...args], {
      cwd: options.cwd,
      env: options.env,
      stdio: [options.input === undefined ? "ignore" : "pipe", "pipe", "pipe"],
      signal: options.signal,
    });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    child.stdout?.on("data", (chunk: Buffer) => stdout.push(chunk));
    child.stderr?.on("data", (chunk: Buffer) => stderr.push(chunk));
    child.on("error", reject);
    child.on("close", (code) => resolve({ exitCode: code ?? -1, stdout: Buffer.concat(stdout), stderr: Buffer.concat(stderr).toString("utf8") }));
    if (options.input !== undefined) child.stdin?.end(options.input);
  });
}

function failure(message: string, run: GitRun, args: readonly string[], worktree: UntrustedWorktreeTarget): SubagentWorktreeError {
  const stderr = run.stderr.trim().slice(0, 4_000);
  return new SubagentWorktreeError("worktree_unreadable", `${message} (git ${args.join(" ")}: exit ${run.exitCode}: ${stderr || "no message"})`, {
    worktreePath: worktree.path,
    exitCode: run.exitCode,
    stderr,
  });
}

/** A config value as a quoted string of git's config syntax. */
function configValue(value: string): string {
  return `"${value.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n").replace(/\t/g, "\\t")}"`;
}

/** `~/x` of a path setting, as git would expand it with the host's home (the runs here have a private one). */
function expandHome(value: string): string {
  return value === "~" ? os.homedir() : value.startsWith("~/") ? path.join(os.homedir(), value.slice(2)) : value;
}

async function exists(target: string): Promise<boolean> {
  return fs.lstat(target).then(
    () => true,
    () => false,
  );
}

/** Parses `git diff --raw -z` output (no renames). */
function parseRaw(output: Buffer): Array<{ path: string; oldMode: string; newMode: string; newObject: string }> {
  const fields = output.toString("utf8").split("\0");
  const entries: Array<{ path: string; oldMode: string; newMode: string; newObject: string }> = [];
  for (let index = 0; index + 1 < fields.length; index += 2) {
    const header = fields[index]!;
    const match = /^:(\d{6}) (\d{6}) [0-9a-f]+ ([0-9a-f]+) [A-Z]/.exec(header);
    if (match === null) break;
    entries.push({ path: fields[index + 1]!, oldMode: match[1]!, newMode: match[2]!, newObject: match[3]! });
  }
  return entries;
}

/** The path `git add` named when it refused one, and why. */
function refusedByAdd(stderr: string): WorktreeExclusion | undefined {
  const invalid = /^error: invalid path '(.+)'$/m.exec(stderr);
  if (invalid !== null) return { path: invalid[1]!, reason: "invalid_path", detail: "git refuses this path name" };
  const special = /^error: (.+): can only add regular files, symbolic links or git-directories$/m.exec(stderr);
  if (special !== null) return { path: special[1]!, reason: "special_file", detail: "not a regular file, symbolic link or folder" };
  return undefined;
}

/**
 * The {@link UntrustedWorktreeGit} of the git CLI (2.32 or newer for
 * `GIT_CONFIG_GLOBAL`; older ones still get a private, empty `HOME`).
 *
 * @example
 * const worktreeGit = createUntrustedWorktreeGit();
 * const { patch, changes } = await worktreeGit.snapshot({ repositoryRoot: "/repo", path: "/.agent-tools-subagents/repo/x-1", baseCommit });
 */
export function createUntrustedWorktreeGit(options: { readonly gitBinary?: string } = {}): UntrustedWorktreeGit {
  const binary = options.gitBinary ?? "git";
  return {
    async snapshot(worktree, { signal } = {}) {
      const scratch = await fs.mkdtemp(path.join(os.tmpdir(), "agent-tools-worktree-git-"));
      try {
        return await snapshotWith(binary, worktree, scratch, signal);
      } finally {
        await fs.rm(scratch, { recursive: true, force: true });
      }
    },
  };
}

async function snapshotWith(binary: string, worktree: UntrustedWorktreeTarget, scratch: string, signal: AbortSignal | undefined): Promise<WorktreeSnapshot> {
  const stats = await fs.lstat(worktree.path).catch(() => undefined);
  if (stats === undefined || !stats.isDirectory()) {
    throw new SubagentWorktreeError("worktree_unreadable", `The worktree ${worktree.path} is gone (or not a folder).`, { worktreePath: worktree.path });
  }
  // 1. Facts from the repository itself (trusted), with the host's repository-locating GIT_* variables dropped.
  const hostEnv = { ...withoutRepositoryVariables(process.env), LC_ALL: "C", LANGUAGE: "C", GIT_TERMINAL_PROMPT: "0", GIT_OPTIONAL_LOCKS: "0" };
  const inRepository = (args: readonly string[]) => runGit(binary, args, { cwd: worktree.repositoryRoot, env: hostEnv, signal });
  const commonRun = await inRepository(["rev-parse", "--git-common-dir"]);
  if (commonRun.exitCode !== 0) throw failure(`${worktree.repositoryRoot} is not a git repository`, commonRun, ["rev-parse", "--git-common-dir"], worktree);
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
  const hardened = HARDENING.flatMap((setting) => ["-c", setting]);
  const git = (args: readonly string[], input?: string) => runGit(binary, [...hardened, ...args], { cwd: worktree.path, env, input, signal });
  const checked = async (args: readonly string[], message: string, input?: string) => {
    const run = await git(args, input);
    if (run.exitCode !== 0) throw failure(message, run, args, worktree);
    return run;
  };

  // The base commit, read through the worktree's git directory as the host created it (never through the worktree's .git).
  let base = worktree.baseCommit;
  if (base === undefined) {
    if (worktreeGitDir === undefined)
      throw new SubagentWorktreeError("worktree_unreadable", `${worktree.path} is not a worktree of ${worktree.repositoryRoot}.`, {
        worktreePath: worktree.path,
      });
    const head = await runGit(binary, ["--git-dir", worktreeGitDir, "rev-parse", "--verify", "--quiet", "HEAD^{commit}"], {
      cwd: scratch,
      env: { ...hostEnv, GIT_CONFIG_NOSYSTEM: "1" },
      signal,
    });
    if (head.exitCode !== 0) throw failure(`The worktree ${worktree.path} has no HEAD commit`, head, ["rev-parse", "HEAD"], worktree);
    base = head.stdout.toString("utf8").trim();
  }
  if (!/^(?:[0-9a-f]{40}|[0-9a-f]{64})$/.test(base))
    throw new SubagentWorktreeError("worktree_unreadable", `The base commit "${base}" is not a full commit id.`, { worktreePath: worktree.path });
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
  const excluded: WorktreeExclusion[] = [];
  const staged = (await checked(["ls-files", "--stage", "-z"], "Cannot list the worktree's index")).stdout.toString("utf8").split("\0");
  const submodules = staged.filter((line) => line.startsWith("160000 ")).map((line) => line.slice(line.indexOf("\t") + 1));
  for (const submodule of submodules) {
    if (await exists(path.join(worktree.path, submodule, ".git"))) {
      excluded.push({ path: submodule, reason: "submodule", detail: "the child put a .git in this submodule's folder" });
    }
  }

  // 4. Stage the work tree into the throwaway index; a path git cannot take is left out and reported.
  const leftOut = new Set(submodules);
  for (let attempt = 0; ; attempt += 1) {
    const args = ["add", "-A", "--", ".", ...[...leftOut].map((entry) => `:(exclude,literal)${entry}`)];
    const added = await git(args);
    if (added.exitCode === 0) break;
    const refused = refusedByAdd(added.stderr);
    if (refused === undefined || leftOut.has(refused.path) || attempt >= MAX_EXCLUSION_RETRIES) {
      throw failure(`Cannot read the changes of the worktree ${worktree.path}`, added, args, worktree);
    }
    leftOut.add(refused.path);
    excluded.push(refused);
  }

  // 5. The patch, the changed paths with their modes, and the targets of changed links.
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
  const output = (await checked(diffArgs, "Cannot diff the worktree")).stdout;
  let patch: string;
  try {
    patch = utf8.decode(output);
  } catch {
    // A text file that is not UTF-8 would not survive as a string: emit every file as a binary patch instead.
    await fs.writeFile(path.join(gitDir, "info", "attributes"), BINARY_ATTRIBUTES);
    patch = (await checked(diffArgs, "Cannot diff the worktree")).stdout.toString("latin1");
  }
  const raw = parseRaw(
    (await checked(["diff", "--cached", "--raw", "-z", "--no-renames", "--no-abbrev", base, "--"], "Cannot list the worktree's changes")).stdout,
  );
  const links = raw.filter((entry) => entry.newMode === "120000");
  const targets = new Map<string, string>();
  if (links.length > 0) {
    const batch = await checked(["cat-file", "--batch"], "Cannot read the worktree's symbolic links", links.map((entry) => `${entry.newObject}\n`).join(""));
    let offset = 0;
    for (const entry of links) {
      // `<id> blob <size>\n<content>\n` per object.
      const newline = batch.stdout.indexOf(10, offset);
      const header = batch.stdout
        .subarray(offset, newline === -1 ? undefined : newline)
        .toString("utf8")
        .split(" ");
      const size = Number(header[2]);
      if (newline === -1 || header[1] !== "blob" || !Number.isSafeInteger(size)) {
        throw new SubagentWorktreeError("worktree_unreadable", `Cannot read the target of the symbolic link ${entry.path} (${header.join(" ")}).`, {
          worktreePath: worktree.path,
        });
      }
      targets.set(entry.path, batch.stdout.subarray(newline + 1, newline + 1 + size).toString("utf8"));
      offset = newline + 1 + size + 1;
    }
  }
  const changes = raw.map(({ path: changed, oldMode, newMode }) =>
    targets.has(changed) ? { path: changed, oldMode, newMode, linkTarget: targets.get(changed)! } : { path: changed, oldMode, newMode },
  );
  return { patch, changes, excluded };
}

/**
 * The git directory `git worktree add` made for `worktreePath`: the entry of
 * `<common dir>/worktrees/` whose `gitdir` file names `<worktreePath>/.git`.
 */
async function findWorktreeGitDir(commonDir: string, worktreePath: string): Promise<string | undefined> {
  const folder = path.join(commonDir, "worktrees");
  const wanted = new Set([path.join(worktreePath, ".git"), path.join(await fs.realpath(worktreePath).catch(() => worktreePath), ".git")]);
  const names = await fs.readdir(folder).catch(() => [] as string[]);
  for (const name of names) {
    const pointer = await fs.readFile(path.join(folder, name, "gitdir"), "utf8").catch(() => undefined);
    if (pointer !== undefined && wanted.has(path.resolve(folder, name, pointer.trim()))) return path.join(folder, name);
  }
  return undefined;
}

/** The carried settings as the repository (with the user's global config) sets them. */
async function carriedSettings(inRepository: (args: readonly string[]) => Promise<GitRun>): Promise<Map<string, string>> {
  const settings = new Map<string, string>();
  const run = await inRepository(["config", "-z", "--get-regexp", `^core\\.(${CARRIED_KEYS.join("|")})$`]);
  if (run.exitCode === 0) {
    for (const record of run.stdout.toString("utf8").split("\0")) {
      const newline = record.indexOf("\n");
      if (newline > 0) settings.set(record.slice(0, newline).slice("core.".length), record.slice(newline + 1));
    }
  }
  const excludes = settings.get("excludesfile");
  if (excludes !== undefined) settings.set("excludesfile", expandHome(excludes));
  else {
    // git's default global excludes file, found through the host's (not the run's) home.
    const configHome = process.env.XDG_CONFIG_HOME || path.join(os.homedir(), ".config");
    const fallback = path.join(configHome, "git", "ignore");
    if (await exists(fallback)) settings.set("excludesfile", fallback);
  }
  return settings;
}

function privateConfig(sha256: boolean, carried: ReadonlyMap<string, string>): string {
  const lines = ["[core]", `\trepositoryformatversion = ${sha256 ? 1 : 0}`, "\tbare = false"];
  for (const [key, value] of carried) lines.push(`\t${key} = ${configValue(value)}`);
  if (sha256) lines.push("[extensions]", "\tobjectFormat = sha256");
  return `${lines.join("\n")}\n`;
}
