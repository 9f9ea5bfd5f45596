/**
 * Attacks on ApplyPatch's all-or-nothing promise when a write fails after
 * other files were already written (the commit, not the plan, fails): the
 * last file is made immutable after the model read everything (`chattr +i`,
 * as root: its lock and temporary file can be made, its rename fails), so
 * Update, Delete, Add and Move of the first files are committed and must be
 * put back exactly
 * (content and permission bits, a deleted file back, a moved file back at
 * its source and gone from its destination), the answer naming what was
 * restored, and no temporary file left behind. A folder made unwritable
 * (`chmod 555` for an unprivileged run, `chattr +i` as root) fails the
 * patch before anything is written.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { toolResultText } from "@agent-tools/core";
import { buildBuiltinToolRegistry } from "@agent-tools/sdk";
import { afterAll, describe, expect, it } from "vitest";

const temporary = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "attack-edit-formats-atomic-")));
const asRoot = process.getuid?.() === 0;
const locked: string[] = [];

/** Makes `target` refuse changes: a folder refuses new entries and renames (root ignores permission bits, so it gets the immutable flag); a file (root only) refuses being replaced. */
function lock(target: string): void {
  locked.push(target);
  if (asRoot) execFileSync("chattr", ["+i", target]);
  else fs.chmodSync(target, 0o555);
}

function unlock(target: string): void {
  if (asRoot) execFileSync("chattr", ["-i", target]);
  else fs.chmodSync(target, 0o755);
}

afterAll(() => {
  for (const dir of locked) {
    try {
      unlock(dir);
    } catch {
      // already gone
    }
  }
  fs.rmSync(temporary, { recursive: true, force: true });
});

/** Every entry below `dir` with its content and permission bits. */
function tree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    const full = path.join(entry.parentPath, entry.name);
    const stats = fs.lstatSync(full);
    const mode = (stats.mode & 0o7777).toString(8);
    out[path.relative(dir, full)] = stats.isFile() ? `${mode} ${fs.readFileSync(full, "utf8")}` : stats.isDirectory() ? "dir" : "other";
  }
  return out;
}

const patch = (...lines: string[]) => ["*** Begin Patch", ...lines, "*** End Patch"].join("\n");

describe("ApplyPatch: a write failing after others were committed", () => {
  it.skipIf(!asRoot)("Update, Delete, Add and Move committed first are put back exactly when the last file's write fails", async () => {
    const workdir = path.join(temporary, "work");
    fs.mkdirSync(path.join(workdir, "locked"), { recursive: true });
    const files: Record<string, [string, number]> = {
      "f1.txt": ["one\r\ntwo\r\n", 0o640],
      "f2.txt": ["alpha\n", 0o755],
      "gone.txt": ["delete me\n", 0o604],
      "src.txt": ["moving\n", 0o600],
      "locked/last.txt": ["last\n", 0o644],
    };
    for (const [name, [text, mode]] of Object.entries(files)) {
      fs.writeFileSync(path.join(workdir, name), text);
      fs.chmodSync(path.join(workdir, name), mode);
    }
    const registry = await buildBuiltinToolRegistry({ workdir, dataDir: path.join(temporary, "data"), memory: false, editSurface: "both" });
    try {
      for (const name of Object.keys(files)) await registry.executeToolCall({ id: `r-${name}`, name: "Read", arguments: { path: name } });
      const before = tree(workdir);
      lock(path.join(workdir, "locked", "last.txt"));
      const text = patch(
        "*** Update File: f1.txt",
        "@@",
        "-one",
        "+ONE",
        "*** Update File: f2.txt",
        "@@",
        "-alpha",
        "+ALPHA",
        "*** Delete File: gone.txt",
        "*** Add File: new/deep/added.txt",
        "+added",
        "*** Update File: src.txt",
        "*** Move to: moved/dst.txt",
        "*** Update File: locked/last.txt",
        "@@",
        "-last",
        "+LAST",
      );
      const result = await registry.executeToolCall({ id: "patch", name: "ApplyPatch", arguments: { patch: text } });
      unlock(path.join(workdir, "locked", "last.txt"));
      const answer = toolResultText(result, "");
      expect(result.isError, answer).toBe(true);
      expect(answer).toContain("locked/last.txt");
      // Everything as it was: contents, permission bits, the deleted file back, the moved one at its source, no new folder or temporary file.
      expect(tree(workdir)).toEqual(before);
      // The model is told the truth: what was written and put back.
      expect(answer, answer).toMatch(/restored/);
      // After the failure the same patch applies once the folder is writable again (nothing left held or locked).
      const again = await registry.executeToolCall({ id: "patch-2", name: "ApplyPatch", arguments: { patch: text } });
      expect(again.isError, toolResultText(again, "")).toBe(false);
      expect(fs.readFileSync(path.join(workdir, "moved", "dst.txt"), "utf8")).toBe("moving\n");
      expect(fs.statSync(path.join(workdir, "moved", "dst.txt")).mode & 0o777).toBe(0o600);
      expect(fs.readFileSync(path.join(workdir, "f1.txt"), "utf8")).toBe("ONE\r\ntwo\r\n");
    } finally {
      await registry.close();
    }
  });

  it("a folder made unwritable fails the patch before anything is written", async () => {
    const workdir = path.join(temporary, "work-dir");
    fs.mkdirSync(path.join(workdir, "locked"), { recursive: true });
    fs.writeFileSync(path.join(workdir, "f1.txt"), "one\n");
    fs.writeFileSync(path.join(workdir, "locked", "last.txt"), "last\n");
    const registry = await buildBuiltinToolRegistry({ workdir, dataDir: path.join(temporary, "data-dir"), memory: false, editSurface: "both" });
    try {
      const before = tree(workdir);
      lock(path.join(workdir, "locked"));
      const text = patch("*** Update File: f1.txt", "@@", "-one", "+ONE", "*** Update File: locked/last.txt", "@@", "-last", "+LAST");
      const result = await registry.executeToolCall({ id: "patch", name: "ApplyPatch", arguments: { patch: text } });
      unlock(path.join(workdir, "locked"));
      expect(result.isError, toolResultText(result, "")).toBe(true);
      expect(tree(workdir)).toEqual(before);
    } finally {
      await registry.close();
    }
  });
});
