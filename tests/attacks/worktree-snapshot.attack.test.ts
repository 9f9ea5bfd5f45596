/**
 * What worked before the fix: a nested folder whose `.git` file names another
 * repository of the host (`gitdir: /elsewhere/.git`) made `git add` record
 * that repository's HEAD, which reached the patch as `Subproject commit <id>`.
 *
 * Attacks on `GitCliClient.snapshotWorktree` called directly on a hostile
 * linked worktree (what a worktree child leaves behind): nested repositories
 * the child made or pointed elsewhere, hook and fsmonitor configs, includes,
 * `.gitmodules` with `update = !cmd`, driver attributes, a root `.git` symlink,
 * odd names, host `GIT_CONFIG_*` variables. Guarantee: the host's git runs no
 * command the worktree names and reads nothing outside the worktree and the
 * repository.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { GitCliClient } from "@agent-tools/git";
import { afterAll, describe, expect, it } from "vitest";

const temporary = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "attack-snapshot-")));
afterAll(() => fs.rmSync(temporary, { recursive: true, force: true }));

const gitEnv = {
  ...process.env,
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_CONFIG_GLOBAL: "/dev/null",
  GIT_AUTHOR_NAME: "t",
  GIT_AUTHOR_EMAIL: "t@t",
  GIT_COMMITTER_NAME: "t",
  GIT_COMMITTER_EMAIL: "t@t",
};
for (const name of ["GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE"]) delete gitEnv[name];
const git = (cwd: string, ...args: string[]) => execFileSync("git", args, { cwd, env: gitEnv, encoding: "utf8" });

/** A repository with one commit, a linked worktree of it and a markers folder. */
function scene(label: string) {
  const base = path.join(temporary, label);
  const repository = path.join(base, "repo");
  const worktree = path.join(base, "worktree");
  const markers = path.join(base, "markers");
  fs.mkdirSync(repository, { recursive: true });
  fs.mkdirSync(markers);
  git(repository, "init", "-q", "-b", "main");
  fs.writeFileSync(path.join(repository, "a.txt"), "one\n");
  git(repository, "add", "-A");
  git(repository, "commit", "-q", "-m", "init");
  const baseCommit = git(repository, "rev-parse", "HEAD").trim();
  git(repository, "worktree", "add", "-q", "-b", "child", worktree, baseCommit);
  const mark = (name: string) => `touch '${path.join(markers, name)}'; cat`;
  return { base, repository, worktree, markers, baseCommit, mark };
}

/** A hostile config: every key that can run a command, naming a marker. */
function hostileConfig(mark: (name: string) => string, include?: string): string {
  return [
    "[core]",
    `\tfsmonitor = "${mark("fsmonitor")}"`,
    `\thooksPath = "${path.dirname(mark("x").split("'")[1]!)}"`,
    `\tsshCommand = "${mark("ssh")}"`,
    `\tpager = "${mark("pager")}"`,
    "[diff]",
    `\texternal = "${mark("diff-external")}"`,
    '[filter "x"]',
    `\tclean = "${mark("clean")}"`,
    `\tsmudge = "${mark("smudge")}"`,
    `\tprocess = "${mark("process")}"`,
    "\trequired = true",
    '[diff "x"]',
    `\ttextconv = "${mark("textconv")}"`,
    `\tcommand = "${mark("diff-command")}"`,
    '[merge "x"]',
    `\tdriver = "${mark("merge")}"`,
    "[safe]",
    "\tdirectory = *",
    ...(include === undefined ? [] : ["[include]", `\tpath = ${include}`]),
    "",
  ].join("\n");
}

const client = new GitCliClient();
const snapshot = (s: ReturnType<typeof scene>, maxBytes?: number) =>
  client.snapshotWorktree(s.repository, { worktree: s.worktree, base: s.baseCommit, ...(maxBytes === undefined ? {} : { maxBytes }) });

