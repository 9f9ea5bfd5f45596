import { ToolError } from "@agent-tools/core";
import { describe, expect, it } from "vitest";
import { parseSkillReadPath } from "./skill-read-path.js";

describe("parseSkillReadPath", () => {
  it.each<[string, string, string]>([
    ["skill://pdf/SKILL.md", "pdf", "SKILL.md"],
    ["skill://pdf/scripts/run.py", "pdf", "scripts/run.py"],
    ["skill://pdf", "pdf", "SKILL.md"],
    ["skill://pdf/", "pdf", "SKILL.md"],
    ["SKILL://pdf/a.md", "pdf", "a.md"],
    ["skill:pdf/SKILL.md", "pdf", "SKILL.md"],
    ["skill:pdf/references/api.md", "pdf", "references/api.md"],
    ["skill:pdf", "pdf", "SKILL.md"],
    ["pdf/SKILL.md", "pdf", "SKILL.md"],
    ["pdf/docs//a.md", "pdf", "docs/a.md"],
    ["./pdf/./a.md", "pdf", "a.md"],
    ["pdf", "pdf", "SKILL.md"],
    ["  pdf  ", "pdf", "SKILL.md"],
    ["skills-creator", "skills-creator", "SKILL.md"],
    ["pdf/..hidden", "pdf", "..hidden"],
  ])("%j", (input, skillName, relativePath) => {
    expect(parseSkillReadPath(input)).toEqual({ skillName, relativePath });
  });

  it.each<[string, RegExp]>([
    ["", /"path" is empty/],
    ["   ", /"path" is empty/],
    ["/home/me/.agent-tools/skills/pdf/SKILL.md", /is absolute/],
    ["skill:///pdf/SKILL.md", /is absolute/],
    ["skill:/pdf", /is absolute/],
    ["C:\\skills\\pdf", /is absolute/],
    ["~/.agent-tools/skills/pdf/SKILL.md", /home folder/],
    ["pdf/../other/SKILL.md", /holds "\.\."/],
    ["skill://../x", /holds "\.\."/],
    ["..", /holds "\.\."/],
    ["pdf\\SKILL.md", /backslash/],
    ["pdf/a\0b", /NUL/],
    ["skill://", /names no skill/],
    ["skill:", /names no skill/],
    ["./", /names no skill/],
  ])("rejects %j", (input, pattern) => {
    let caught: unknown;
    try {
      parseSkillReadPath(input);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ToolError);
    expect((caught as ToolError).code).toBe("invalid_arguments");
    expect((caught as ToolError).message).toMatch(pattern);
    expect((caught as ToolError).message).toContain("skill://<name>/SKILL.md");
  });
});
