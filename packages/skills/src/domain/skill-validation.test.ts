import { describe, expect, it } from "vitest";
import { pickMetadataFile, renderSkillIssues, skillPathProblem, validateSkillFolder } from "./skill-validation.js";
import { SKILL_LIMITS, type SkillFileEntry, type SkillIssueCode } from "./skill-types.js";

const SKILL_TEXT = "---\nname: pdf\ndescription: Fill PDF forms.\n---\n# PDF\n";
const file = (path: string, size = 10, firstLine?: string): SkillFileEntry =>
  firstLine === undefined ? { path, kind: "file", size } : { path, kind: "file", size, firstLine };
const dir = (path: string): SkillFileEntry => ({ path, kind: "directory", size: 0 });
const link = (path: string): SkillFileEntry => ({ path, kind: "symlink", size: 0 });
const skillMd = file("SKILL.md", SKILL_TEXT.length);

describe("pickMetadataFile", () => {
  it.each([
    [["README.md", "skill.json", "skill.md", "SKILL.md"], "SKILL.md"],
    [["README.md", "skill.json", "skill.md"], "skill.md"],
    [["README.md", "skill.json"], "skill.json"],
    [["README.md"], "README.md"],
    [["docs/SKILL.md", "Skill.md", "SKILL.MD"], undefined],
    [[], undefined],
  ])("%j -> %j", (paths, expected) => {
    expect(pickMetadataFile(paths.map((path) => file(path)))).toBe(expected);
  });

  it("ignores a symlink or a directory named SKILL.md", () => {
    expect(pickMetadataFile([link("SKILL.md"), file("README.md")])).toBe("README.md");
    expect(pickMetadataFile([dir("SKILL.md")])).toBeUndefined();
  });
});

interface FolderCase {
  readonly label: string;
  readonly entries: readonly SkillFileEntry[];
  readonly metadataText?: string;
  readonly directoryName?: string;
  readonly codes: readonly SkillIssueCode[];
  readonly paths?: readonly (string | undefined)[];
}

const FOLDERS: readonly FolderCase[] = [
  { label: "a minimal good skill", entries: [skillMd], metadataText: SKILL_TEXT, codes: [] },
  {
    label: "a good skill with scripts, folders and references",
    entries: [
      skillMd,
      dir("scripts"),
      file("scripts/run.py", 100, "#!/usr/bin/env python3"),
      file("scripts/a.sh", 5, "#!/bin/sh"),
      file("scripts/b.bash", 5, "#! /bin/bash"),
      file("references/api.md"),
      file("scripts/helper.js"),
    ],
    metadataText: SKILL_TEXT,
    codes: [],
  },
  {
    label: "a README-only skill",
    entries: [file("README.md")],
    metadataText: "# PDF\n\nFill PDF forms.\n",
    codes: [],
  },
  { label: "no metadata file", entries: [file("notes.md")], metadataText: undefined, codes: ["metadata_missing"], paths: [undefined] },
  { label: "an unreadable metadata file", entries: [skillMd], metadataText: undefined, codes: ["metadata_missing"], paths: ["SKILL.md"] },
  {
    label: "metadata issues",
    entries: [skillMd],
    metadataText: "---\nname: other\nfoo: 1\n---\n",
    codes: ["frontmatter_unexpected_keys", "name_mismatch", "description_missing"],
  },
  {
    label: "no name, a description with angle brackets",
    entries: [skillMd],
    metadataText: "---\ndescription: a <b>\n---\n",
    codes: ["name_missing", "description_invalid"],
  },
  { label: "bad frontmatter", entries: [skillMd], metadataText: "no frontmatter", codes: ["frontmatter_invalid"] },
  { label: "a symlink", entries: [skillMd, link("scripts/tool")], metadataText: SKILL_TEXT, codes: ["symlink"], paths: ["scripts/tool"] },
  {
    label: "forbidden documents at any depth",
    entries: [skillMd, file("README.md"), file("docs/CHANGELOG.md"), file("INSTALLATION_GUIDE.md"), file("a/b/QUICK_REFERENCE.md"), file("docs/readme.md")],
    metadataText: SKILL_TEXT,
    codes: ["forbidden_doc", "forbidden_doc", "forbidden_doc", "forbidden_doc"],
    paths: ["README.md", "docs/CHANGELOG.md", "INSTALLATION_GUIDE.md", "a/b/QUICK_REFERENCE.md"],
  },
  {
    label: "a nested README beside a README metadata file",
    entries: [file("README.md"), file("docs/README.md")],
    metadataText: "Fill PDF forms.",
    codes: ["forbidden_doc"],
    paths: ["docs/README.md"],
  },
  {
    label: "scripts without a shebang",
    entries: [skillMd, file("run.py", 10, "import os"), file("x/run.sh", 10, ""), file("run.bash"), file("ok.py", 3, "#!python"), file("notes.txt", 3, "text")],
    metadataText: SKILL_TEXT,
    codes: ["shebang_missing", "shebang_missing", "shebang_missing"],
    paths: ["run.py", "x/run.sh", "run.bash"],
  },
  {
    label: "a file over the limit",
    entries: [skillMd, file("big.bin", SKILL_LIMITS.fileMaxBytes + 1), file("edge.bin", SKILL_LIMITS.fileMaxBytes)],
    metadataText: SKILL_TEXT,
    codes: ["file_too_large"],
    paths: ["big.bin"],
  },
  {
    label: "a folder over the size limit",
    entries: [skillMd, ...Array.from({ length: 6 }, (_, index) => file(`part${index}.bin`, SKILL_LIMITS.fileMaxBytes))],
    metadataText: SKILL_TEXT,
    codes: ["skill_too_large"],
  },
  {
    label: "too many files (directories do not count)",
    entries: [skillMd, dir("d"), ...Array.from({ length: SKILL_LIMITS.skillMaxFiles }, (_, index) => file(`d/${index}.txt`, 1))],
    metadataText: SKILL_TEXT,
    codes: ["too_many_files"],
  },
  {
    label: "exactly the file limit",
    entries: [skillMd, ...Array.from({ length: SKILL_LIMITS.skillMaxFiles - 1 }, (_, index) => file(`d/${index}.txt`, 1))],
    metadataText: SKILL_TEXT,
    codes: [],
  },
  {
    label: "unsafe paths",
    entries: [skillMd, file("/etc/passwd"), file("../x"), file("a/../../x"), file("a\\b"), file("a\0b"), file("C:/x"), file("")],
    metadataText: SKILL_TEXT,
    codes: ["path_invalid", "path_invalid", "path_invalid", "path_invalid", "path_invalid", "path_invalid", "path_invalid"],
  },
  {
    label: "everything wrong at once",
    entries: [file("README.md"), link("l"), file("CHANGELOG.md"), file("s.sh"), file("../x")],
    metadataText: "---\nname: Bad\n---\n",
    directoryName: "bad",
    codes: ["name_invalid", "name_mismatch", "description_missing", "symlink", "forbidden_doc", "shebang_missing", "path_invalid"],
  },
];

