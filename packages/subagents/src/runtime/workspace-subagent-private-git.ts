/**
 * A private git directory in a scratch folder of a non-local workspace, for
 * git runs on files a model could have written (a child's worktree, the
 * repository's own config and attributes): git finds nothing by discovery
 * and reads none of the repository's config, attributes or hooks.
 *
 * - `GIT_DIR` is the private directory: HEAD at the base commit, objects
 *   borrowed through `objects/info/alternates`, a config written here with
 *   no driver, hook or fsmonitor (only the carried `core.*` settings that
 *   change what a checkout or diff means and run nothing), `info/attributes`
 *   unsetting `filter`, `diff` and `merge` for every path (so a
 *   `.gitattributes` names nothing).
 * - The environment is exactly the one given (`env -i` on the workspace):
 *   the workspace's `PATH`, a private `HOME`/`XDG_CONFIG_HOME`, no system
 *   config, an empty global config, no system attributes; every run starts
 *   with the {@link PRIVATE_GIT_HARDENING} `-c` settings.
 */
import { posix } from "node:path";
import type { Workspace } from "@agent-tools/core/workspace";
import { type WorkspaceGitRun, runWorkspaceGit, workspaceProcesses } from "./workspace-subagent-git.js";

/** Settings every run in a private git directory gets on its command line (the highest precedence). */
export const PRIVATE_GIT_HARDENING: readonly string[] = [
  "core.hooksPath=/dev/null",
  "core.fsmonitor=false",
  "core.untrackedCache=false",
  "core.splitIndex=false",
  "core.sparseCheckout=false",
  "core.looseCompression=0",
  "core.compression=1",
];
/** Config keys carried from the repository: they change what a checkout or diff means, and run nothing. */
const CARRIED_KEYS = ["autocrlf", "eol", "safecrlf", "filemode", "symlinks", "ignorecase", "precomposeunicode", "checkroundtripencoding", "excludesfile"];
/** `info/attributes` of a private git directory: no filter, diff or merge driver for any path. */
export const NEUTRAL_ATTRIBUTES = "* !filter !diff !merge\n";
const FALLBACK_PATH = "/usr/local/bin:/usr/bin:/bin";

/** What {@link preparePrivateGit} made. */
export interface PrivateGit {
  /** The private git directory. */
  readonly gitDir: string;
  /** The whole environment of its runs. */
  readonly env: Readonly<Record<string, string>>;
  /** Runs git with the hardening settings first, in `cwd`, with exactly {@link PrivateGit.env}. */
  run(args: readonly string[], options?: { readonly input?: string; readonly maxStdoutBytes?: number }): Promise<WorkspaceGitRun>;
}

/** Options of {@link preparePrivateGit}. */
export interface PrivateGitOptions {
  /** An empty scratch folder of the workspace (the caller removes it). */
  readonly scratch: string;
  /** The repository (trusted as the host's own git runs on it): its carried settings are read. */
  readonly repositoryRoot: string;
  /** Its common git directory (see {@link commonGitDir}): objects borrowed, `info/exclude` copied. */
  readonly commonDir: string;
  /** The commit HEAD names. */
  readonly baseCommit: string;
  /** `GIT_WORK_TREE`. */
  readonly workTree: string;
  /** `GIT_INDEX_FILE`; default `<scratch>/index`. */
  readonly indexFile?: string;
  /** Where the runs start; default `workTree`. */
  readonly cwd?: string;
  readonly signal?: AbortSignal;
}

function configValue(value: string): string {
  return `"${value.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n").replace(/\t/g, "\\t")}"`;
}

/** The workspace's `PATH` (its login environment's), so git is found as a user's shell finds it. */
async function workspacePath(workspace: Workspace, cwd: string, signal: AbortSignal | undefined): Promise<string> {
  const child = workspaceProcesses(workspace).spawn({ command: "printenv", args: ["PATH"], cwd, ...(signal === undefined ? {} : { signal }) });
  const out: Buffer[] = [];
  child.onOutput((chunk) => {
    if (chunk.stream === "stdout") out.push(chunk.data);
  });
  const exit = await child.exited;
  await child.outputClosed;
  const value = Buffer.concat(out).toString("utf8").trim();
  return exit.exitCode === 0 && value !== "" && !value.includes("\n") ? value : FALLBACK_PATH;
}