describe("attack: a hostile worktree read by GitCliClient.snapshotWorktree", () => {
  it("a new nested repository whose .git file names another repository of the host: nothing runs, that repository's HEAD is not read into the patch", async () => {
    const s = scene("nested-pointer");
    // Another repository on the host, with a secret HEAD and a config that runs commands.
    const other = path.join(s.base, "other");
    fs.mkdirSync(other);
    git(other, "init", "-q", "-b", "main");
    fs.writeFileSync(path.join(other, "secret.txt"), "secret\n");
    git(other, "add", "-A");
    git(other, "commit", "-q", "-m", "secret");
    const secretHead = git(other, "rev-parse", "HEAD").trim();
    fs.appendFileSync(path.join(other, ".git", "config"), hostileConfig(s.mark));
    for (const hook of ["pre-commit", "post-checkout", "reference-transaction", "fsmonitor-watchman"]) {
      fs.writeFileSync(path.join(other, ".git", "hooks", hook), `#!/bin/sh\n${s.mark(`hook-${hook}`)}\n`, { mode: 0o755 });
    }
    fs.mkdirSync(path.join(s.worktree, "pointer"));
    fs.writeFileSync(path.join(s.worktree, "pointer", ".git"), `gitdir: ${path.join(other, ".git")}\n`);
    fs.writeFileSync(path.join(s.worktree, "pointer", "file.txt"), "x\n");
    fs.writeFileSync(path.join(s.worktree, "a.txt"), "two\n");
    const result = await snapshot(s).catch((error: Error) => error);
    expect(fs.readdirSync(s.markers)).toEqual([]);
    const text = result instanceof Error ? result.message : `${result.patch}\n${JSON.stringify(result.changes)}\n${JSON.stringify(result.excluded)}`;
    expect(text).not.toContain(secretHead);
  });

  it("a nested repository the child made, with hooks, fsmonitor, includes and drivers, and .gitmodules with update = !cmd: nothing runs", async () => {
    const s = scene("nested-made");
    const nested = path.join(s.worktree, "nested");
    fs.mkdirSync(nested);
    git(nested, "init", "-q", "-b", "main");
    fs.writeFileSync(path.join(nested, "n.txt"), "n\n");
    git(nested, "add", "-A");
    git(nested, "commit", "-q", "-m", "n");
    fs.writeFileSync(path.join(s.base, "included.cfg"), hostileConfig(s.mark));
    fs.appendFileSync(path.join(nested, ".git", "config"), hostileConfig(s.mark, path.join(s.base, "included.cfg")));
    fs.writeFileSync(
      path.join(s.worktree, ".gitmodules"),
      `[submodule "nested"]\n\tpath = nested\n\turl = ./nested\n\tupdate = !${s.mark("submodule-update")}\n`,
    );
    fs.writeFileSync(path.join(s.worktree, ".gitattributes"), "* filter=x diff=x merge=x\n");
    fs.writeFileSync(path.join(s.worktree, "a.txt"), "two\n");
    // The worktree's own git directory (in the repository, which an unsandboxed child can write) gets a hostile config.worktree.
    const own = path.join(s.repository, ".git", "worktrees", "worktree");
    fs.writeFileSync(path.join(own, "config.worktree"), hostileConfig(s.mark));
    const result = await snapshot(s);
    expect(fs.readdirSync(s.markers)).toEqual([]);
    expect(result.patch).toContain("-one\n+two\n");
  });

  it("a root .git that is a symlink to /etc or to the repository's own .git, and a .git file naming /etc: the diff is still the worktree's, nothing runs", async () => {
    for (const [label, plant] of [
      ["etc-link", (wt: string) => fs.symlinkSync("/etc", path.join(wt, ".git"))],
      ["repo-link", (wt: string) => fs.symlinkSync(path.join(wt, "..", "repo", ".git"), path.join(wt, ".git"))],
      ["etc-file", (wt: string) => fs.writeFileSync(path.join(wt, ".git"), "gitdir: /etc\n")],
    ] as const) {
      const s = scene(label);
      fs.rmSync(path.join(s.worktree, ".git"));
      plant(s.worktree);
      fs.writeFileSync(path.join(s.worktree, "a.txt"), "two\n");
      const result = await snapshot(s);
      expect(
        result.changes.map((change) => change.path),
        label,
      ).toEqual(["a.txt"]);
      expect(result.patch).not.toMatch(/passwd|hostname/);
    }
  });

  it("names with newlines, quotes, tabs, backslashes, a leading dash and pathspec magic come through as themselves", async () => {
    const s = scene("names");
    const names = ["new\nline.txt", 'quote"d.txt', "tab\there.txt", "back\\slash.txt", "-c core.fsmonitor=x", ":(glob)*", ":!a.txt", "$(touch x)"];
    for (const name of names) fs.writeFileSync(path.join(s.worktree, name), `${JSON.stringify(name)}\n`);
    const result = await snapshot(s);
    expect(result.changes.map((change) => change.path).sort()).toEqual([...names].sort());
    expect(fs.existsSync(path.join(s.worktree, "x"))).toBe(false);
  });

  it("host GIT_CONFIG_COUNT / GIT_EXTERNAL_DIFF do not reach the runs on the worktree", async () => {
    const s = scene("host-env");
    fs.writeFileSync(path.join(s.worktree, "a.txt"), "two\n");
    const saved = { ...process.env };
    Object.assign(process.env, {
      GIT_CONFIG_COUNT: "1",
      GIT_CONFIG_KEY_0: "core.fsmonitor",
      GIT_CONFIG_VALUE_0: s.mark("env-fsmonitor"),
      GIT_EXTERNAL_DIFF: s.mark("env-external-diff"),
    });
    try {
      const result = await snapshot(s);
      expect(result.patch).toContain("-one\n+two\n");
    } finally {
      for (const name of ["GIT_CONFIG_COUNT", "GIT_CONFIG_KEY_0", "GIT_CONFIG_VALUE_0", "GIT_EXTERNAL_DIFF"]) {
        if (saved[name] === undefined) delete process.env[name];
        else process.env[name] = saved[name];
      }
    }
    expect(fs.readdirSync(s.markers)).toEqual([]);
  });
});
