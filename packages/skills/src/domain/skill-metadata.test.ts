import { describe, expect, it } from "vitest";
import { parseSkillMetadata } from "./skill-metadata.js";

const codes = (result: { issues: readonly { code: string }[] }): string[] => result.issues.map((issue) => issue.code);

describe("parseSkillMetadata: SKILL.md frontmatter", () => {
  it("reads every key and the body", () => {
    const text = "---\nname: pdf\ndescription: Fill PDF forms.\nlicense: MIT\nallowed-tools: [Read, Bash]\nmetadata:\n  version: 2\n---\n\n# PDF\n";
    expect(parseSkillMetadata("SKILL.md", text, "pdf")).toEqual({
      metadata: {
        name: "pdf",
        description: "Fill PDF forms.",
        license: "MIT",
        allowedTools: ["Read", "Bash"],
        metadata: { version: 2 },
        metadataFile: "SKILL.md",
        body: "\n# PDF\n",
      },
      issues: [],
    });
  });

  it("tolerates a byte order mark, CRLF and a frontmatter at the end of the file", () => {
    const result = parseSkillMetadata("skill.md", "\uFEFF---\r\nname: pdf\r\ndescription: Fill forms.\r\n---", "pdf");
    expect(result.issues).toEqual([]);
    expect(result.metadata).toMatchObject({ name: "pdf", description: "Fill forms.", metadataFile: "skill.md", body: "" });
  });

  it.each([
    ["Read, Grep Bash", ["Read", "Grep", "Bash"]],
    ["Read,Grep", ["Read", "Grep"]],
    ["[Read, ' Grep ']", ["Read", "Grep"]],
  ])("reads allowed-tools %j as a list", (value, expected) => {
    const result = parseSkillMetadata("SKILL.md", `---\nname: a\ndescription: d\nallowed-tools: ${value}\n---\n`, "a");
    expect(result.metadata?.allowedTools).toEqual(expected);
  });

  it.each([
    ["no frontmatter", "# Title\n", "frontmatter_invalid", /must start with YAML frontmatter.*name: pdf/],
    ["frontmatter not at the top", "\n---\nname: pdf\n---\n", "frontmatter_invalid", /must start with YAML frontmatter/],
    ["unclosed frontmatter", "---\nname: pdf\ndescription: x\n", "frontmatter_invalid", /never closes/],
    ["bad YAML", "---\nname: [pdf\ndescription: x\n---\n", "frontmatter_invalid", /not valid YAML/],
    ["duplicate keys", "---\nname: pdf\nname: pdf\ndescription: x\n---\n", "frontmatter_invalid", /not valid YAML/],
    ["a list, not a mapping", "---\n- a\n- b\n---\n", "frontmatter_invalid", /must be a YAML mapping/],
    ["a scalar", "---\njust text\n---\n", "frontmatter_invalid", /must be a YAML mapping/],
  ])("rejects %s", (_label, text, code, pattern) => {
    const result = parseSkillMetadata("SKILL.md", text, "pdf");
    expect(result.metadata).toBeUndefined();
    expect(codes(result)).toEqual([code]);
    expect(result.issues[0]?.message).toMatch(pattern);
    expect(result.issues[0]?.path).toBe("SKILL.md");
  });

  it("lists all unexpected keys in one issue, and still reads the rest", () => {
    const result = parseSkillMetadata("SKILL.md", "---\nname: pdf\ndescription: d\nversion: 1\nauthor: me\n---\n", "pdf");
    expect(codes(result)).toEqual(["frontmatter_unexpected_keys"]);
    expect(result.issues[0]?.message).toMatch(
      /^Unexpected key\(s\) in SKILL\.md: version, author\. Allowed keys: name, description, license, allowed-tools, metadata/,
    );
    expect(result.metadata?.name).toBe("pdf");
  });

  it.each([
    ["", ["name_missing", "description_missing"]],
    ["name: ''\ndescription: '  '", ["name_missing", "description_missing"]],
    ["name: pdf", ["description_missing"]],
    ["description: d", ["name_missing"]],
    ["name: 12\ndescription: d", ["name_invalid"]],
    ["name: pdf\ndescription: [a]", ["description_invalid"]],
    ["name: PDF\ndescription: d", ["name_invalid", "name_mismatch"]],
    ["name: other\ndescription: d", ["name_mismatch"]],
    ["name: pdf\ndescription: use <b>bold</b>", ["description_invalid"]],
    ["name: pdf\ndescription: a -> b", ["description_invalid"]],
    ["name: pdf\ndescription: d\nlicense: 3", ["frontmatter_invalid"]],
    ["name: pdf\ndescription: d\nallowed-tools: {a: 1}", ["frontmatter_invalid"]],
    ["name: pdf\ndescription: d\nallowed-tools: [1, 2]", ["frontmatter_invalid"]],
    ["name: pdf\ndescription: d\nmetadata: [a]", ["frontmatter_invalid"]],
    ["name: pdf\ndescription: d\nmetadata: text", ["frontmatter_invalid"]],
    ["name: 'pdf--x'\ndescription: '<x>'\nextra: 1", ["frontmatter_unexpected_keys", "name_invalid", "name_mismatch", "description_invalid"]],
  ])("frontmatter %j gives %j", (yaml, expected) => {
    expect(codes(parseSkillMetadata("SKILL.md", `---\n${yaml}\n---\n`, "pdf"))).toEqual(expected);
  });

  it("allows a description of exactly 1024 characters and rejects 1025", () => {
    expect(codes(parseSkillMetadata("SKILL.md", `---\nname: a\ndescription: ${"d".repeat(1024)}\n---\n`, "a"))).toEqual([]);
    const long = parseSkillMetadata("SKILL.md", `---\nname: a\ndescription: ${"d".repeat(1025)}\n---\n`, "a");
    expect(codes(long)).toEqual(["description_invalid"]);
    expect(long.issues[0]?.message).toMatch(/1025 characters long; the limit is 1024/);
  });

  it("names the folder in a mismatch", () => {
    const result = parseSkillMetadata("SKILL.md", "---\nname: other\ndescription: d\n---\n", "pdf");
    expect(result.issues[0]?.message).toBe(`"name" in SKILL.md is "other" but the folder is named "pdf": they must be equal. Change one of them.`);
  });
});

