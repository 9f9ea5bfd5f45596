import { ToolError } from "@agent-tools/core";
import { describe, expect, it } from "vitest";
import { parseInstallSource } from "./skill-source.js";
import type { SkillInstallMethod, SkillInstallSource } from "./skill-types.js";

const WORKDIR = "/work/project";
const auto = (source: string, ref?: string): SkillInstallSource =>
  parseInstallSource(source, { method: "auto", workdir: WORKDIR, ...(ref === undefined ? {} : { ref }) });
const git = (url: string, ref = "main", subdirectory = ""): SkillInstallSource => ({ kind: "git", url, ref, subdirectory });

function failure(run: () => unknown): ToolError {
  try {
    run();
  } catch (error) {
    if (error instanceof ToolError) return error;
    throw error;
  }
  throw new Error("expected a ToolError");
}

describe("parseInstallSource (auto)", () => {
  it.each<[string, SkillInstallSource]>([
    ["/opt/skills/pdf", { kind: "directory", path: "/opt/skills/pdf" }],
    ["/opt/skills/pdf/", { kind: "directory", path: "/opt/skills/pdf/" }],
    ["/opt/a/../skills/pdf", { kind: "directory", path: "/opt/skills/pdf" }],
    ["skills/pdf", { kind: "directory", path: "/work/project/skills/pdf" }],
    ["./pdf", { kind: "directory", path: "/work/project/pdf" }],
    ["../shared/pdf", { kind: "directory", path: "/work/shared/pdf" }],
    [".", { kind: "directory", path: "/work/project" }],
    ["  pdf.zip  ", { kind: "archive", path: "/work/project/pdf.zip" }],
    ["/tmp/pdf.skill", { kind: "archive", path: "/tmp/pdf.skill" }],
    ["/tmp/PDF.ZIP", { kind: "archive", path: "/tmp/PDF.ZIP" }],
    ["file:///tmp/my%20skills/pdf", { kind: "directory", path: "/tmp/my skills/pdf" }],
    ["file://localhost/tmp/pdf.skill", { kind: "archive", path: "/tmp/pdf.skill" }],
    ["https://github.com/acme/skills", git("https://github.com/acme/skills.git")],
    ["https://github.com/acme/skills.git", git("https://github.com/acme/skills.git")],
    ["https://www.github.com/acme/skills/", git("https://www.github.com/acme/skills.git")],
    ["https://github.com/acme/skills/tree/v2", git("https://github.com/acme/skills.git", "v2")],
    ["https://github.com/acme/skills/tree/main/skills/pdf", git("https://github.com/acme/skills.git", "main", "skills/pdf")],
    ["https://github.com/acme/skills/tree/dev/my%20pdf?tab=readme#top", git("https://github.com/acme/skills.git", "dev", "my pdf")],
    ["https://github.com/acme/skills/blob/abc123/skills/pdf/SKILL.md", git("https://github.com/acme/skills.git", "abc123", "skills/pdf")],
    ["https://github.com/acme/skills/blob/main/SKILL.md", git("https://github.com/acme/skills.git", "main", "")],
    ["https://gitlab.com/acme/skills", git("https://gitlab.com/acme/skills.git")],
    ["https://gitlab.com/group/sub/skills/-/tree/v1/pdf", git("https://gitlab.com/group/sub/skills.git", "v1", "pdf")],
    ["https://gitlab.com/acme/skills/-/blob/main/pdf/SKILL.md", git("https://gitlab.com/acme/skills.git", "main", "pdf")],
    ["https://bitbucket.org/acme/skills", git("https://bitbucket.org/acme/skills.git")],
    ["https://bitbucket.org/acme/skills/src/main/pdf", git("https://bitbucket.org/acme/skills.git", "main", "pdf")],
    ["https://bitbucket.org/acme/skills/src/main/pdf/SKILL.md", git("https://bitbucket.org/acme/skills.git", "main", "pdf")],
    ["https://git.example.com/team/skills.git", git("https://git.example.com/team/skills.git")],
    ["git@github.com:acme/skills.git", git("git@github.com:acme/skills.git")],
    ["ssh://git@host.example/acme/skills.git", git("ssh://git@host.example/acme/skills.git")],
    ["git://host.example/skills.git", git("git://host.example/skills.git")],
    ["https://example.com/pdf.zip", { kind: "download", url: "https://example.com/pdf.zip" }],
    ["http://127.0.0.1:8080/skill", { kind: "download", url: "http://127.0.0.1:8080/skill" }],
    [
      "https://github.com/acme/skills/releases/download/v1/pdf.skill",
      { kind: "download", url: "https://github.com/acme/skills/releases/download/v1/pdf.skill" },
    ],
    ["https://github.com/acme/skills/archive/refs/heads/main.zip", { kind: "download", url: "https://github.com/acme/skills/archive/refs/heads/main.zip" }],
    ["https://raw.githubusercontent.com/acme/skills/main/pdf.zip", { kind: "download", url: "https://raw.githubusercontent.com/acme/skills/main/pdf.zip" }],
    ["https://github.com/acme", { kind: "download", url: "https://github.com/acme" }],
  ])("%j", (source, expected) => {
    expect(auto(source)).toEqual(expected);
  });

  it("uses options.ref when the URL names none, and agrees with a matching one", () => {
    expect(auto("https://github.com/acme/skills", "v3")).toEqual(git("https://github.com/acme/skills.git", "v3"));
    expect(auto("git@github.com:acme/skills.git", "dev")).toEqual(git("git@github.com:acme/skills.git", "dev"));
    expect(auto("https://github.com/acme/skills/tree/v2/pdf", "v2")).toEqual(git("https://github.com/acme/skills.git", "v2", "pdf"));
    expect(auto("https://github.com/acme/skills", "  ")).toEqual(git("https://github.com/acme/skills.git"));
  });

  it("ignores ref for sources that are not git", () => {
    expect(auto("/tmp/pdf", "v1")).toEqual({ kind: "directory", path: "/tmp/pdf" });
  });

  it.each<[string, string | undefined, RegExp]>([
    ["", undefined, /"source" is empty\. Give a local folder/],
    ["   ", undefined, /empty/],
    ["~/skills/pdf", undefined, /starts with "~", which is not expanded here: give the absolute path/],
    ["~", undefined, /not expanded/],
    ["ftp://example.com/pdf.zip", undefined, /The "ftp:" scheme is not supported/],
    ["javascript:alert(1)", undefined, /"javascript:" scheme is not supported/],
    ["data:application/zip;base64,AAAA", undefined, /"data:" scheme is not supported/],
    ["https://", undefined, /not a valid URL/],
    ["file://server/share/pdf", undefined, /no host/],
    ["file:///tmp/%E0%A4%A", undefined, /invalid %-escape/],
    ["skills\\pdf", undefined, /backslash/],
    ["a\0b", undefined, /NUL/],
    ["https://github.com/acme/skills/tree/v2/pdf", "v3", /"ref" is "v3" but the URL names ref "v2"/],
    ["https://github.com/acme/skills/tree/main/a%2F..%2Fb", undefined, /not a plain path/],
  ])("rejects %j (ref %j)", (source, ref, pattern) => {
    const error = failure(() => auto(source, ref));
    expect(error.code).toBe("invalid_arguments");
    expect(error.message).toMatch(pattern);
  });
});

