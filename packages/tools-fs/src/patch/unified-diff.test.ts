import { describe, expect, it } from "vitest";
import { formatUnifiedDiff } from "./unified-diff.js";

const diff = (before: string, after: string) => formatUnifiedDiff("src/a.txt", Buffer.from(before), Buffer.from(after));

describe("formatUnifiedDiff", () => {
  it("equal contents give nothing", () => {
    expect(diff("a\n", "a\n")).toBe("");
  });

  it("one changed line with its context", () => {
    expect(diff("1\n2\n3\n4\n5\n6\n7\n8\n", "1\n2\n3\n4\nfive\n6\n7\n8\n")).toBe(
      "--- a/src/a.txt\n+++ b/src/a.txt\n@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+five\n 6\n 7\n 8\n",
    );
  });

  it("changes far apart make two hunks; close ones one", () => {
    const lines = Array.from({ length: 30 }, (_, index) => `${index + 1}`);
    const after = [...lines];
    after[1] = "two";
    after[25] = "twenty-six";
    expect(diff(`${lines.join("\n")}\n`, `${after.join("\n")}\n`).match(/^@@ .*$/gm)).toEqual(["@@ -1,5 +1,5 @@", "@@ -23,7 +23,7 @@"]);
    after[25] = "26";
    after[7] = "eight";
    expect(diff(`${lines.join("\n")}\n`, `${after.join("\n")}\n`).match(/^@@ .*$/gm)).toEqual(["@@ -1,11 +1,11 @@"]);
  });

  it("a new file and a deleted file", () => {
    expect(diff("", "x\ny\n")).toBe("--- a/src/a.txt\n+++ b/src/a.txt\n@@ -0,0 +1,2 @@\n+x\n+y\n");
    expect(diff("x\n", "")).toBe("--- a/src/a.txt\n+++ b/src/a.txt\n@@ -1,1 +0,0 @@\n-x\n");
  });

  it("a missing final newline is marked on its side", () => {
    expect(diff("a\nb", "a\nb\n")).toBe("--- a/src/a.txt\n+++ b/src/a.txt\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+b\n");
    expect(diff("a\n", "a\nc")).toBe("--- a/src/a.txt\n+++ b/src/a.txt\n@@ -1,1 +1,2 @@\n a\n+c\n\\ No newline at end of file\n");
  });

  it("insertions and deletions in the middle are minimal (Myers)", () => {
    expect(diff("a\nb\nc\nd\n", "a\nx\nb\nd\n")).toBe("--- a/src/a.txt\n+++ b/src/a.txt\n@@ -1,4 +1,4 @@\n a\n+x\n b\n-c\n d\n");
  });

  it("CR is compared but not shown", () => {
    expect(diff("a\r\nb\r\n", "a\r\nc\r\n")).toBe("--- a/src/a.txt\n+++ b/src/a.txt\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n");
  });

  it("a rewrite of a large file past the Myers limit is shown as removed then added", () => {
    const before = Array.from({ length: 5000 }, (_, index) => `old ${index}`).join("\n");
    const after = Array.from({ length: 5000 }, (_, index) => `new ${index}`).join("\n");
    const text = formatUnifiedDiff("big", Buffer.from(before), Buffer.from(after));
    expect(text.split("\n").filter((line) => line.startsWith("-old")).length).toBe(5000);
    expect(text.split("\n").filter((line) => line.startsWith("+new")).length).toBe(5000);
  });
});
