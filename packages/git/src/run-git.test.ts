import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { GitCliClient } from "./git-cli-client.js";

const temporary = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "run-git-")));
const saved = { ...process.env };
afterAll(() => fs.rmSync(temporary, { recursive: true, force: true }));
afterEach(() => {
  for (const name of ["GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY"]) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
});

function repository(name: string, file: string): string {
  const root = path.join(temporary, name);
  fs.mkdirSync(root, { recursive: true });
  const env = { ...process.env, GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null" };
  execFileSync("git", ["init", "-q", "-b", "main"], { cwd: root, env });
  fs.writeFileSync(path.join(root, file), "x\n");
  return root;
}

describe("runGit", () => {
  it("runs on the repository it is given, whatever GIT_DIR, GIT_WORK_TREE and GIT_INDEX_FILE the host inherited", async () => {
    const mine = repository("mine", "mine.txt");
    const other = repository("other", "other.txt");
    process.env.GIT_DIR = path.join(other, ".git");
    process.env.GIT_WORK_TREE = other;
    process.env.GIT_INDEX_FILE = path.join(other, ".git", "index");
    process.env.GIT_OBJECT_DIRECTORY = path.join(other, ".git", "objects");
    const git = new GitCliClient();
    expect(await git.repositoryRoot(mine)).toBe(mine);
    expect((await git.status(mine)).map((entry) => entry.path)).toEqual(["mine.txt"]);
  });
});
