import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createHash } from "node:crypto";
import { openContainedTree } from "@agent-tools/file-io/internal";
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

  describe("files git converts on checkout (blob in LF, files in CRLF)", () => {
    const oid = (text: string) =>
      createHash("sha1")
        .update(`blob ${Buffer.byteLength(text, "latin1")}\0`)
        .update(text, "latin1")
        .digest("hex");
    /** The child changed line 2 of "a\nb\n" to "B" (the patch in blob form, LF). */
    const change: FileChange = {
      path: "f.txt",
      before: { ...file, oid: oid("a\nb\n") },
      after: { ...file, oid: oid("a\nB\n") },
      hunks: [
        {
          oldStart: 2,
          oldCount: 1,
          newStart: 2,
          newCount: 1,
          lines: [
            { kind: "-", text: "b\n" },
            { kind: "+", text: "B\n" },
          ],
        },
      ],
      fromNothing: false,
    };
    async function plan(parentText: string, childText: string) {
      const parentTree = openContainedTree(folderWith({ "f.txt": parentText }));
      const worktreeTree = openContainedTree(folderWith({ "f.txt": childText }));
      try {
        return await planApply({ parentTree, worktree: worktreeTree, changes: [change], umaskBits: 0o022 });
      } finally {
        parentTree.close();
        worktreeTree.close();
      }
    }

    it("writes the child's file when the parent holds the base in the same checkout form", async () => {
      const result = await plan("a\r\nb\r\n", "a\r\nB\r\n");
      expect(result.conflicts).toEqual([]);
      expect(result.writes[0]!.post).toMatchObject({ kind: "file", bytes: Buffer.from("a\r\nB\r\n") });
    });

    it("conflicts when only the parent's line endings differ from the child's form (a change the apply did not see)", async () => {
      const result = await plan("a\r\nb\r\n", "a\nB\n");
      expect(result.conflicts.map((conflict) => conflict.path)).toEqual(["f.txt"]);
      expect(result.writes).toEqual([]);
    });

    it("does not merge a converted file the parent changed too", async () => {
      const result = await plan("A\r\nb\r\n", "a\r\nB\r\n");
      expect(result.conflicts).toEqual([{ path: "f.txt", reason: expect.stringMatching(/converts its line endings/) }]);
    });
  });
});
