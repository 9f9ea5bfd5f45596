/**
 * SkillsManager end to end through a host-like registry: read and list on a
 * real skills root, the fields each action requires, and the built-in skills.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { SKILL_DENIAL_SUFFIX } from "../domain/skill-types.js";
import { errorCode, freshHarnesses, skillText } from "./__fixtures__/skills-manager-cases.js";
import { writeSkill } from "./__fixtures__/skills-tool-harness.js";
import type { SkillsManagerDetails } from "./skills-manager-output.js";

const fresh = freshHarnesses("skills-manager-read-list-");

describe("SkillsManager read", () => {
  it("reads SKILL.md and other files through every path form, pages by lines and points a missing file at Glob/Read on skill://", async () => {
    const h = fresh();
    const lines = Array.from({ length: 10 }, (_, i) => `line ${i}`).join("\n");
    writeSkill(path.join(h.workdir, "in"), "alpha", { body: "Body marker.\n", files: { "references/guide.md": `${lines}\n` } });
    expect((await h.manage({ action: "install", source: "in/alpha" })).isError).toBe(false);

    for (const form of ["skill://alpha/SKILL.md", "skill:alpha/SKILL.md", "alpha/SKILL.md", "alpha", "skill://alpha", "SKILL://alpha/./SKILL.md"]) {
      const read = await h.manage({ action: "read", path: form });
      expect(read.isError, form).toBe(false);
      expect(read.text, form).toContain("Body marker.");
      expect(read.details, form).toMatchObject({ action: "read", name: "alpha", path: "SKILL.md", offset: 0 });
    }

    const page = await h.manage({ action: "read", path: "skill://alpha/references/guide.md", offset: 2, length: 3 });
    expect(page.isError).toBe(false);
    expect(page.text).toContain("line 2\nline 3\nline 4");
    expect(page.text).not.toContain("line 5");
    expect(page.text).toContain("call read with offset 5");
    expect(page.details).toMatchObject({ path: "references/guide.md", offset: 2, lineCount: 3, nextOffset: 5 });
    const last = await h.manage({ action: "read", path: "alpha/references/guide.md", offset: 8 });
    expect(last.text).toContain("line 9");
    expect((last.details as { nextOffset?: number }).nextOffset).toBeUndefined();

    const missing = await h.manage({ action: "read", path: "skill://alpha/nope.md" });
    expect(missing.isError).toBe(true);
    expect(missing.text).toContain("List the skill's files with Glob on skill://alpha/");
    expect(errorCode(missing)).toBe("not_found");
    // The hint works: Glob on skill://alpha/ lists the skill's files.
    const glob = await h.tool("Glob", { pattern: "**/*.md", path: "skill://alpha/" });
    expect(glob.isError, glob.text).toBe(false);
    expect(glob.text).toContain("references/guide.md");

    const unknown = await h.manage({ action: "read", path: "ghost" });
    expect(unknown.isError).toBe(true);
    expect(unknown.text).toContain('No skill named "ghost"');

    for (const bad of ["/etc/passwd", "alpha/../beta/SKILL.md", "~/x", "alpha\\SKILL.md"]) {
      const refused = await h.manage({ action: "read", path: bad });
      expect(refused.isError, bad).toBe(true);
      expect(errorCode(refused), bad).toBe("invalid_arguments");
    }
  });
});

describe("SkillsManager list", () => {
  it("lists the built-ins marked as such and counts the skills a restrictive policy hides", async () => {
    const h = fresh();
    writeSkill(path.join(h.workdir, "in"), "alpha");
    writeSkill(path.join(h.workdir, "in"), "beta");
    await h.manage({ action: "install", source: "in/alpha" });
    await h.manage({ action: "install", source: "in/beta" });
    const all = await h.manage({ action: "list" });
    expect(all.text).toContain("4 enabled skills:");
    expect(all.text).toMatch(/- skills-creator \(built-in\): /);
    expect(all.text).toMatch(/- skills-installer \(built-in\): /);
    expect(all.text).toContain("- alpha: The alpha skill. -> skill://alpha/SKILL.md");
    const details = all.details as Extract<SkillsManagerDetails, { action: "list"; skills: unknown }>;
    expect(details.hidden).toBe(0);
    expect(details.skills.find((skill) => skill.name === "skills-creator")).toMatchObject({ builtIn: true, protected: true, enabled: true });
    expect(details.skills.find((skill) => skill.name === "alpha")).toMatchObject({ builtIn: false, protected: false, baseDir: path.join(h.rootDir, "alpha") });

    const restricted = fresh({ workdir: h.workdir, rootDir: h.rootDir, policy: { allowedSkillNames: ["alpha"], protectedSkillNames: ["alpha"] } });
    const some = await restricted.manage({ action: "list" });
    expect(some.text).toContain("3 enabled skills:");
    expect(some.text).toContain("- alpha (protected): ");
    expect(some.text).not.toContain("beta");
    expect(some.text).toContain("(1 more installed but not enabled in this session.)");
    expect((some.details as { hidden: number }).hidden).toBe(1);
  });
});

