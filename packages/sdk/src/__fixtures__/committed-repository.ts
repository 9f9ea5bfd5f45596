/** Test fixture: a git repository with committed files, made with the git CLI (no user or system config). */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const gitEnv = {
  ...process.env,
  GIT_CONFIG_GLOBAL: "/dev/null",
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_AUTHOR_NAME: "t",
  GIT_AUTHOR_EMAIL: "t@e",
  GIT_COMMITTER_NAME: "t",
  GIT_COMMITTER_EMAIL: "t@e",
};

/**
 * Creates `<parent>/<name>` as a repository (branch `main`, `core.autocrlf`
 * off so CRLF bytes stay as written) holding `files`, with `modes` applied
 * (e.g. `{ "run.sh": 0o755 }`), all committed; returns its path.
 */
export function createCommittedRepository(parent: string, name: string, files: Record<string, string>, modes: Record<string, number> = {}): string {
  const root = path.join(parent, name);
  fs.mkdirSync(root, { recursive: true });
  execFileSync("git", ["init", "-q", "-b", "main"], { cwd: root, env: gitEnv });
  execFileSync("git", ["config", "core.autocrlf", "false"], { cwd: root, env: gitEnv });
  for (const [relative, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, relative)), { recursive: true });
    fs.writeFileSync(path.join(root, relative), text);
  }
  for (const [relative, mode] of Object.entries(modes)) fs.chmodSync(path.join(root, relative), mode);
  execFileSync("git", ["add", "-A"], { cwd: root, env: gitEnv });
  execFileSync("git", ["commit", "-q", "-m", "init"], { cwd: root, env: gitEnv });
  return root;
}