describe("parseInstallSource (forced methods)", () => {
  const forced = (method: SkillInstallMethod, source: string, ref?: string): SkillInstallSource =>
    parseInstallSource(source, { method, workdir: WORKDIR, ...(ref === undefined ? {} : { ref }) });

  it.each<[string, SkillInstallSource]>([
    ["https://example.com/repo", git("https://example.com/repo")],
    ["https://github.com/acme/skills/tree/v2/pdf", git("https://github.com/acme/skills.git", "v2", "pdf")],
    ["repos/skills", git("/work/project/repos/skills")],
    ["/srv/git/skills.zip", git("/srv/git/skills.zip")],
    ["file:///srv/git/skills", git("/srv/git/skills")],
  ])("git: %j", (source, expected) => {
    expect(forced("git", source)).toEqual(expected);
  });

  it("git takes options.ref", () => {
    expect(forced("git", "https://example.com/repo", "release")).toEqual(git("https://example.com/repo", "release"));
  });

  it.each<[string, string]>([
    ["https://github.com/acme/skills", "https://github.com/acme/skills"],
    ["https://example.com/repo.git", "https://example.com/repo.git"],
  ])("download: %j", (source, url) => {
    expect(forced("download", source)).toEqual({ kind: "download", url });
  });

  it.each(["/tmp/pdf.zip", "pdf", "git@github.com:acme/skills.git", "file:///tmp/x.zip"])("download rejects %j", (source) => {
    const error = failure(() => forced("download", source));
    expect(error.code).toBe("invalid_arguments");
    expect(error.message).toMatch(/method "download" needs an http\(s\) URL/);
  });

  it("git still rejects unsupported schemes and ~", () => {
    expect(failure(() => forced("git", "ftp://x/y")).message).toMatch(/"ftp:" scheme/);
    expect(failure(() => forced("git", "~/repo")).message).toMatch(/not expanded/);
  });
});
