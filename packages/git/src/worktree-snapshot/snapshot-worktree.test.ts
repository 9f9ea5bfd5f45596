import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { GitClientError } from "@agent-tools/core";
import { GitCliClient } from "../git-cli-client.js";
import { type TestRepository, createTestRepository } from "./__fixtures__/snapshot-test-repository.js";
import { withoutRepositoryVariables } from "./isolated-git-run.js";

const repositories: TestRepository[] = [];
afterEach(() => {
  for (const repository of repositories.splice(0)) repository.remove();
});

/** A repository with `files` committed and a linked worktree of it; returns both and the base commit. */
function withWorktree(files: Record<string, string | Buffer>, options: { objectFormat?: "sha256" } = {}) {
  const repo = createTestRepository(options.objectFormat === undefined ? files : {});
  repositories.push(repo);
  if (options.objectFormat !== undefined) {
    fs.rmSync(path.join(repo.root, ".git"), { recursive: true });
    repo.git(["init", "-q", "-b", "main", `--object-format=${options.objectFormat}`]);
    repo.git(["config", "user.name", "t"]);
    repo.git(["config", "user.email", "t@e"]);
    for (const [relative, content] of Object.entries(files)) repo.write(relative, content);
    repo.commitAll("init");
  }
  const base = repo.git(["rev-parse", "HEAD"]).trim();
  const worktree = path.join(repo.base, "worktree");
  repo.git(["worktree", "add", "-q", "-b", "child", worktree, base]);
  const target = { repositoryRoot: repo.root, path: worktree, baseCommit: base };
  const write = (relative: string, content: string | Buffer) => {
    fs.mkdirSync(path.dirname(path.join(worktree, relative)), { recursive: true });
    fs.writeFileSync(path.join(worktree, relative), content);
  };
  return { repo, base, worktree, target, write };
}

/** A git directory at `<worktree>/<folder>` whose fsmonitor and filter `x` leave markers in `<repo.base>/markers`. */
function plantGitDirectory(repo: TestRepository, worktree: string, folder: string, head: string): string {
  const markers = path.join(repo.base, "markers");
  fs.mkdirSync(markers, { recursive: true });
  const gitDir = path.join(worktree, folder);
  fs.mkdirSync(path.join(gitDir, "objects", "info"), { recursive: true });
  fs.mkdirSync(path.join(gitDir, "refs", "heads"), { recursive: true });
  fs.writeFileSync(path.join(gitDir, "HEAD"), head);
  fs.writeFileSync(path.join(gitDir, "objects", "info", "alternates"), `${path.join(repo.root, ".git", "objects")}\n`);
  const mark = (name: string) => `"touch '${path.join(markers, name)}'; cat"`;
  fs.writeFileSync(
    path.join(gitDir, "config"),
    `[core]\n\tbare = false\n\tfsmonitor = ${mark("fsmonitor")}\n[filter "x"]\n\tclean = ${mark("clean")}\n\trequired = true\n[diff "x"]\n\ttextconv = ${mark("textconv")}\n`,
  );
  return markers;
}

const client = new GitCliClient();
/** The worktree `target` read through the port, as the subagent worktrees read it. */
const git = {
  snapshot: (target: { repositoryRoot: string; path: string; baseCommit?: string }) =>
    client.snapshotWorktree(target.repositoryRoot, { worktree: target.path, ...(target.baseCommit === undefined ? {} : { base: target.baseCommit }) }),
};

