import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { toolResultText } from "@agent-tools/core";
import { SKILL_DENIAL_SUFFIX, type ManagedSkillsChange, type SkillToolBundle } from "@agent-tools/skills";
import { afterAll, describe, expect, it } from "vitest";
import { buildBuiltinToolRegistry } from "./build-builtin-tool-registry.js";

const temporary = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "agent-tools-sdk-skills-")));
afterAll(() => fs.rmSync(temporary, { recursive: true, force: true }));

function directories() {
  const base = fs.mkdtempSync(path.join(temporary, "case-"));
  fs.mkdirSync(path.join(base, "project"));
  return { workdir: path.join(base, "project"), dataDir: path.join(base, "data") };
}

/** A skill folder in the workspace with a script that prints its argument. */
function writeSkillSource(workdir: string, name: string): void {
  const folder = path.join(workdir, "incoming", name);
  fs.mkdirSync(path.join(folder, "scripts"), { recursive: true });
  fs.writeFileSync(path.join(folder, "SKILL.md"), `---\nname: ${name}\ndescription: Says hello from ${name}.\n---\n\n# ${name}\n\nRun scripts/hello.sh.\n`);
  fs.writeFileSync(path.join(folder, "scripts", "hello.sh"), `#!/bin/sh\necho "hello from ${name}"\n`, { mode: 0o755 });
}

describe("buildBuiltinToolRegistry: skills", () => {
  it("is off by default: no SkillsManager, skill:// paths refused", async () => {
    const { workdir, dataDir } = directories();
    const registry = await buildBuiltinToolRegistry({ workdir, dataDir });
    try {
      expect(registry.metadataByName.SkillsManager).toBeUndefined();
      const read = await registry.executeToolCall({ id: "1", name: "Read", arguments: { path: "skill://skills-creator/SKILL.md" } });
      expect(read.isError).toBe(true);
      expect(toolResultText(read, "")).toContain("skill:// paths are not available");
      expect(fs.existsSync(path.join(dataDir, "skills"))).toBe(false);
    } finally {
      await registry.close();
    }
  });

  it("installs into <dataDir>/skills, enables the skill for Read on skill:// and its script in Bash, and tells the host", async () => {
    const { workdir, dataDir } = directories();
    writeSkillSource(workdir, "greeter");
    const changes: ManagedSkillsChange[] = [];
    let bundle: SkillToolBundle | undefined;
    const registry = await buildBuiltinToolRegistry({
      workdir,
      dataDir,
      skills: { onManagedSkillsChanged: (change) => void changes.push(change), onReady: (ready) => (bundle = ready) },
    });
    try {
      expect(registry.metadataByName.SkillsManager).toEqual({
        groupId: "skill",
        kind: "skills",
        isReadOnly: false,
        displayCategory: "system",
        annotations: { readOnly: false, listedInPlanMode: false },
      });
      const installed = await registry.executeToolCall({ id: "1", name: "SkillsManager", arguments: { action: "install", source: "incoming/greeter" } });
      expect(toolResultText(installed, "")).toContain("Installed skill greeter");
      const root = path.join(dataDir, "skills");
      expect(changes).toEqual([{ action: "installed", name: "greeter", path: path.join(root, "greeter") }]);

      const read = await registry.executeToolCall({ id: "2", name: "Read", arguments: { path: "skill://greeter/SKILL.md" } });
      expect(read.isError).toBe(false);
      expect(toolResultText(read, "")).toContain("Run scripts/hello.sh.");

      const script = path.join(root, "greeter", "scripts", "hello.sh");
      const ran = await registry.executeToolCall({ id: "3", name: "Bash", arguments: { command: `sh ${script}` } });
      expect(toolResultText(ran, "")).toContain("hello from greeter");

      const peek = await registry.executeToolCall({ id: "4", name: "Bash", arguments: { command: `cat ${path.join(root, "greeter", "SKILL.md")}` } });
      expect(peek.isError).toBe(true);
      expect(toolResultText(peek, "")).toContain(SKILL_DENIAL_SUFFIX);

      // The built-ins were seeded, and the prompt section lists them with the new skill.
      const prompt = await bundle?.renderPromptSection();
      expect(prompt).toContain("skills-creator");
      expect(prompt).toContain("greeter");
    } finally {
      await registry.close();
    }
  });

  it("enforces the host's policy in the file tools and SkillsManager, in chat and cron", async () => {
    const { workdir, dataDir } = directories();
    writeSkillSource(workdir, "secret-sauce");
    const setup = await buildBuiltinToolRegistry({ workdir, dataDir, skills: {} });
    expect((await setup.executeToolCall({ id: "1", name: "SkillsManager", arguments: { action: "install", source: "incoming/secret-sauce" } })).isError).toBe(
      false,
    );
    await setup.close();

    for (const runtimeScope of ["chat", "cron"] as const) {
      const registry = await buildBuiltinToolRegistry({ workdir, dataDir, runtimeScope, skills: { policy: { allowedSkillNames: [] } } });
      try {
        expect(registry.tools.map((tool) => tool.name)).toContain("SkillsManager");
        const listed = await registry.executeToolCall({ id: "2", name: "SkillsManager", arguments: { action: "list" } });
        expect(toolResultText(listed, "")).not.toContain("secret-sauce");
        expect(toolResultText(listed, "")).toContain("skills-installer");
        const read = await registry.executeToolCall({ id: "3", name: "Read", arguments: { path: "skill://secret-sauce/SKILL.md" } });
        expect(read.isError).toBe(true);
        expect(toolResultText(read, "")).toContain(SKILL_DENIAL_SUFFIX);
        const write = await registry.executeToolCall({ id: "4", name: "Write", arguments: { path: "skill://skills-creator/SKILL.md", content: "x" } });
        expect(write.isError).toBe(true);
      } finally {
        await registry.close();
      }
    }
  });
});