describe("parseSkillMetadata: skill.json", () => {
  it("reads the same keys", () => {
    const result = parseSkillMetadata("skill.json", JSON.stringify({ name: "pdf", description: "d", "allowed-tools": "Read Bash", metadata: { a: 1 } }), "pdf");
    expect(result).toEqual({
      metadata: { name: "pdf", description: "d", allowedTools: ["Read", "Bash"], metadata: { a: 1 }, metadataFile: "skill.json", body: "" },
      issues: [],
    });
  });

  it.each([
    ["{", "frontmatter_invalid", /not valid JSON/],
    ["[1]", "frontmatter_invalid", /one JSON object/],
    ['{"name":"pdf","description":"d","tags":[]}', "frontmatter_unexpected_keys", /^Unexpected key\(s\) in skill\.json: tags/],
    ['{"name":"pdf"}', "description_missing", /no "description"/],
  ])("rejects %j", (text, code, pattern) => {
    const result = parseSkillMetadata("skill.json", text, "pdf");
    expect(codes(result)).toEqual([code]);
    expect(result.issues[0]?.message).toMatch(pattern);
  });
});

describe("parseSkillMetadata: README.md", () => {
  it("uses a frontmatter when there is one, under the same rules", () => {
    expect(parseSkillMetadata("README.md", "---\nname: pdf\ndescription: d\n---\nbody", "pdf").metadata).toMatchObject({
      name: "pdf",
      description: "d",
      body: "body",
    });
    expect(codes(parseSkillMetadata("README.md", "---\nname: x\n---\n", "pdf"))).toEqual(["name_mismatch", "description_missing"]);
  });

  it("without a frontmatter, takes the folder name and the first plain paragraph", () => {
    const text = [
      "# PDF tools",
      "[![badge](https://x/y.svg)](https://x)",
      "![logo](logo.png)",
      "<p align=center>hi</p>",
      "```",
      "code block paragraph",
      "```",
      "> a quote",
      "- a list item",
      "",
      "Fill and merge PDF forms",
      "from the command line <fast>.",
      "",
      "Second paragraph.",
    ].join("\n");
    const result = parseSkillMetadata("README.md", text, "pdf");
    expect(result.issues).toEqual([]);
    expect(result.metadata).toEqual({
      name: "pdf",
      description: "Fill and merge PDF forms from the command line fast.",
      metadataFile: "README.md",
      body: text,
    });
  });

  it("skips a setext heading", () => {
    expect(parseSkillMetadata("README.md", "Title\n=====\n\nThe text.\n", "pdf").metadata?.description).toBe("The text.");
  });

  it("cuts a long paragraph at a word to at most 1024 characters", () => {
    const description = parseSkillMetadata("README.md", "word ".repeat(400), "pdf").metadata?.description ?? "";
    expect(description.length).toBeLessThanOrEqual(1024);
    expect(description.length).toBeGreaterThan(1000);
    expect(description.endsWith("word…")).toBe(true);
    const unbroken = parseSkillMetadata("README.md", "x".repeat(2000), "pdf").metadata?.description ?? "";
    expect(unbroken.length).toBe(1024);
  });

  it("reports a README with nothing to describe the skill, and a bad folder name", () => {
    const result = parseSkillMetadata("README.md", "# Only a heading\n\n```\ncode\n```\n", "My Skill");
    expect(codes(result)).toEqual(["name_invalid", "description_missing"]);
    expect(result.issues[0]?.message).toMatch(/folder name is used as the skill name.*Try "my-skill"/);
    expect(result.metadata).toBeUndefined();
  });
});
