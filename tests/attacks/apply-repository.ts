/** Test fixture of the apply attacks: git repositories made with the git CLI, isolated from the machine's git configuration. */
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

/** Runs git in `cwd`; returns its standard output. */
export function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", args, { cwd, env: gitEnv, encoding: "utf8" });
}

/** Makes `root` a repository (branch `main`, CRLF kept as written) holding `files`, all committed. */
export function initRepository(root: string, files: Record<string, string>): void {
  fs.mkdirSync(root, { recursive: true });
  git(root, "init", "-q", "-b", "main");
  git(root, "config", "core.autocrlf", "false");
  for (const [relative, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, relative)), { recursive: true });
    fs.writeFileSync(path.join(root, relative), text);
  }
  commitAll(root);
}

/** Stages and commits everything (also when nothing changed). */
export function commitAll(root: string): void {
  git(root, "add", "-A");
  git(root, "commit", "-q", "--allow-empty", "-m", "state");
}