describe("SkillsManager required fields", () => {
  it("names the missing fields of each action before doing anything", async () => {
    const h = fresh();
    const cases: [Record<string, unknown>, string][] = [
      [{ action: "read" }, "read needs path."],
      [{ action: "install" }, "install needs source."],
      [{ action: "create" }, "create needs name, description."],
      [{ action: "create", name: "x" }, "create needs description."],
      [{ action: "validate" }, "validate needs name."],
      [{ action: "package" }, "package needs name."],
      [{ action: "delete" }, "delete needs name."],
      [{ action: "registry_install" }, "registry_install needs slug."],
    ];
    for (const [args, message] of cases) {
      const result = await h.manage(args);
      expect(result.isError, message).toBe(true);
      expect(result.text).toBe(`SkillsManager ${args.action} failed: ${message}`);
      expect(errorCode(result)).toBe("invalid_arguments");
    }
    const unknownAction = await h.manage({ action: "explode" });
    expect(unknownAction.isError).toBe(true);
    // Nothing was opened by refused calls.
    expect(fs.existsSync(h.rootDir)).toBe(false);
  });
});

describe("built-in skills", () => {
  it("exist after the first call and cannot be deleted, replaced or written, even with allowSkillMutation", async () => {
    const h = fresh({ policy: { allowSkillMutation: true } });
    await h.manage({ action: "list" });
    const creator = skillText(h, "skills-creator");
    expect(creator).toContain("name: skills-creator");
    expect(skillText(h, "skills-installer")).toContain("name: skills-installer");

    const deleted = await h.manage({ action: "delete", name: "skills-creator" });
    expect(deleted.isError).toBe(true);
    expect(errorCode(deleted)).toBe("permission_denied");

    writeSkill(path.join(h.workdir, "in"), "skills-creator", { description: "Impostor." });
    for (const conflict of ["overwrite", "backup", "fail"]) {
      const installed = await h.manage({ action: "install", source: "in/skills-creator", conflict });
      expect(installed.isError, conflict).toBe(true);
      expect(installed.text, conflict).not.toContain("Installed skill");
    }
    const created = await h.manage({ action: "create", name: "skills-installer", description: "Impostor.", conflict: "overwrite" });
    expect(created.isError).toBe(true);
    expect(errorCode(created)).toBe("permission_denied");

    const write = await h.tool("Write", { path: "skill://skills-creator/SKILL.md", content: "hacked" });
    expect(write.isError).toBe(true);
    expect(write.text).toContain("built-in skill");
    expect(write.text.trimEnd().endsWith(SKILL_DENIAL_SUFFIX)).toBe(true);
    expect(deleted.text.trimEnd().endsWith(SKILL_DENIAL_SUFFIX)).toBe(true);
    await h.tool("Read", { path: "skill://skills-installer/SKILL.md" });
    const edit = await h.tool("Edit", { path: "skill://skills-installer/SKILL.md", old_string: "name: skills-installer", new_string: "name: hacked" });
    expect(edit.isError).toBe(true);
    const removed = await h.tool("Delete", { path: "skill://skills-creator/SKILL.md" });
    expect(removed.isError).toBe(true);

    expect(skillText(h, "skills-creator")).toBe(creator);
    expect(skillText(h, "skills-installer")).toContain("name: skills-installer");
    expect(fs.existsSync(path.join(h.rootDir, ".backups"))).toBe(false);
    expect(h.changes).toEqual([]);
  });

  it("are written back when a built-in file was changed on disk, by the next session's first call", async () => {
    const h = fresh();
    await h.manage({ action: "list" });
    const original = skillText(h, "skills-creator");
    fs.writeFileSync(path.join(h.rootDir, "skills-creator", "SKILL.md"), "tampered");
    const next = fresh({ workdir: h.workdir, rootDir: h.rootDir });
    await next.manage({ action: "list" });
    expect(skillText(next, "skills-creator")).toBe(original);
  });
});
