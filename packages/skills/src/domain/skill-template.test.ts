import { parse } from "yaml";
import { describe, expect, it } from "vitest";
import { parseSkillMetadata } from "./skill-metadata.js";
import { renderSkillTemplate, validateCreateFiles } from "./skill-template.js";
import { SKILL_LIMITS } from "./skill-types.js";

describe("renderSkillTemplate", () => {
  it("renders the default template", () => {
    expect(renderSkillTemplate({ name: "pdf-form-tools", description: "Fill PDF forms." })).toBe(
      [
        "---",
        "name: pdf-form-tools",
        'description: "Fill PDF forms."',
        "---",
        "",
        "# Pdf Form Tools",
        "",
        "Instructions are best written in English, even when the skill serves other languages.",
        "",
        "## Workflow",
        "",
        "1. Describe when to use this skill and what to gather first.",
        "2. List the steps to follow, naming any scripts or reference files in this folder.",
        "3. Say how to check the result before reporting back.",
        "",
      ].join("\n"),
    );
  });

  it("uses the body when given, and the default for a blank body", () => {
    expect(renderSkillTemplate({ name: "a", description: "d", body: "# Mine\n" })).toBe('---\nname: a\ndescription: "d"\n---\n\n# Mine\n');
    expect(renderSkillTemplate({ name: "a", description: "d", body: "  \n" })).toContain("## Workflow");
  });

  it.each([
    'say "hi": now # not a comment',
    "back\\slash and 'single' quotes",
    "line one\nline two\ttab",
    "ünïcödé ✓ emoji 🎉",
    "control \u0001 del \u007f c1 \u0085 \u0090",
    "- starts like a list: [x] {y} &z *w !t |p >q",
    "",
  ])("quotes the description %j so it reads back the same", (description) => {
    const text = renderSkillTemplate({ name: "a", description });
    const frontmatter = text.split("\n---\n")[0]?.slice(4) ?? "";
    expect(parse(frontmatter)).toEqual({ name: "a", description });
  });

  it("renders a SKILL.md that passes the metadata checks", () => {
    const text = renderSkillTemplate({ name: "pdf", description: "Fill PDF forms: text fields and checkboxes." });
    expect(parseSkillMetadata("SKILL.md", text, "pdf").issues).toEqual([]);
  });
});

describe("validateCreateFiles", () => {
  it("accepts good files", () => {
    expect(
      validateCreateFiles([
        { path: "scripts/run.py", content: "#!/usr/bin/env python3\n" },
        { path: "references/SKILL.md", content: "nested is fine" },
        { path: "notes.md", content: "" },
      ]),
    ).toEqual([]);
  });

  it.each([
    ["/abs.txt", /absolute/],
    ["../up.txt", /"\.\."/],
    ["a/../../b", /"\.\."/],
    ["a\\b.txt", /backslash/],
    ["a\0b", /NUL/],
    ["", /empty/],
    ["dir/", /ends with "\/"/],
    ["SKILL.md", /cannot be given in "files"/],
    ["skill.md", /cannot be given/],
    ["Skill.MD", /cannot be given/],
    ["skill.json", /cannot be given/],
    ["README.md", /cannot be given/],
    ["./SKILL.md", /cannot be given/],
  ])("rejects the path %j", (path, pattern) => {
    const issues = validateCreateFiles([{ path, content: "x" }]);
    expect(issues.map((issue) => issue.code)).toEqual(["path_invalid"]);
    expect(issues[0]?.path).toBe(path);
    expect(issues[0]?.message).toMatch(pattern);
  });

  it("rejects duplicates ignoring case and '.' segments", () => {
    const issues = validateCreateFiles([
      { path: "a/B.txt", content: "1" },
      { path: "A/b.txt", content: "2" },
      { path: "./a//b.txt", content: "3" },
      { path: "c.txt", content: "4" },
    ]);
    expect(issues.map((issue) => [issue.code, issue.path])).toEqual([
      ["path_invalid", "A/b.txt"],
      ["path_invalid", "./a//b.txt"],
    ]);
    expect(issues[0]?.message).toMatch(/given twice \(also as a\/B\.txt/);
  });

  it("counts size in UTF-8 bytes, limit included", () => {
    const limit = SKILL_LIMITS.fileMaxBytes;
    expect(validateCreateFiles([{ path: "ok.txt", content: "x".repeat(limit) }])).toEqual([]);
    const over = validateCreateFiles([{ path: "big.txt", content: "x".repeat(limit + 1) }]);
    expect(over.map((issue) => issue.code)).toEqual(["file_too_large"]);
    // 2-byte characters: half the limit in characters is exactly the limit in bytes; one more is over.
    expect(validateCreateFiles([{ path: "e.txt", content: "é".repeat(limit / 2) }])).toEqual([]);
    expect(validateCreateFiles([{ path: "e.txt", content: `${"é".repeat(limit / 2)}x` }]).map((issue) => issue.code)).toEqual(["file_too_large"]);
  });

  it("reports every problem at once", () => {
    const issues = validateCreateFiles([
      { path: "SKILL.md", content: "" },
      { path: "../x", content: "" },
      { path: "big", content: "x".repeat(SKILL_LIMITS.fileMaxBytes + 1) },
    ]);
    expect(issues.map((issue) => issue.code)).toEqual(["path_invalid", "path_invalid", "file_too_large"]);
  });
});