describe("GitCliClient.snapshotWorktree", () => {
  it("diffs the worktree against its base commit with modes and link targets, and leaves the worktree's own index and objects alone", async () => {
    const { repo, worktree, target, write } = withWorktree({ "a.txt": "one\n", "run.sh": "#!/bin/sh\n", "gone.txt": "bye\n" });
    write("a.txt", "two\n");
    write("new.txt", "new\n");
    fs.chmodSync(path.join(worktree, "run.sh"), 0o755);
    fs.rmSync(path.join(worktree, "gone.txt"));
    fs.symlinkSync("a.txt", path.join(worktree, "link"));
    const indexBefore = fs.readFileSync(path.join(repo.root, ".git", "worktrees", "worktree", "index"));
    const objectsBefore = repo.git(["count-objects", "-v"]);

    const snapshot = await git.snapshot(target);
    expect(snapshot.changes).toEqual([
      { path: "a.txt", oldMode: "100644", newMode: "100644" },
      { path: "gone.txt", oldMode: "100644", newMode: "000000" },
      { path: "link", oldMode: "000000", newMode: "120000", linkTarget: "a.txt" },
      { path: "new.txt", oldMode: "000000", newMode: "100644" },
      { path: "run.sh", oldMode: "100644", newMode: "100755" },
    ]);
    expect(snapshot.excluded).toEqual([]);
    expect(snapshot.patch).toContain("diff --git a/a.txt b/a.txt\n");
    expect(snapshot.patch).toContain("-one\n+two\n");
    // Full blob ids, so an apply can check what it writes.
    expect(snapshot.patch).toMatch(/^index [0-9a-f]{40}\.\.[0-9a-f]{40} 100644$/m);
    expect(fs.readFileSync(path.join(repo.root, ".git", "worktrees", "worktree", "index")).equals(indexBefore)).toBe(true);
    expect(repo.git(["count-objects", "-v"])).toBe(objectsBefore);
    // The patch applies to the parent as it is.
    execFileSync("git", ["apply", "--binary", "-"], { cwd: repo.root, input: snapshot.patch });
    expect(repo.read("a.txt")).toBe("two\n");
    expect(fs.readlinkSync(path.join(repo.root, "link"))).toBe("a.txt");
  });

  it("ignores the git directory the worktree's .git names, its fsmonitor and filters, and the host's GIT_DIR, GIT_WORK_TREE and GIT_INDEX_FILE", async () => {
    const { repo, worktree, target, write } = withWorktree({ "a.txt": "one\n" });
    const markers = plantGitDirectory(repo, worktree, "evil", "ref: refs/heads/main\n");
    fs.writeFileSync(path.join(worktree, ".git"), "gitdir: evil\n");
    write(".gitattributes", "* filter=x diff=x\n");
    write("a.txt", "two\n");
    const elsewhere = createTestRepository({ "other.txt": "other\n" });
    repositories.push(elsewhere);
    const saved = { GIT_DIR: process.env.GIT_DIR, GIT_WORK_TREE: process.env.GIT_WORK_TREE, GIT_INDEX_FILE: process.env.GIT_INDEX_FILE };
    process.env.GIT_DIR = path.join(elsewhere.root, ".git");
    process.env.GIT_WORK_TREE = elsewhere.root;
    process.env.GIT_INDEX_FILE = path.join(elsewhere.root, ".git", "index");
    try {
      const snapshot = await git.snapshot(target);
      expect(snapshot.changes.map((change) => change.path)).toEqual([".gitattributes", "a.txt", "evil/HEAD", "evil/config", "evil/objects/info/alternates"]);
      expect(snapshot.patch).toContain("-one\n+two\n");
    } finally {
      for (const [name, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
    expect(fs.readdirSync(markers)).toEqual([]);
  });

  it("runs no filter or textconv the repository's own config defines when the worktree's .gitattributes names it", async () => {
    const { repo, target, write } = withWorktree({ "a.txt": "one\n" });
    const marker = path.join(repo.base, "user-driver-ran");
    repo.git(["config", "filter.user.clean", `touch '${marker}'; cat`]);
    repo.git(["config", "filter.user.required", "true"]);
    repo.git(["config", "diff.user.textconv", `touch '${marker}'; cat`]);
    write(".gitattributes", "* filter=user diff=user\n");
    write("a.txt", "two\n");
    const snapshot = await git.snapshot(target);
    expect(snapshot.patch).toContain("-one\n+two\n");
    expect(fs.existsSync(marker)).toBe(false);
  });

  it("never enters a submodule: one the child gave a .git and a new nested repository are left out and reported", async () => {
    const { repo, worktree, base, target, write } = withWorktree({ "a.txt": "one\n" });
    repo.git(["update-index", "--add", "--cacheinfo", `160000,${base},sub`]);
    repo.git(["commit", "-q", "-m", "submodule"]);
    const pinned = repo.git(["rev-parse", "HEAD"]).trim();
    const second = path.join(repo.base, "second");
    repo.git(["worktree", "add", "-q", "-b", "second", second, pinned]);
    // The pinned commit as the submodule's HEAD: an unchanged submodule is one git would ask for its status.
    const markers = plantGitDirectory(repo, second, "evil", `${base}\n`);
    fs.writeFileSync(path.join(second, "sub", ".git"), "gitdir: ../evil\n");
    fs.writeFileSync(path.join(second, "sub", ".gitattributes"), "* filter=x\n");
    fs.writeFileSync(path.join(second, "sub", "f.txt"), "f\n");
    const snapshot = await git.snapshot({ repositoryRoot: repo.root, path: second, baseCommit: pinned });
    expect(fs.readdirSync(markers)).toEqual([]);
    expect(snapshot.excluded).toEqual([{ path: "sub", reason: "submodule", detail: expect.stringContaining(".git") }]);
    expect(snapshot.changes.some((change) => change.path.startsWith("sub"))).toBe(false);

    // In the first worktree (no submodule at its base): a nested repository is left out and reported, its .git never read.
    execFileSync("git", ["init", "-q", path.join(worktree, "nested")]);
    execFileSync("git", ["-C", path.join(worktree, "nested"), "-c", "user.name=t", "-c", "user.email=t@e", "commit", "-q", "--allow-empty", "-m", "n"]);
    write("a.txt", "two\n");
    const nested = await git.snapshot(target);
    expect(nested.changes).toEqual([{ path: "a.txt", oldMode: "100644", newMode: "100644" }]);
    expect(nested.excluded).toEqual([{ path: "nested", reason: "submodule", detail: expect.stringContaining("nested repository") }]);
  });

  it("leaves out a tracked file that became a fifo and a path git refuses, naming each; ignores an untracked fifo", async () => {
    const { worktree, target, write } = withWorktree({ "a.txt": "one\n", "b.txt": "b\n" });
    fs.rmSync(path.join(worktree, "a.txt"));
    execFileSync("mkfifo", [path.join(worktree, "a.txt")]);
    execFileSync("mkfifo", [path.join(worktree, "new.pipe")]);
    write(".GIT/config", "[core]\n");
    write("b.txt", "changed\n");
    const snapshot = await git.snapshot(target);
    expect(snapshot.excluded).toEqual(
      expect.arrayContaining([
        { path: "a.txt", reason: "special_file", detail: expect.any(String) },
        { path: ".GIT/config", reason: "invalid_path", detail: expect.any(String) },
      ]),
    );
    expect(snapshot.excluded).toHaveLength(2);
    expect(snapshot.changes).toEqual([{ path: "b.txt", oldMode: "100644", newMode: "100644" }]);
  });

  it("writes a tree with text that is not UTF-8 as binary patches, and works without the worktree's index", async () => {
    const { repo, worktree, target, write } = withWorktree({ "a.txt": "one\n" });
    write("latin.txt", Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]));
    fs.rmSync(path.join(repo.root, ".git", "worktrees", "worktree", "index"));
    const snapshot = await git.snapshot(target);
    expect(snapshot.patch).toContain("GIT binary patch");
    expect(snapshot.changes.map((change) => change.path)).toEqual(["latin.txt"]);
    expect(fs.existsSync(path.join(worktree, "a.txt"))).toBe(true);
  });

  it("reads a SHA-256 repository, and the base from the worktree's own git directory when none is given", async () => {
    const { target, write } = withWorktree({ "a.txt": "one\n" }, { objectFormat: "sha256" });
    write("a.txt", "two\n");
    const snapshot = await git.snapshot({ repositoryRoot: target.repositoryRoot, path: target.path });
    expect(snapshot.patch).toMatch(/^index [0-9a-f]{64}\.\.[0-9a-f]{64} 100644$/m);
    expect(snapshot.changes).toEqual([{ path: "a.txt", oldMode: "100644", newMode: "100644" }]);
  });

  it("fails with a GitClientError when the worktree is gone", async () => {
    const { worktree, target } = withWorktree({ "a.txt": "one\n" });
    fs.rmSync(worktree, { recursive: true });
    const error = await git.snapshot(target).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(GitClientError);
    expect(error).toMatchObject({ code: "command_failed", message: `The worktree ${worktree} is gone (or not a folder).` });
  });

  it("stops at maxBytes with too_large, before git reads the changed files whole", async () => {
    const { target, write } = withWorktree({ "a.txt": "one\n" });
    write("big.txt", "x".repeat(4096));
    const error = await client
      .snapshotWorktree(target.repositoryRoot, { worktree: target.path, base: target.baseCommit, maxBytes: 1024 })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(GitClientError);
    expect(error).toMatchObject({ code: "too_large", message: expect.stringContaining("are larger than 1024 bytes (of changed files)") });
  });
});

describe("withoutRepositoryVariables", () => {
  it("drops the variables that locate a repository and keeps the rest", () => {
    expect(
      withoutRepositoryVariables({
        GIT_DIR: "/x",
        GIT_WORK_TREE: "/y",
        GIT_INDEX_FILE: "/z",
        GIT_OBJECT_DIRECTORY: "/o",
        GIT_CONFIG_GLOBAL: "/g",
        PATH: "/bin",
        HOME: "/h",
      }),
    ).toEqual({ GIT_CONFIG_GLOBAL: "/g", PATH: "/bin", HOME: "/h" });
  });
});
