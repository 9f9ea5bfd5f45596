/**
 * Reading the work tree and the object database with isomorphic-git: the
 * changes between a base commit and the work tree, and the worktree list.
 */
import fs from "node:fs";
import { readFile, readdir, readlink } from "node:fs/promises";
import path from "node:path";
import type { WalkerEntry } from "isomorphic-git";
import { loadIsomorphicGit } from "./load-isomorphic-git.js";
import type { GitWorktree } from "@agent-tools/core/git";
import type { FileChange } from "./unified-patch-writer.js";

/** The node:fs module as isomorphic-git's `fs` port. */
export const nodeFs = fs;

const EMPTY = new Uint8Array();

async function blobSide(entry: WalkerEntry | null): Promise<{ oid: string; mode: string; entry: WalkerEntry } | null> {
  if (!entry) return null;
  const [oid, mode] = await Promise.all([entry.oid(), entry.mode()]);
  return { oid, mode: mode.toString(8), entry };
}

async function withContent(side: { oid: string; mode: string; entry: WalkerEntry } | null) {
  if (!side) return null;
  const content = (await side.entry.content()) as Uint8Array | undefined;
  return { oid: side.oid, mode: side.mode, content: content ?? EMPTY };
}

/**
 * The files that differ between the tree of `commitOid` (null: the empty
 * tree) and the work tree, untracked files included, ignored ones left out,
 * sorted by path.
 */
export async function workTreeChanges(dir: string, commitOid: string | null, cache: object): Promise<FileChange[]> {
  const git = await loadIsomorphicGit();
  const changes: FileChange[] = [];
  const trees = commitOid ? [git.TREE({ ref: commitOid }), git.WORKDIR()] : [git.WORKDIR()];
  await git.walk({
    fs: nodeFs,
    dir,
    cache,
    trees,
    map: async (filepath, entries) => {
      if (filepath === ".") return undefined;
      const base = commitOid ? (entries[0] ?? null) : null;
      const work = commitOid ? (entries[1] ?? null) : (entries[0] ?? null);
      const baseType = base ? await base.type() : undefined;
      const workType = work ? await work.type() : undefined;
      if (!baseType && workType && (await git.isIgnored({ fs: nodeFs, dir, filepath }))) return null;
      const baseBlob = baseType === "blob" ? base : null;
      const workBlob = workType === "blob" ? work : null;
      if (!baseBlob && !workBlob) return undefined;
      const [oldSide, newSide] = await Promise.all([blobSide(baseBlob), blobSide(workBlob)]);
      if (oldSide && newSide && oldSide.oid === newSide.oid && oldSide.mode === newSide.mode) return undefined;
      // Contents are read only for files that changed.
      const [oldContent, newContent] = await Promise.all([withContent(oldSide), withContent(newSide)]);
      changes.push({ path: filepath, old: oldContent, new: newContent });
      return undefined;
    },
  });
  return changes.sort((a, b) => Buffer.compare(Buffer.from(a.path), Buffer.from(b.path)));
}

/** The git directory shared by every worktree of the repository at `root`, and the main work tree. */
export async function commonGitDirectory(root: string): Promise<{ gitdir: string; commonDir: string; mainRoot: string }> {
  const dotGit = path.join(root, ".git");
  const stat = await fs.promises.stat(dotGit);
  if (stat.isDirectory()) return { gitdir: dotGit, commonDir: dotGit, mainRoot: root };
  const pointer = (await readFile(dotGit, "utf8")).match(/^gitdir: (.+)$/m)?.[1]?.trim();
  if (!pointer) throw new Error(`${dotGit} is neither a directory nor a gitdir pointer`);
  const gitdir = path.resolve(root, pointer);
  const common = (await readFile(path.join(gitdir, "commondir"), "utf8").catch(() => "")).trim();
  const commonDir = common ? path.resolve(gitdir, common) : gitdir;
  return { gitdir, commonDir, mainRoot: path.dirname(commonDir) };
}

async function headOf(commonDir: string, headFile: string): Promise<{ branch: string | null; head: string | null }> {
  const git = await loadIsomorphicGit();
  const content = (await readFile(headFile, "utf8")).trim();
  if (!content.startsWith("ref: ")) return { branch: null, head: content || null };
  const ref = content.slice("ref: ".length);
  const head = await git.resolveRef({ fs: nodeFs, gitdir: commonDir, ref }).catch(() => null);
  return { branch: ref.replace(/^refs\/heads\//, ""), head };
}

/** The main worktree, then the linked ones recorded under `<common dir>/worktrees`. */
export async function listWorktreesFromFiles(root: string): Promise<GitWorktree[]> {
  const { commonDir, mainRoot } = await commonGitDirectory(root);
  const worktrees: GitWorktree[] = [{ path: mainRoot, ...(await headOf(commonDir, path.join(commonDir, "HEAD"))) }];
  const names = await readdir(path.join(commonDir, "worktrees")).catch(() => [] as string[]);
  for (const name of names.sort()) {
    const administrative = path.join(commonDir, "worktrees", name);
    const pointer = (await readFile(path.join(administrative, "gitdir"), "utf8").catch(() => "")).trim();
    if (!pointer) continue;
    worktrees.push({ path: path.dirname(pointer), ...(await headOf(commonDir, path.join(administrative, "HEAD"))) });
  }
  return worktrees;
}

/** Reads a work-tree file as git stores it: the link target for a symlink, else the bytes; null when missing. */
export async function readWorkTreeFile(file: string): Promise<{ content: Buffer; symlink: boolean } | null> {
  const stat = await fs.promises.lstat(file).catch(() => null);
  if (!stat) return null;
  if (stat.isSymbolicLink()) return { content: Buffer.from(await readlink(file), "utf8"), symlink: true };
  if (!stat.isFile()) return null;
  return { content: await readFile(file), symlink: false };
}

/**
 * Paths whose file mode (e.g. the executable bit) differs between HEAD and
 * the index (`index`), or between the index and the work tree (`workTree`):
 * statusMatrix compares contents only.
 */
export async function modeChanges(dir: string, hasHead: boolean, cache: object): Promise<Map<string, { index: boolean; workTree: boolean }>> {
  const git = await loadIsomorphicGit();
  const changes = new Map<string, { index: boolean; workTree: boolean }>();
  const trees = hasHead ? [git.TREE({ ref: "HEAD" }), git.STAGE(), git.WORKDIR()] : [git.STAGE(), git.WORKDIR()];
  await git.walk({
    fs: nodeFs,
    dir,
    cache,
    trees,
    map: async (filepath, entries) => {
      if (filepath === ".") return undefined;
      const [head, stage, work] = hasHead ? entries : [null, ...entries];
      if (!stage) return (await work?.type()) === "tree" && !head ? null : undefined;
      if ((await stage.type()) !== "blob") return undefined;
      const [headMode, stageMode, workMode] = await Promise.all([head?.mode(), stage.mode(), work && (await work.type()) === "blob" ? work.mode() : undefined]);
      const index = headMode !== undefined && headMode !== stageMode;
      const workTree = workMode !== undefined && workMode !== stageMode;
      if (index || workTree) changes.set(filepath, { index, workTree });
      return undefined;
    },
  });
  return changes;
}
