import { describe, expect, it } from "vitest";
import { applicablePaths, decideApply, globToRegExp, matchesAllowedOutputPath } from "./apply-decision.js";

const completed = (changedPaths: string[], applyPolicy: "none" | "explicit" | "auto", allowedOutputPaths: string[] = []) =>
  decideApply({ runStatus: "completed", changedPaths, applyPolicy, allowedOutputPaths });

describe("decideApply", () => {
  it("applies only a completed run", () => {
    for (const runStatus of ["failed", "cancelled", "running"] as const) {
      expect(decideApply({ runStatus, changedPaths: ["a.ts"], applyPolicy: "auto", allowedOutputPaths: [] })).toEqual({
        action: "skip",
        reason: "run_not_completed",
        candidateArtifacts: ["a.ts"],
      });
    }
  });

  it("skips with no_changes when nothing changed", () => {
    expect(completed([], "auto")).toEqual({ action: "skip", reason: "no_changes", candidateArtifacts: [] });
  });

  it("skips with no_changes when only litter changed (the worktree counts as unchanged)", () => {
    expect(completed([".DS_Store", "src/Thumbs.db", "docs/desktop.ini"], "auto")).toEqual({
      action: "skip",
      reason: "no_changes",
      candidateArtifacts: [],
    });
  });

  it("skips with apply_policy_none, offering the changed paths as candidate artifacts", () => {
    expect(completed(["report.md", "out/.DS_Store"], "none")).toEqual({ action: "skip", reason: "apply_policy_none", candidateArtifacts: ["report.md"] });
  });

  it("applies everything applicable with auto", () => {
    expect(completed(["src/a.ts", "src/", "Thumbs.db", "b.md"], "auto")).toEqual({ action: "apply", paths: ["src/a.ts", "b.md"] });
  });

  it("applies with explicit when every path matches an allowed entry", () => {
    expect(completed(["docs/api/x.md", "src/util/a.test.ts"], "explicit", ["docs", "src/**/*.test.ts"])).toEqual({
      action: "apply",
      paths: ["docs/api/x.md", "src/util/a.test.ts"],
    });
  });

  it("skips with explicit_apply_paths_mismatch when any path is not allowed", () => {
    expect(completed(["docs/x.md", "src/a.ts", "package.json"], "explicit", ["docs/"])).toEqual({
      action: "skip",
      reason: "explicit_apply_paths_mismatch",
      candidateArtifacts: ["docs/x.md", "src/a.ts", "package.json"],
      mismatchedPaths: ["src/a.ts", "package.json"],
    });
  });

  it("never applies a change outside the workspace, whatever the policy and patterns", () => {
    const changed = ["src/a.ts", "../../README.md", "../lib/b.ts"];
    for (const [policy, allowed] of [
      ["auto", []],
      ["explicit", ["**"]],
      ["explicit", ["."]],
      ["explicit", ["**/*.ts", "**/*.md"]],
    ] as const) {
      expect(completed(changed, policy, [...allowed])).toEqual({
        action: "skip",
        reason: "changes_outside_workspace",
        candidateArtifacts: changed,
        outsidePaths: ["../../README.md", "../lib/b.ts"],
      });
    }
    expect(completed(["src/../../x"], "auto")).toMatchObject({ reason: "changes_outside_workspace" });
    expect(completed(["/etc/passwd"], "auto")).toMatchObject({ reason: "changes_outside_workspace" });
    expect(completed(["src/../a.ts", "..x/y"], "auto")).toEqual({ action: "apply", paths: ["src/../a.ts", "..x/y"] });
  });

  it("ignores litter before matching explicit paths", () => {
    expect(completed(["docs/x.md", ".DS_Store"], "explicit", ["docs"])).toEqual({ action: "apply", paths: ["docs/x.md"] });
  });
});

