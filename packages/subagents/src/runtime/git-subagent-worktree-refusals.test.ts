import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { findApplyRefusals } from "./git-subagent-worktree-refusals.js";
import type { WorktreeChange, WorktreeSnapshot } from "./worktree-snapshot-read.js";

const temporary = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "subagent-refusals-")));
afterAll(() => fs.rmSync(temporary, { recursive: true, force: true }));

/** A worktree folder (the workspace at `offset` in it) holding `links` (path -> target) and `files`. */
function worktreeWith(name: string, offset: string, links: Record<string, string>, files: string[] = []) {
  const root = path.join(temporary, name);
  const workdir = path.join(root, offset);
  fs.mkdirSync(workdir, { recursive: true });
  for (const file of files) {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), "x\n");
  }
  for (const [link, target] of Object.entries(links)) {
    fs.mkdirSync(path.dirname(path.join(root, link)), { recursive: true });
    fs.symlinkSync(target, path.join(root, link));
  }
  const worktree = { repositoryRoot: "/unused", path: root, branch: "b", workdir };
  const changes: WorktreeChange[] = [
    ...Object.entries(links).map(([link, target]) => ({ path: link, oldMode: "000000", newMode: "120000", linkTarget: target })),
    ...files.map((file) => ({ path: file, oldMode: "000000", newMode: "100644" })),
  ];
  const snapshot: WorktreeSnapshot = { patch: "", changes, excluded: [] };
  return { worktree, snapshot, paths: changes.map((change) => change.path) };
}

const refusedOf = async (setup: ReturnType<typeof worktreeWith>) =>
  (await findApplyRefusals(setup.worktree, setup.snapshot, setup.paths)).map((refusal) => [refusal.path, refusal.reason]);

describe("findApplyRefusals", () => {
  it("refuses links that leave the workspace: absolute, climbing out, or through another link; accepts the rest", async () => {
    const setup = worktreeWith("links", "", {
      absolute: "/etc/passwd",
      climbing: "../x",
      "deep/er/climbing": "../../../x",
      "deep/up": "..",
      through: "deep/up/..",
      "chain/a": "b",
      "chain/b": "c",
      "chain/c": "../../../outside",
      loop: "loop2",
      loop2: "loop",
      git: ".git/config",
      fine: "deep/er",
      dangling: "missing/../fine",
      "dangling-out": "missing/../../fine",
      inside: "deep/../fine",
    });
    expect(await refusedOf(setup)).toEqual([
      ["absolute", "link_outside_workspace"],
      ["climbing", "link_outside_workspace"],
      ["deep/er/climbing", "link_outside_workspace"],
      ["through", "link_outside_workspace"],
      ["chain/a", "link_outside_workspace"],
      ["chain/b", "link_outside_workspace"],
      ["chain/c", "link_outside_workspace"],
      ["loop", "link_outside_workspace"],
      ["loop2", "link_outside_workspace"],
      ["git", "link_outside_workspace"],
      ["dangling-out", "link_outside_workspace"],
    ]);
  });

  it("measures links against the workspace, a subfolder of the worktree; refuses paths outside it", async () => {
    const setup = worktreeWith("offset", "packages/app", { "packages/app/up": "..", "packages/app/ok": "src" }, ["packages/lib/b.ts", "packages/app/src/a.ts"]);
    expect(await refusedOf(setup)).toEqual([
      ["packages/app/up", "link_outside_workspace"],
      ["packages/lib/b.ts", "outside_workspace"],
    ]);
  });

  it("follows the parent workspace's own links the patch leaves in place, and the patch's links over the parent's entries", async () => {
    const setup = worktreeWith("parent-links", "", { x: "ext/secret", y: "ext/..", "d/z": "../ext", replaced: "own/..", fine: "d", q: "d", p: "q/.." });
    const parent = path.join(temporary, "parent-links-parent");
    fs.mkdirSync(path.join(parent, "d"), { recursive: true });
    fs.symlinkSync("/", path.join(parent, "ext"));
    // The parent's own/ is a link out that the patch leaves in place: "replaced" goes through it.
    fs.symlinkSync("/tmp", path.join(parent, "own"));
    // The parent's q is a link out too, but the patch replaces it (q -> d): p -> q/.. stays inside.
    fs.symlinkSync("/", path.join(parent, "q"));
    const refusals = await findApplyRefusals({ ...setup.worktree, repositoryRoot: parent }, setup.snapshot, setup.paths);
    expect(refusals.map((refusal) => [refusal.path, refusal.detail])).toEqual([
      ["x", "-> ext/secret (through ext -> /, an absolute target)"],
      ["y", "-> ext/.. (through ext -> /, an absolute target)"],
      ["d/z", "-> ../ext (through ext -> /, an absolute target)"],
      ["replaced", "-> own/.. (through own -> /tmp, an absolute target)"],
    ]);
  });

  it("refuses .git entries, submodule changes, special files, a parent that is no longer a folder, and what the snapshot left out", async () => {
    const setup = worktreeWith("kinds", "", {}, ["ok.txt"]);
    const root = setup.worktree.path;
    execFileSync("mkfifo", [path.join(root, "pipe")]);
    fs.mkdirSync(path.join(root, "real"));
    fs.symlinkSync("real", path.join(root, "swapped"));
    const snapshot: WorktreeSnapshot = {
      patch: "",
      changes: [
        { path: ".GIT/config", oldMode: "000000", newMode: "100644" },
        { path: "sub", oldMode: "160000", newMode: "160000" },
        { path: "nested", oldMode: "000000", newMode: "160000" },
        { path: "pipe", oldMode: "100644", newMode: "100644" },
        { path: "swapped/a.txt", oldMode: "000000", newMode: "100644" },
        { path: "ok.txt", oldMode: "000000", newMode: "100644" },
      ],
      excluded: [{ path: "a.txt", reason: "special_file", detail: "not a regular file" }],
    };
    const refusals = await findApplyRefusals(
      setup.worktree,
      snapshot,
      snapshot.changes.map((change) => change.path),
    );
    expect(refusals.map((refusal) => [refusal.path, refusal.reason, refusal.detail])).toEqual([
      [".GIT/config", "git_entry", ""],
      ["sub", "submodule", ""],
      ["nested", "submodule", ""],
      ["pipe", "special_file", "a fifo"],
      ["swapped/a.txt", "special_file", "swapped is no longer a folder in the worktree"],
      ["a.txt", "special_file", "not a regular file"],
    ]);
  });
});
