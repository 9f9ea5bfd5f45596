/** Contract cases: paths and symlinks (stat/lstat, realpath, readlink, containment, loops, writes through links). */
import { posix } from "node:path";
import { expect, it } from "vitest";
import { canonicalizeInWorkspace, resolveInWorkspace } from "@agent-tools/core/workspace";
import { type WorkspaceContractContext, expectWorkspaceError } from "./workspace-contract-support.js";

/** Registers the path and symlink cases. */
export function pathCases(context: WorkspaceContractContext): void {
  it("symlinks: stat follows a link, lstat does not; a dangling link is not_found for stat only", async () => {
    const { workspace, scratch } = await context.open();
    await workspace.fs.writeFileAtomic(posix.join(scratch, "target.txt"), Buffer.from("twelve bytes"));
    await context.symlink(workspace, "target.txt", posix.join(scratch, "link"));
    await context.symlink(workspace, "missing.txt", posix.join(scratch, "dangling"));
    const followed = await workspace.fs.stat(posix.join(scratch, "link"));
    expect(followed.type).toBe("file");
    expect(followed.size).toBe(12);
    expect((await workspace.fs.lstat(posix.join(scratch, "link"))).type).toBe("symlink");
    expect((await workspace.fs.readFile(posix.join(scratch, "link"))).toString()).toBe("twelve bytes");
    expect((await workspace.fs.lstat(posix.join(scratch, "dangling"))).type).toBe("symlink");
    await expectWorkspaceError(() => workspace.fs.stat(posix.join(scratch, "dangling")), "not_found");
  });

  it("symlinks: realpath resolves relative and absolute links along the path; readlink gives the target text as written", async () => {
    const { workspace, scratch } = await context.open();
    const base = await workspace.fs.realpath(scratch);
    await workspace.fs.mkdir(posix.join(scratch, "real/sub"), { recursive: true });
    await workspace.fs.writeFileAtomic(posix.join(scratch, "real/sub/file.txt"), Buffer.from("x"));
    await context.symlink(workspace, "real/sub", posix.join(scratch, "rel"));
    await context.symlink(workspace, posix.join(scratch, "real"), posix.join(scratch, "abs"));
    await workspace.fs.mkdir(posix.join(scratch, "other"));
    await context.symlink(workspace, "../real/sub/file.txt", posix.join(scratch, "other/up"));
    expect(await workspace.fs.realpath(posix.join(scratch, "rel/file.txt"))).toBe(posix.join(base, "real/sub/file.txt"));
    expect(await workspace.fs.realpath(posix.join(scratch, "abs/sub"))).toBe(posix.join(base, "real/sub"));
    expect(await workspace.fs.realpath(posix.join(scratch, "other/up"))).toBe(posix.join(base, "real/sub/file.txt"));
    expect(await workspace.fs.readlink(posix.join(scratch, "rel"))).toBe("real/sub");
    expect(await workspace.fs.readlink(posix.join(scratch, "other/up"))).toBe("../real/sub/file.txt");
    expect(await workspace.fs.readlink(posix.join(scratch, "abs"))).toBe(posix.join(scratch, "real"));
    await expectWorkspaceError(() => workspace.fs.realpath(posix.join(scratch, "rel/missing")), "not_found");
  });

  it("paths: resolveInWorkspace refuses a symlink leading out of the root and a .. path; canonicalizeInWorkspace follows them", async () => {
    const { workspace, scratch } = await context.open();
    const root = workspace.root;
    expect(root, "the contract needs a root below /").not.toBe("/");
    const outside = posix.join(posix.dirname(root), "agent-tools-contract-outside");
    await context.symlink(workspace, outside, posix.join(scratch, "abs-out"));
    const depth = scratch.split("/").filter(Boolean).length;
    await context.symlink(workspace, `${"../".repeat(depth + 2)}etc`, posix.join(scratch, "rel-out"));
    await workspace.fs.mkdir(posix.join(scratch, "inside"));
    await context.symlink(workspace, "inside", posix.join(scratch, "in"));
    for (const path of [posix.join(scratch, "abs-out"), posix.join(scratch, "abs-out/new-file.txt"), posix.join(scratch, "rel-out/passwd")]) {
      await expectWorkspaceError(() => resolveInWorkspace(workspace.fs, root, path), "out_of_bounds");
    }
    await expectWorkspaceError(() => resolveInWorkspace(workspace.fs, root, `${root}/../agent-tools-contract-outside/x`), "out_of_bounds");
    await expectWorkspaceError(() => resolveInWorkspace(workspace.fs, root, `${scratch}/${"../".repeat(depth + 1)}etc/passwd`), "out_of_bounds");
    const canonical = await canonicalizeInWorkspace(workspace.fs, posix.join(scratch, "abs-out/new-file.txt"));
    expect(canonical.canonicalPath).toBe(posix.join(outside, "new-file.txt"));
    const inside = await resolveInWorkspace(workspace.fs, root, posix.join(scratch, "in/new.txt"));
    expect(inside.canonicalPath).toBe(posix.join(await workspace.fs.realpath(scratch), "inside/new.txt"));
    expect(inside.exists).toBe(false);
    const leaf = await resolveInWorkspace(workspace.fs, root, posix.join(scratch, "abs-out"), { keepLeafSymlink: true });
    expect(leaf.isSymlink).toBe(true);
  });

  it("symlinks: a loop is symlink_loop for stat, readFile, realpath and the containment check", async () => {
    const { workspace, scratch } = await context.open();
    await context.symlink(workspace, "loop-b", posix.join(scratch, "loop-a"));
    await context.symlink(workspace, "loop-a", posix.join(scratch, "loop-b"));
    await context.symlink(workspace, "self", posix.join(scratch, "self"));
    const a = posix.join(scratch, "loop-a");
    await expectWorkspaceError(() => workspace.fs.stat(a), "symlink_loop");
    await expectWorkspaceError(() => workspace.fs.readFile(a), "symlink_loop");
    await expectWorkspaceError(() => workspace.fs.realpath(posix.join(scratch, "self")), "symlink_loop");
    await expectWorkspaceError(() => workspace.fs.stat(posix.join(scratch, "self/child")), "symlink_loop");
    await expectWorkspaceError(() => resolveInWorkspace(workspace.fs, workspace.root, posix.join(a, "x")), "symlink_loop");
    expect((await workspace.fs.lstat(a)).type).toBe("symlink");
  });

  it("symlinks: writing to a symlink path replaces the link with a file and leaves the target untouched", async () => {
    const { workspace, scratch } = await context.open();
    const target = posix.join(scratch, "target.txt");
    const link = posix.join(scratch, "link.txt");
    await workspace.fs.writeFileAtomic(target, Buffer.from("original"));
    await context.symlink(workspace, "target.txt", link);
    await workspace.fs.writeFileAtomic(link, Buffer.from("replacement"));
    expect((await workspace.fs.lstat(link)).type).toBe("file");
    expect((await workspace.fs.readFile(link)).toString()).toBe("replacement");
    expect((await workspace.fs.readFile(target)).toString()).toBe("original");
    const dangling = posix.join(scratch, "dangling.txt");
    await context.symlink(workspace, "never-created.txt", dangling);
    await expectWorkspaceError(() => workspace.fs.writeFileAtomic(dangling, Buffer.from("x"), { exclusive: true }), "exists");
    await workspace.fs.writeFileAtomic(dangling, Buffer.from("y"));
    expect((await workspace.fs.lstat(dangling)).type).toBe("file");
    await expectWorkspaceError(() => workspace.fs.stat(posix.join(scratch, "never-created.txt")), "not_found");
  });
}
