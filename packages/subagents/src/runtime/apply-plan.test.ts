import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { openContainedTree } from "@agent-tools/tools-fs";
import { afterEach, describe, expect, it } from "vitest";
import { planApply } from "./apply-plan.js";
import type { FileChange } from "./worktree-file-changes.js";

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) fs.rmSync(folder, { recursive: true, force: true });
});

function folderWith(files: Record<string, string>): string {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "apply-plan-")));
  folders.push(root);
  for (const [relative, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, relative)), { recursive: true });
    fs.writeFileSync(path.join(root, relative), text, { mode: 0o644 });
  }
  return root;
}

const file = { kind: "file" as const, executable: false };
const missing = { kind: "missing" as const, executable: false };

describe("planApply", () => {
  it("orders deletions deepest first, then writes shallowest first, and lists the folders the writes create", async () => {
    // A file becoming a folder (`a` deleted, `a/x/y.txt` created) and a new file in a new folder.
    const parent = folderWith({ a: "old\n", "keep/z.txt": "z\n" });
    const worktree = folderWith({ "a/x/y.txt": "y\n", "keep/z.txt": "z\n", "new/deep/n.txt": "n\n" });
    const changes: FileChange[] = [
      {
        path: "a",
        before: file,
        after: missing,
        hunks: [{ oldStart: 1, oldCount: 1, newStart: 0, newCount: 0, lines: [{ kind: "-", text: "old\n" }] }],
        fromNothing: true,
      },
      { path: "a/x/y.txt", before: missing, after: file, hunks: [], fromNothing: false },
      { path: "new/deep/n.txt", before: missing, after: file, hunks: [], fromNothing: false },
    ];
    const parentTree = openContainedTree(parent);
    const worktreeTree = openContainedTree(worktree);
    try {
      const plan = await planApply({ parentTree, worktree: worktreeTree, changes, umaskBits: 0o022 });
      expect(plan.conflicts).toEqual([]);
      expect(plan.writes.map((write) => [write.path, write.pre.kind, write.post.kind])).toEqual([
        ["a", "file", "missing"],
        ["a/x/y.txt", "missing", "file"],
        ["new/deep/n.txt", "missing", "file"],
      ]);
      expect(plan.createdDirectories).toEqual(["a", "new", "a/x", "new/deep"]);
      expect(plan.writes[1]!.post).toEqual({ kind: "file", bytes: Buffer.from("y\n"), mode: 0o644 });
    } finally {
      parentTree.close();
      worktreeTree.close();
    }
  });
});
