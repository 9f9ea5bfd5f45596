import { describe, expect, it } from "vitest";
import { pathOfDiffHeader, pathSelected, splitPatch } from "./git-subagent-worktree-patch.js";

describe("worktree patch sections", () => {
  it("reads the path of plain and C-quoted diff headers, also when the name holds ' b/'", () => {
    expect(pathOfDiffHeader("diff --git a/src/a.ts b/src/a.ts")).toBe("src/a.ts");
    expect(pathOfDiffHeader("diff --git a/x b/y b/x b/y")).toBe("x b/y");
    expect(pathOfDiffHeader('diff --git "a/\\303\\244 \\"q\\".txt" "b/\\303\\244 \\"q\\".txt"')).toBe('ä "q".txt');
    expect(pathOfDiffHeader('diff --git "a/tab\\there" "b/tab\\there"')).toBe("tab\there");
  });

  it("splits a patch into one section per file, keeping every byte", () => {
    const patch = [
      "diff --git a/a.txt b/a.txt",
      "index 1..2 100644",
      "--- a/a.txt",
      "+++ b/a.txt",
      "@@ -1 +1 @@",
      "-diff --git a/fake b/fake",
      "+x",
      "diff --git a/b.bin b/b.bin",
      "new file mode 100644",
      "GIT binary patch",
      "literal 3",
      "KcmZQzWB>pF00961",
      "",
      "",
    ].join("\n");
    const sections = splitPatch(patch);
    expect(sections.map((section) => section.path)).toEqual(["a.txt", "b.bin"]);
    expect(sections.map((section) => section.text).join("")).toBe(patch);
    expect(splitPatch("")).toEqual([]);
  });

  it("selects paths by exact name or directory prefix, never by a shared name prefix", () => {
    expect(pathSelected("dir/b.txt", ["dir"])).toBe(true);
    expect(pathSelected("dir/b.txt", ["./dir/"])).toBe(true);
    expect(pathSelected("dirt.txt", ["dir"])).toBe(false);
    expect(pathSelected("a.txt", ["a.txt"])).toBe(true);
    expect(pathSelected("a.txt", [""])).toBe(false);
    expect(pathSelected("deep/a.txt", ["."])).toBe(true);
  });
});