describe("applicablePaths", () => {
  it("collapses parent directories, normalises separators and drops duplicates", () => {
    expect(applicablePaths(["new/", "new/a.txt", "new/sub/b.txt", "./x.txt", "x.txt", "win\\path.txt", "new/sub"])).toEqual([
      "new/a.txt",
      "new/sub/b.txt",
      "x.txt",
      "win/path.txt",
    ]);
  });
  it("keeps a directory entry with nothing listed under it, and sibling names that share a prefix", () => {
    expect(applicablePaths(["empty-dir/", "src", "src-old/a.ts"])).toEqual(["empty-dir", "src", "src-old/a.ts"]);
  });
  it("drops litter by file name, case-insensitively, in any directory", () => {
    expect(applicablePaths(["a/.ds_store", "THUMBS.DB", "a/b/Desktop.ini", "a/keep.ini"])).toEqual(["a/keep.ini"]);
  });
});

describe("matchesAllowedOutputPath", () => {
  it("matches a plain entry as itself or a directory prefix", () => {
    expect(matchesAllowedOutputPath("docs", "docs")).toBe(true);
    expect(matchesAllowedOutputPath("docs/a/b.md", "docs")).toBe(true);
    expect(matchesAllowedOutputPath("docs/a/b.md", "./docs/")).toBe(true);
    expect(matchesAllowedOutputPath("docs2/a.md", "docs")).toBe(false);
    expect(matchesAllowedOutputPath("doc", "docs")).toBe(false);
    expect(matchesAllowedOutputPath("src/a.ts", "src/a.ts")).toBe(true);
    expect(matchesAllowedOutputPath("src/a.tsx", "src/a.ts")).toBe(false);
  });
  it("treats . as the whole workspace", () => {
    expect(matchesAllowedOutputPath("any/file", ".")).toBe(true);
  });
  it("never matches a path or an entry that leaves the workspace", () => {
    for (const entry of [".", "**", "**/*", "**/../x", "**/*.md"]) {
      expect(matchesAllowedOutputPath("../x", entry)).toBe(false);
      expect(matchesAllowedOutputPath("../../README.md", entry)).toBe(false);
      expect(matchesAllowedOutputPath("/etc/x.md", entry)).toBe(false);
    }
    expect(matchesAllowedOutputPath("x", "**/../x")).toBe(false);
    expect(matchesAllowedOutputPath("a/x", "a/b/..")).toBe(false);
  });
  it("matches * within one segment and ? as one character", () => {
    expect(matchesAllowedOutputPath("src/a.ts", "src/*.ts")).toBe(true);
    expect(matchesAllowedOutputPath("src/sub/a.ts", "src/*.ts")).toBe(false);
    expect(matchesAllowedOutputPath("a1.md", "a?.md")).toBe(true);
    expect(matchesAllowedOutputPath("a12.md", "a?.md")).toBe(false);
    expect(matchesAllowedOutputPath("a/.md", "a?.md")).toBe(false);
  });
  it("matches **/ as any number of directories (including none) and ** as anything", () => {
    expect(matchesAllowedOutputPath("a.test.ts", "**/*.test.ts")).toBe(true);
    expect(matchesAllowedOutputPath("x/y/a.test.ts", "**/*.test.ts")).toBe(true);
    expect(matchesAllowedOutputPath("src/a.test.ts", "src/**/*.test.ts")).toBe(true);
    expect(matchesAllowedOutputPath("src/x/y/a.test.ts", "src/**/*.test.ts")).toBe(true);
    expect(matchesAllowedOutputPath("lib/a.test.ts", "src/**/*.test.ts")).toBe(false);
    expect(matchesAllowedOutputPath("out/x/y.bin", "out/**")).toBe(true);
    expect(matchesAllowedOutputPath("outside/y.bin", "out/**")).toBe(false);
    expect(matchesAllowedOutputPath("src/ab/c", "src/a**")).toBe(true);
  });
  it("escapes regular expression characters", () => {
    expect(matchesAllowedOutputPath("a+b(1).md", "a+b(1)*")).toBe(true);
    expect(matchesAllowedOutputPath("aXmd", "a.md*")).toBe(false);
    const regExp = globToRegExp("a.b/**/c?*");
    expect(regExp.test("a.b/c1")).toBe(true);
    expect(regExp.test("a.b/x/y/c12")).toBe(true);
    expect(regExp.test("aXb/c1")).toBe(false);
    expect(regExp.test("a.b/c")).toBe(false);
  });
});
