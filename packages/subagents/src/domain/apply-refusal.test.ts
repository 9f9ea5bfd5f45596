import { describe, expect, it } from "vitest";
import { describeRefusals, hasGitEntry, isGitEntryName, leavesWorkspace } from "./apply-refusal.js";

describe("isGitEntryName / hasGitEntry", () => {
  it("knows .git in every spelling a file system may take for it", () => {
    for (const name of [".git", ".GIT", ".Git", ".git.", ".git ", ".git. .", ".g\u200cit", "\ufeff.git", "git~1", "GIT~2"])
      expect(isGitEntryName(name), name).toBe(true);
    for (const name of [".gitignore", ".gitattributes", ".github", "git", "x.git", ".git-x", "git~", "git~x"]) expect(isGitEntryName(name), name).toBe(false);
  });
  it("finds a .git segment anywhere in a path, with / or \\ separators", () => {
    expect(hasGitEntry(".git/config")).toBe(true);
    expect(hasGitEntry("sub/.GIT/hooks/pre-commit")).toBe(true);
    expect(hasGitEntry("a\\.git\\config")).toBe(true);
    expect(hasGitEntry("docs/.gitkeep")).toBe(false);
  });
});

describe("leavesWorkspace", () => {
  it("is true for absolute paths and for .. that climbs out once normalised", () => {
    for (const path of ["/etc/passwd", "\\\\server\\share", "C:\\x", "c:x", "..", "../x", "a/../../x", "a/./../.."])
      expect(leavesWorkspace(path), path).toBe(true);
    for (const path of ["a", "a/../b", "./a", "a/b/../../c", "..a", "a..", ""]) expect(leavesWorkspace(path), path).toBe(false);
  });
});

describe("describeRefusals", () => {
  it("names every path with its reason, says nothing was applied and where the worktree is", () => {
    expect(
      describeRefusals(
        [
          { path: "evil", reason: "link_outside_workspace", detail: "-> /etc (an absolute target)" },
          { path: "sub", reason: "submodule", detail: "" },
        ],
        "/wt/x",
      ),
    ).toBe(
      "Refused 2 changed paths, so nothing was applied: evil (a symbolic link that leaves the workspace: -> /etc (an absolute target)); sub (a submodule: submodule changes are never applied). The worktree is kept at /wt/x for inspection.",
    );
  });
});