/** The carried settings as the repository sets them (an `excludesfile` only when absolute: `~` is the workspace user's home, unknown here). */
async function carriedSettings(workspace: Workspace, root: string, signal: AbortSignal | undefined): Promise<Map<string, string>> {
  const settings = new Map<string, string>();
  const args = ["config", "-z", "--get-regexp", `^core\\.(${CARRIED_KEYS.join("|")})$`];
  const run = await runWorkspaceGit(workspace, args, { cwd: root, ...(signal ? { signal } : {}) });
  if (run.exitCode !== 0) return settings;
  for (const record of run.stdout.toString("utf8").split("\0")) {
    const newline = record.indexOf("\n");
    if (newline > 0) settings.set(record.slice(0, newline).slice("core.".length), record.slice(newline + 1));
  }
  const excludes = settings.get("excludesfile");
  if (excludes !== undefined && !excludes.startsWith("/")) settings.delete("excludesfile");
  return settings;
}

function privateConfig(sha256: boolean, carried: ReadonlyMap<string, string>): string {
  const lines = ["[core]", `\trepositoryformatversion = ${sha256 ? 1 : 0}`, "\tbare = false"];
  for (const [key, value] of carried) lines.push(`\t${key} = ${configValue(value)}`);
  if (sha256) lines.push("[extensions]", "\tobjectFormat = sha256");
  return `${lines.join("\n")}\n`;
}

/** The repository's common git directory (absolute), or the failed run when git cannot say. */
export async function commonGitDir(workspace: Workspace, root: string, signal?: AbortSignal): Promise<string | WorkspaceGitRun> {
  const common = await runWorkspaceGit(workspace, ["rev-parse", "--git-common-dir"], { cwd: root, ...(signal ? { signal } : {}) });
  if (common.exitCode !== 0) return common;
  return posix.resolve(root, common.stdout.toString("utf8").trim());
}

/**
 * Makes the private git directory in `options.scratch` (see the module
 * comment) and returns its runner.
 *
 * @example
 * const commonDir = await commonGitDir(workspace, "/srv/app");
 * const git = await preparePrivateGit(workspace, { scratch, repositoryRoot: "/srv/app", commonDir, baseCommit, workTree: worktree.path });
 * await git.run(["read-tree", baseCommit]);
 */
export async function preparePrivateGit(workspace: Workspace, options: PrivateGitOptions): Promise<PrivateGit> {
  const { scratch, signal, baseCommit, commonDir } = options;
  const root = options.repositoryRoot;
  const carried = await carriedSettings(workspace, root, signal);
  const gitDir = posix.join(scratch, "git");
  const home = posix.join(scratch, "home");
  for (const folder of ["objects/info", "refs", "info"]) await workspace.fs.mkdir(posix.join(gitDir, folder), { recursive: true });
  await workspace.fs.mkdir(home, { recursive: true });
  const write = (target: string, text: string) => workspace.fs.writeFileAtomic(target, Buffer.from(text, "utf8"));
  await write(posix.join(scratch, "global-config"), "");
  await write(posix.join(gitDir, "objects", "info", "alternates"), `${posix.join(commonDir, "objects")}\n`);
  await write(posix.join(gitDir, "info", "attributes"), NEUTRAL_ATTRIBUTES);
  const exclude = await workspace.fs.readFile(posix.join(commonDir, "info", "exclude")).catch(() => undefined);
  if (exclude !== undefined) await workspace.fs.writeFileAtomic(posix.join(gitDir, "info", "exclude"), exclude);
  await write(posix.join(gitDir, "HEAD"), `${baseCommit}\n`);
  await write(posix.join(gitDir, "config"), privateConfig(baseCommit.length === 64, carried));
  const env: Record<string, string> = {
    PATH: await workspacePath(workspace, root, signal),
    HOME: home,
    XDG_CONFIG_HOME: home,
    LC_ALL: "C",
    LANGUAGE: "C",
    GIT_DIR: gitDir,
    GIT_WORK_TREE: options.workTree,
    GIT_INDEX_FILE: options.indexFile ?? posix.join(scratch, "index"),
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: posix.join(scratch, "global-config"),
    GIT_ATTR_NOSYSTEM: "1",
    GIT_NO_REPLACE_OBJECTS: "1",
    GIT_TERMINAL_PROMPT: "0",
    GIT_OPTIONAL_LOCKS: "0",
    GIT_PAGER: "cat",
  };
  const hardened = PRIVATE_GIT_HARDENING.flatMap((setting) => ["-c", setting]);
  const cwd = options.cwd ?? options.workTree;
  return {
    gitDir,
    env,
    run: (args, runOptions = {}) =>
      runWorkspaceGit(workspace, [...hardened, ...args], {
        cwd,
        isolatedEnv: env,
        ...(runOptions.input === undefined ? {} : { input: runOptions.input }),
        ...(runOptions.maxStdoutBytes === undefined ? {} : { maxStdoutBytes: runOptions.maxStdoutBytes }),
        ...(signal === undefined ? {} : { signal }),
      }),
  };
}
