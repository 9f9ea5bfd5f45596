/**
 * Copies the rules-3k repository (bench/fs/make-rules-corpus.ts) for the
 * workspace benchmark: every file but the ignored `node_modules/` is a real
 * copy (no hard link to the pnpm store, so an edit touches only the copy),
 * optionally handed to another account; `node_modules/` (the whole pnpm
 * store, 24,000 files, ignored by the tree's own rules) is hard-linked, as
 * the original is, and left to its owner: no side ever reads it.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync } from "node:fs";
import path from "node:path";

/** Who owns the copy (a uid and gid), when not the current user. */
export interface CopyOwner {
  readonly uid: number;
  readonly gid: number;
}

/** Copies `source`'s entries into the existing directory `target` (see the module comment). */
export function copyRulesTree(source: string, target: string, owner?: CopyOwner): void {
  mkdirSync(target, { recursive: true });
  for (const entry of readdirSync(source)) {
    const from = path.join(source, entry);
    if (entry === "node_modules") {
      execFileSync("cp", ["-al", from, target]);
      if (owner) execFileSync("chown", ["-h", `${owner.uid}:${owner.gid}`, path.join(target, entry)]);
      continue;
    }
    execFileSync("cp", ["-R", "--no-dereference", "--preserve=mode,timestamps", from, target]);
    if (owner) execFileSync("chown", ["-R", "-h", `${owner.uid}:${owner.gid}`, path.join(target, entry)]);
  }
}