describe("validateSkillFolder", () => {
  it.each(FOLDERS)("$label", (folder) => {
    const result = validateSkillFolder({ directoryName: folder.directoryName ?? "pdf", entries: folder.entries, metadataText: folder.metadataText });
    expect(result.issues.map((issue) => issue.code)).toEqual(folder.codes);
    expect(result.ok).toBe(folder.codes.length === 0);
    if (folder.paths !== undefined) expect(result.issues.map((issue) => issue.path)).toEqual(folder.paths);
    for (const issue of result.issues) expect(issue.message.length).toBeGreaterThan(20);
  });

  it("covers every issue code in the table", () => {
    const covered = new Set(FOLDERS.flatMap((folder) => folder.codes));
    const all: readonly SkillIssueCode[] = [
      "metadata_missing",
      "frontmatter_invalid",
      "frontmatter_unexpected_keys",
      "name_missing",
      "name_invalid",
      "name_mismatch",
      "description_missing",
      "description_invalid",
      "symlink",
      "forbidden_doc",
      "shebang_missing",
      "file_too_large",
      "skill_too_large",
      "too_many_files",
      "path_invalid",
    ];
    expect(all.filter((code) => !covered.has(code))).toEqual([]);
  });

  it("returns the metadata on success and keeps it on failure", () => {
    const good = validateSkillFolder({ directoryName: "pdf", entries: [skillMd], metadataText: SKILL_TEXT });
    expect(good).toEqual({ ok: true, issues: [], metadata: { name: "pdf", description: "Fill PDF forms.", metadataFile: "SKILL.md", body: "# PDF\n" } });
    const bad = validateSkillFolder({ directoryName: "pdf", entries: [skillMd, link("x")], metadataText: SKILL_TEXT });
    expect(bad.ok).toBe(false);
    expect(bad.metadata?.name).toBe("pdf");
  });
});

describe("skillPathProblem", () => {
  it.each(["a", "a/b.txt", "a..b", ".hidden/x", "..a"])("accepts %j", (path) => expect(skillPathProblem(path)).toBeUndefined());
  it.each([
    ["/abs", /absolute/],
    ["C:/x", /absolute/],
    ["a/../b", /"\.\."/],
    ["..", /"\.\."/],
    ["a\\b", /backslash/],
    ["a\0", /NUL/],
    ["", /empty/],
  ])("rejects %j", (path, pattern) => expect(skillPathProblem(path)).toMatch(pattern));
});

describe("renderSkillIssues", () => {
  it("lists every issue and says what to do next", () => {
    const text = renderSkillIssues("pdf", [
      { code: "symlink", path: "l", message: "l is a symbolic link." },
      { code: "forbidden_doc", path: "README.md", message: "README.md is not allowed." },
    ]);
    expect(text).toBe(
      [
        'Skill "pdf" has 2 problems:',
        "- [symlink] l is a symbolic link.",
        "- [forbidden_doc] README.md is not allowed.",
        'Fix every problem above (edit the files under skill://pdf/ or the source), then run SkillsManager action "validate" with name "pdf" again.',
      ].join("\n"),
    );
  });

  it("reads a single problem and a pass", () => {
    expect(renderSkillIssues("a", [{ code: "metadata_missing", message: "m" }])).toMatch(/^Skill "a" has 1 problem:\n- \[metadata_missing\] m\n/);
    expect(renderSkillIssues("a", [])).toBe('Skill "a" is valid.');
  });
});
