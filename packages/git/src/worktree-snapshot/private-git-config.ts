/**
 * The private git directory a worktree read runs with (see
 * `snapshot-worktree.ts`): a config written here, with no driver, hook
 * or fsmonitor, and only the settings of the repository that change what a
 * diff means; the repository's worktree entries found from its common dir.
 */
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { GitRun } from "./isolated-git-run.js";

/** Config keys carried from the repository into the private git directory: they change what a diff means, and run nothing. */
const CARRIED_KEYS = ["autocrlf", "eol", "safecrlf", "filemode", "symlinks", "ignorecase", "precomposeunicode", "checkroundtripencoding", "excludesfile"];
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

/**
 * The git directory `git worktree add` made for `worktreePath`: the entry of
 * `<common dir>/worktrees/` whose `gitdir` file names `<worktreePath>/.git`.
 */
export async function findWorktreeGitDir(commonDir: string, worktreePath: string): Promise<string | undefined> {
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
export async function carriedSettings(inRepository: (args: readonly string[]) => Promise<GitRun>): Promise<Map<string, string>> {
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

/** The private git directory's config: the object format, `bare = false` and the carried settings. */
export function privateConfig(sha256: boolean, carried: ReadonlyMap<string, string>): string {
  const lines = ["[core]", `\trepositoryformatversion = ${sha256 ? 1 : 0}`, "\tbare = false"];
  for (const [key, value] of carried) lines.push(`\t${key} = ${configValue(value)}`);
  if (sha256) lines.push("[extensions]", "\tobjectFormat = sha256");
  return `${lines.join("\n")}\n`;
}
