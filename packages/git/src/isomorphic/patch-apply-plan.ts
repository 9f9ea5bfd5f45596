/**
 * Plans the application of a parsed patch to a work tree: every file's new
 * content is computed in memory first, so a failing file leaves the work tree
 * untouched (all or nothing), and 3-way merges use the patch's base blobs.
 */
import { chmod, mkdir, rm, rmdir, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { applyGitDelta } from "./git-binary-patch.js";
import type { FilePatch } from "./patch-parser.js";
import { applyTextHunks, mergeText } from "./text-patch-apply.js";
import { readWorkTreeFile } from "./isomorphic-working-tree.js";

/** What happens to one file. */
export interface PlannedFile {
  path: string;
  action: "write" | "delete";
  content?: Buffer;
  mode?: string;
  /** Written with conflict markers (or left as is, for binary files). */
  conflicted?: boolean;
}

/** Ports the planner needs from the repository. */
export interface PatchPlanPorts {
  /** The git blob id of `content`. */
  hashBlob(content: Uint8Array): Promise<string>;
  /** The content of a blob by a full or abbreviated id; null when the repository does not have it. */
  readBlob(oid: string): Promise<Uint8Array | null>;
}

/** The outcome of planning. */
export interface PatchPlan {
  files: PlannedFile[];
  /** Paths that could not be patched, with the reason. */
  failures: { path: string; reason: string }[];
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

function decode(content: Uint8Array): string | undefined {
  try {
    return utf8.decode(content);
  } catch {
    return undefined;
  }
}

/** The post-image of a binary patch applied to `current`, or undefined when `current` is not its pre-image. */
async function binaryPostImage(file: FilePatch, current: Buffer, ports: PatchPlanPorts): Promise<Buffer | undefined> {
  const binary = file.binary!;
  if (binary.forward.kind === "delta") {
    try {
      return applyGitDelta(current, binary.forward.data);
    } catch {
      return undefined;
    }
  }
  if (binary.reverse?.kind === "literal") {
    if (Buffer.compare(binary.reverse.data, current) !== 0) return undefined;
  } else if (file.oldOid && !/^0+$/.test(file.oldOid)) {
    const oid = await ports.hashBlob(current);
    if (!oid.startsWith(file.oldOid)) return undefined;
  }
  return binary.forward.data;
}

/** Plans `files` against the work tree at `root`. With `threeWay`, text hunks that do not fit are merged over the base blob. */
export async function planPatch(root: string, files: readonly FilePatch[], options: { threeWay: boolean; ports: PatchPlanPorts }): Promise<PatchPlan> {
  const plan: PatchPlan = { files: [], failures: [] };
  for (const file of files) {
    const target = (file.newPath ?? file.oldPath)!;
    const fail = (reason: string) => plan.failures.push({ path: target, reason });
    const existing = await readWorkTreeFile(path.join(root, target));
    const current = existing?.content ?? null;
    if (file.oldPath === null) {
      const created = file.binary ? file.binary.forward.data : Buffer.from(file.hunks.flatMap((hunk) => hunk.newLines).join(""), "utf8");
      if (current !== null) {
        if (options.threeWay && Buffer.compare(current, created) === 0) continue;
        fail("already exists in the work tree");
        continue;
      }
      plan.files.push({ path: target, action: "write", content: created, mode: file.newMode });
      continue;
    }
    if (current === null) {
      fail("does not exist in the work tree");
      continue;
    }
    if (file.newPath === null) {
      const preImage = file.binary
        ? file.binary.reverse?.kind === "literal"
          ? file.binary.reverse.data
          : undefined
        : Buffer.from(file.hunks.flatMap((hunk) => hunk.oldLines).join(""), "utf8");
      const matches = preImage ? Buffer.compare(preImage, current) === 0 : file.oldOid ? (await options.ports.hashBlob(current)).startsWith(file.oldOid) : true;
      if (!matches) fail("its content differs from the patch's; it was not deleted");
      else plan.files.push({ path: target, action: "delete" });
      continue;
    }
    const mode = file.newMode && file.newMode !== file.oldMode ? file.newMode : undefined;
    if (file.binary) {
      const next = await binaryPostImage(file, current, options.ports);
      if (next) plan.files.push({ path: target, action: "write", content: next, mode });
      else if (options.threeWay) plan.files.push({ path: target, action: "write", content: current, mode, conflicted: true });
      else fail("binary content differs from the patch's pre-image");
      continue;
    }
    if (file.hunks.length === 0) {
      plan.files.push({ path: target, action: "write", content: current, mode });
      continue;
    }
    const currentText = decode(current);
    const patched = currentText === undefined ? undefined : applyTextHunks(currentText, file.hunks);
    if (patched !== undefined) {
      plan.files.push({ path: target, action: "write", content: Buffer.from(patched, "utf8"), mode });
      continue;
    }
    if (!options.threeWay) {
      fail("a hunk does not apply");
      continue;
    }
    const baseBlob = file.oldOid ? await options.ports.readBlob(file.oldOid) : null;
    const baseText = baseBlob ? decode(baseBlob) : undefined;
    const theirs = baseText === undefined ? undefined : applyTextHunks(baseText, file.hunks, { exact: true });
    if (baseText === undefined || theirs === undefined || currentText === undefined) {
      fail("a hunk does not apply and the patch's base blob is not in this repository");
      continue;
    }
    const merged = mergeText(currentText, baseText, theirs);
    plan.files.push({ path: target, action: "write", content: Buffer.from(merged.text, "utf8"), mode, conflicted: merged.conflicted });
  }
  return plan;
}

/** Writes a plan to the work tree at `root`. */
export async function writePlan(root: string, plan: PatchPlan): Promise<void> {
  for (const file of plan.files) {
    const absolute = path.join(root, file.path);
    if (file.action === "delete") {
      await rm(absolute, { force: true });
      // Like git, remove directories the deletion left empty.
      for (let directory = path.dirname(absolute); directory !== root && directory.startsWith(root); directory = path.dirname(directory)) {
        if (
          !(await rmdir(directory).then(
            () => true,
            () => false,
          ))
        )
          break;
      }
      continue;
    }
    await mkdir(path.dirname(absolute), { recursive: true });
    if (file.mode === "120000") {
      await rm(absolute, { force: true });
      await symlink(file.content!.toString("utf8"), absolute);
      continue;
    }
    await writeFile(absolute, file.content!);
    if (file.mode === "100755") await chmod(absolute, 0o755);
    else if (file.mode === "100644") await chmod(absolute, 0o644);
  }
}
