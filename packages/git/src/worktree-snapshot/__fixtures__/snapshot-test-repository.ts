// A throwaway repository for the worktree snapshot tests, made with the git CLI and isolated from the
// machine's git configuration (no global or system config; the identity is set locally).
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

process.env.GIT_CONFIG_GLOBAL = "/dev/null";
process.env.GIT_CONFIG_NOSYSTEM = "1";

/** A repository in its own temp directory (so its parent holds `.agent-tools-subagents`). */
export interface TestRepository {
  /** The temp directory holding the repository. */
  readonly base: string;
  /** The repository's work tree (canonical path). */
  readonly root: string;
  git(args: readonly string[], cwd?: string): string;
  write(relative: string, content: string | Buffer): void;
  read(relative: string): string;
  exists(relative: string): boolean;
  commitAll(message: string): string;
  remove(): void;
}

/** Creates a repository (branch `main`); with `files`, commits them. */
export function createTestRepository(files: Record<string, string | Buffer> = {}, name = "repo"): TestRepository {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "agent-tools-worktree-snapshot-")));
  const root = path.join(base, name);
  fs.mkdirSync(root);
  const git = (args: readonly string[], cwd = root) =>
    execFileSync("git", [...args], { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, LC_ALL: "C" } });
  git(["init", "-q", "-b", "main"]);
  git(["config", "user.name", "Agent Tools Test"]);
  git(["config", "user.email", "agent-tools@example.invalid"]);
  git(["config", "commit.gpgSign", "false"]);
  git(["config", "core.autocrlf", "false"]);
  const repository: TestRepository = {
    base,
    root,
    git,
    write(relative, content) {
      fs.mkdirSync(path.dirname(path.join(root, relative)), { recursive: true });
      fs.writeFileSync(path.join(root, relative), content);
    },
    read: (relative) => fs.readFileSync(path.join(root, relative), "utf8"),
    exists: (relative) => fs.existsSync(path.join(root, relative)),
    commitAll(message) {
      git(["add", "-A"]);
      git(["commit", "-q", "-m", message]);
      return git(["rev-parse", "HEAD"]).trim();
    },
    remove: () => fs.rmSync(base, { recursive: true, force: true }),
  };
  if (Object.keys(files).length > 0) {
    for (const [relative, content] of Object.entries(files)) repository.write(relative, content);
    repository.commitAll("initial");
  }
  return repository;
}
