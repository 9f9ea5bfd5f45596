import { describe, expect, it } from "vitest";
import { PatchParseError, parsePatch } from "./patch-parser.js";
import { quotePatchPath, readPatchPath } from "@agent-tools/core/internal";
import { applyTextHunks, mergeText } from "./text-patch-apply.js";
import { formatFileChange } from "./unified-patch-writer.js";

const lines = (count: number, change: Record<number, string> = {}) =>
  `${Array.from({ length: count }, (_, index) => change[index + 1] ?? `l${index + 1}`).join("\n")}\n`;
const blob = (text: string, oid: string) => ({ oid, mode: "100644", content: Buffer.from(text) });

function patchFor(oldText: string, newText: string) {
  return parsePatch(formatFileChange({ path: "f.txt", old: blob(oldText, "a".repeat(40)), new: blob(newText, "b".repeat(40)) }))[0]!;
}

describe("text patches", () => {
  it("applies at the stated lines and after an offset", () => {
    const patch = patchFor(lines(40), lines(40, { 5: "five", 30: "thirty" }));
    expect(patch.hunks).toHaveLength(2);
    expect(applyTextHunks(lines(40), patch.hunks)).toBe(lines(40, { 5: "five", 30: "thirty" }));
    const shifted = `x\ny\n${lines(40)}`;
    expect(applyTextHunks(shifted, patch.hunks)).toBe(`x\ny\n${lines(40, { 5: "five", 30: "thirty" })}`);
    expect(applyTextHunks(shifted, patch.hunks, { exact: true })).toBeUndefined();
  });

  it("refuses when context is missing", () => {
    const patch = patchFor(lines(10), lines(10, { 5: "five" }));
    expect(applyTextHunks(lines(10, { 4: "changed" }), patch.hunks)).toBeUndefined();
  });

  it("handles a missing final newline on either side", () => {
    const patch = patchFor("a\nb", "a\nc\n");
    expect(applyTextHunks("a\nb", patch.hunks)).toBe("a\nc\n");
    const back = patchFor("a\nc\n", "a\nb");
    expect(applyTextHunks("a\nc\n", back.hunks)).toBe("a\nb");
  });

  it("creates and empties files", () => {
    const created = parsePatch(formatFileChange({ path: "n.txt", old: null, new: blob("one\ntwo\n", "c".repeat(40)) }))[0]!;
    expect(created.oldPath).toBeNull();
    expect(created.newMode).toBe("100644");
    expect(applyTextHunks("", created.hunks)).toBe("one\ntwo\n");
    const deleted = parsePatch(formatFileChange({ path: "n.txt", old: blob("one\n", "c".repeat(40)), new: null }))[0]!;
    expect(deleted.newPath).toBeNull();
    expect(deleted.hunks[0]!.oldLines).toEqual(["one\n"]);
  });

  it("merges non-overlapping changes and marks overlapping ones", () => {
    expect(mergeText(lines(10, { 2: "ours" }), lines(10), lines(10, { 8: "theirs" }))).toEqual({
      text: lines(10, { 2: "ours", 8: "theirs" }),
      conflicted: false,
    });
    const conflict = mergeText(lines(5, { 3: "ours" }), lines(5), lines(5, { 3: "theirs" }));
    expect(conflict.conflicted).toBe(true);
    expect(conflict.text).toBe("l1\nl2\n<<<<<<< ours\nours\n=======\ntheirs\n>>>>>>> theirs\nl4\nl5\n");
  });

  it("quotes and reads paths as git does", () => {
    expect(quotePatchPath("a/plain name.txt")).toBe("a/plain name.txt");
    expect(quotePatchPath('a/naïve\t"x".txt')).toBe('"a/na\\303\\257ve\\t\\"x\\".txt"');
    expect(readPatchPath('"a/na\\303\\257ve\\t\\"x\\".txt" rest')).toEqual({ path: 'a/naïve\t"x".txt', rest: "rest" });
  });

  it("refuses renames and binary patches without data", () => {
    expect(() => parsePatch("diff --git a/x b/y\nsimilarity index 90%\nrename from x\nrename to y\n")).toThrow(PatchParseError);
    expect(() => parsePatch("diff --git a/x b/x\nindex 1..2 100644\nBinary files a/x and b/x differ\n")).toThrow(/--binary/);
    expect(() => parsePatch("diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1,3 +1,3 @@\n a\n")).toThrow(/truncated hunk/);
  });
});
