/**
 * SkillsManager's list, install result and the prompt name each skill's
 * description file (SKILL.md, skill.md, skill.json or README.md). Attacks:
 * that file is a symlink to a secret outside or to another skill's file, a
 * skill.json names another skill (`../victim`), a skill folder is a symlink
 * to another skill. Every path the model is told must be a regular file in
 * that skill's own folder, and reading what it is told (or the links beside
 * it) never shows the secret.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { toolResultText } from "@agent-tools/core";
import { buildBuiltinToolRegistry } from "@agent-tools/sdk";
import type { SkillToolBundle } from "@agent-tools/skills";
import { afterAll, describe, expect, it } from "vitest";

const temporary = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "agent-tools-skill-pointer-")));
afterAll(() => fs.rmSync(temporary, { recursive: true, force: true }));

const SECRET = "SECRET-OUTSIDE-4411";
const VICTIM = "VICTIM-BODY-9922";

describe("skills: the description file the model is pointed at stays in the skill's folder", () => {
  it("symlinked README.md/skill.md/skill.json, a skill.json naming another skill and a symlinked folder point at nothing outside", async () => {
    const workdir = path.join(temporary, "work");
    const dataDir = path.join(temporary, "data");
    const skills = path.join(dataDir, "skills");
    const secret = path.join(temporary, "secret.txt");
    fs.mkdirSync(workdir, { recursive: true });
    fs.writeFileSync(secret, `---\nname: readme-link\ndescription: ${SECRET}\n---\n${SECRET}\n`);
    const skill = (name: string, files: Record<string, string>, links: Record<string, string> = {}) => {
      fs.mkdirSync(path.join(skills, name), { recursive: true });
      for (const [file, text] of Object.entries(files)) fs.writeFileSync(path.join(skills, name, file), text);
      for (const [file, target] of Object.entries(links)) fs.symlinkSync(target, path.join(skills, name, file));
    };
    skill("victim", { "SKILL.md": `---\nname: victim\ndescription: The victim.\n---\n${VICTIM}\n` });
    skill("readme-link", {}, { "README.md": secret });
    skill("lower-link", { "README.md": "# Lower link\n\nA plain readme.\n" }, { "skill.md": secret });
    skill("json-link", {}, { "skill.json": secret });
    skill("cross-link", {}, { "README.md": path.join(skills, "victim", "SKILL.md") });
    skill("json-other", { "skill.json": JSON.stringify({ name: "../victim", description: "Points elsewhere." }) });
    skill("json-self", { "skill.json": JSON.stringify({ name: "victim", description: "Claims the victim's name." }) });
    fs.symlinkSync(path.join(skills, "victim"), path.join(skills, "folder-link"));
    fs.symlinkSync(temporary, path.join(skills, "outside-link"));

    let bundle: SkillToolBundle | undefined;
    const registry = await buildBuiltinToolRegistry({ workdir, dataDir, memory: false, skills: { onReady: (ready) => (bundle = ready) } });
    try {
      const list = toolResultText(await registry.executeToolCall({ id: "list", name: "SkillsManager", arguments: { action: "list" } }), "");
      const prompt = (await bundle?.renderPromptSection()) ?? "";
      const pointers = [...`${list}\n${prompt}`.matchAll(/skill:\/\/([A-Za-z0-9._-]+)\/([^\s),]+)/g)].map((match) => ({
        name: match[1] ?? "",
        file: match[2] ?? "",
      }));
      expect(pointers.length).toBeGreaterThan(0);
      expect(list).not.toContain(SECRET);
      expect(prompt).not.toContain(SECRET);
      for (const pointer of pointers) {
        // A folder of its own (no link), a regular file (no link), no way up.
        expect(pointer.name, JSON.stringify(pointer)).not.toMatch(/\.\.|\//);
        expect(fs.lstatSync(path.join(skills, pointer.name)).isDirectory(), JSON.stringify(pointer)).toBe(true);
        // An invalid skill without a description file keeps the SKILL.md it should have (absent); never a link.
        const file = fs.lstatSync(path.join(skills, pointer.name, pointer.file), { throwIfNoEntry: false });
        expect(file === undefined ? pointer.file : file.isFile(), JSON.stringify(pointer)).toBe(file === undefined ? "SKILL.md" : true);
      }
      expect(pointers.map((pointer) => pointer.name)).not.toContain("folder-link");
      expect(pointers.map((pointer) => pointer.name)).not.toContain("outside-link");
      // lower-link's skill.md is a link: it is described by its README.md instead.
      expect(list).toContain("skill://lower-link/README.md");
      expect(list).not.toContain("skill://lower-link/skill.md");

      const reads = [
        "skill://readme-link/README.md",
        "skill://lower-link/skill.md",
        "skill://json-link/skill.json",
        "skill://cross-link/README.md",
        "skill://folder-link/SKILL.md",
        "skill://outside-link/secret.txt",
        "skill://json-other/../victim/SKILL.md",
        "skill://../secret.txt",
        ...pointers.map((pointer) => `skill://${pointer.name}/${pointer.file}`),
      ];
      for (const [index, target] of reads.entries()) {
        for (const call of [
          { name: "Read", arguments: { path: target } },
          { name: "SkillsManager", arguments: { action: "read", path: target } },
        ]) {
          const result = await registry.executeToolCall({ id: `read-${index}-${call.name}`, ...call });
          const text = toolResultText(result, "");
          expect(text, `${call.name} ${target}`).not.toContain(SECRET);
          if (!target.startsWith("skill://victim/")) expect(text, `${call.name} ${target}`).not.toContain(VICTIM);
        }
      }
    } finally {
      await registry.close();
    }
  }, 60_000);
});
