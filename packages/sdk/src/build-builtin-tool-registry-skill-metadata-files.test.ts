import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { toolResultText } from "@agent-tools/core";
import type { SkillToolBundle } from "@agent-tools/skills";
import { afterAll, describe, expect, it } from "vitest";
import { buildBuiltinToolRegistry } from "./build-builtin-tool-registry.js";

const temporary = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "agent-tools-sdk-skill-files-")));
afterAll(() => fs.rmSync(temporary, { recursive: true, force: true }));

/** One skill folder per metadata form: SKILL.md, skill.md, README.md (plain, no frontmatter) and skill.json. */
const FORMS: ReadonlyArray<{ name: string; file: string; text: string; marker: string }> = [
  { name: "upper-md", file: "SKILL.md", text: "---\nname: upper-md\ndescription: Described by SKILL.md.\n---\n\nUPPER-MD BODY\n", marker: "UPPER-MD BODY" },
  { name: "lower-md", file: "skill.md", text: "---\nname: lower-md\ndescription: Described by skill.md.\n---\n\nLOWER-MD BODY\n", marker: "LOWER-MD BODY" },
  { name: "readme-only", file: "README.md", text: "# Readme only\n\nDescribed by a plain README.\n\nREADME BODY\n", marker: "README BODY" },
  {
    name: "json-only",
    file: "skill.json",
    text: `${JSON.stringify({ name: "json-only", description: "Described by skill.json." })}\n`,
    marker: "Described by skill.json.",
  },
];

describe("buildBuiltinToolRegistry: skills described by README.md or skill.json", () => {
  it("points the model at the file that describes each skill (install result, list, prompt section), and that file reads", async () => {
    const workdir = path.join(temporary, "project");
    const dataDir = path.join(temporary, "data");
    for (const form of FORMS) {
      fs.mkdirSync(path.join(workdir, "incoming", form.name), { recursive: true });
      fs.writeFileSync(path.join(workdir, "incoming", form.name, form.file), form.text);
    }
    let bundle: SkillToolBundle | undefined;
    const registry = await buildBuiltinToolRegistry({ workdir, dataDir, memory: false, skills: { onReady: (ready) => (bundle = ready) } });
    try {
      for (const form of FORMS) {
        const installed = await registry.executeToolCall({
          id: `i-${form.name}`,
          name: "SkillsManager",
          arguments: { action: "install", source: `incoming/${form.name}` },
        });
        expect(installed.isError, toolResultText(installed, "")).toBe(false);
        const text = toolResultText(installed, "");
        expect(text).toContain(`read skill://${form.name}/${form.file} before using it`);
        // The skills dir holds the form as given: the file named is the file that exists.
        expect(fs.readdirSync(path.join(dataDir, "skills", form.name))).toEqual([form.file]);
      }

      const list = toolResultText(await registry.executeToolCall({ id: "list", name: "SkillsManager", arguments: { action: "list" } }), "");
      for (const form of FORMS) expect(list).toContain(`-> skill://${form.name}/${form.file}`);
      expect(list).not.toMatch(/skill:\/\/(lower-md|readme-only|json-only)\/SKILL\.md/);

      const prompt = (await bundle?.renderPromptSection()) ?? "";
      for (const form of FORMS.filter((item) => item.file !== "SKILL.md")) expect(prompt).toContain(`skill://${form.name}/${form.file}`);
      expect(prompt).not.toMatch(/skill:\/\/(lower-md|readme-only|json-only)\/SKILL\.md/);

      // Every path the model is pointed at reads, with Read and with SkillsManager read.
      for (const form of FORMS) {
        const read = await registry.executeToolCall({ id: `r-${form.name}`, name: "Read", arguments: { path: `skill://${form.name}/${form.file}` } });
        expect(read.isError, toolResultText(read, "")).toBe(false);
        expect(toolResultText(read, "")).toContain(form.marker);
        const managed = await registry.executeToolCall({
          id: `m-${form.name}`,
          name: "SkillsManager",
          arguments: { action: "read", path: `skill://${form.name}/${form.file}` },
        });
        expect(toolResultText(managed, "")).toContain(form.marker);
      }
    } finally {
      await registry.close();
    }
  }, 60_000);

  it("points at no SKILL.md for a skill folder that has no description file", async () => {
    const workdir = path.join(temporary, "project-bare");
    const dataDir = path.join(temporary, "data-bare");
    fs.mkdirSync(workdir, { recursive: true });
    fs.mkdirSync(path.join(dataDir, "skills", "bare"), { recursive: true });
    fs.writeFileSync(path.join(dataDir, "skills", "bare", "notes.txt"), "no description here\n");
    const registry = await buildBuiltinToolRegistry({ workdir, dataDir, memory: false, skills: {} });
    try {
      const list = toolResultText(await registry.executeToolCall({ id: "list", name: "SkillsManager", arguments: { action: "list" } }), "");
      expect(list).not.toContain("skill://bare/SKILL.md");
      expect(list).toContain("- bare");
      expect(list).toContain("skill://bare/ (no description file)");
    } finally {
      await registry.close();
    }
  }, 60_000);
});
