import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { type ToolRegistry, createPathPolicy, createToolRegistry, toolResultText } from "@agent-tools/core";
import { ExecaProcessRunner } from "@agent-tools/node";
import { type CommandPolicy, createShellToolBundle } from "@agent-tools/tools-shell";
import { afterEach, describe, expect, it } from "vitest";
import { SKILL_DENIAL_SUFFIX } from "../domain/skill-types.js";
import { SkillAccessController } from "./skill-access-controller.js";

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function tempDir(prefix: string): string {
  const dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), prefix)));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A skills root with `pdf` (a script printing its argument) and `xlsx`, and a workspace. */
function setup() {
  const home = tempDir("skills-home-");
  const root = path.join(home, ".agent-tools", "skills");
  for (const name of ["pdf", "xlsx", "skills-creator"]) {
    mkdirSync(path.join(root, name, "scripts"), { recursive: true });
    writeFileSync(path.join(root, name, "SKILL.md"), `---\nname: ${name}\ndescription: test\n---\n`);
    writeFileSync(path.join(root, name, "scripts", "hello.sh"), `#!/bin/sh\necho "hello from ${name} $1"\n`, { mode: 0o755 });
  }
  const workdir = tempDir("skills-work-");
  return { home, root, workdir };
}

describe("SkillAccessController", () => {
  it("answers enabled / protected and grants per instance", () => {
    const { root, home } = setup();
    const a = new SkillAccessController({ skillsRoot: root, homeDir: home, policy: { allowedSkillNames: ["pdf"], protectedSkillNames: ["pdf"] } });
    const b = new SkillAccessController({ skillsRoot: root, homeDir: home, policy: { allowedSkillNames: ["pdf"] } });
    expect(a.isEnabled("xlsx")).toBe(false);
    expect(a.isEnabled("skills-creator")).toBe(true);
    expect(a.isProtected("pdf")).toBe(true);
    a.grant("xlsx");
    expect(a.isEnabled("xlsx")).toBe(true);
    expect(a.grantedNames()).toEqual(["xlsx"]);
    expect(b.isEnabled("xlsx")).toBe(false);
    expect(new SkillAccessController({ skillsRoot: root, grantedNames: ["x"], policy: { allowedSkillNames: [] } }).isEnabled("x")).toBe(true);
  });

  it("checks SkillsManager actions against the live grants", () => {
    const { root } = setup();
    const access = new SkillAccessController({ skillsRoot: root, policy: { allowedSkillNames: [] } });
    expect(access.checkManagerAction("read", "pdf")).toMatch(/"pdf" is not enabled/);
    access.grant("pdf");
    expect(access.checkManagerAction("read", "pdf")).toBeUndefined();
    expect(access.checkManagerAction("delete", "skills-creator")).toMatch(/built-in skill/);
    expect(new SkillAccessController({ skillsRoot: root, policy: { allowSkillInventory: false } }).checkManagerAction("list")).toMatch(/turned off/);
  });

  it("plugs into core's path policy: skill:// reads for enabled skills, writes only with mutation, grants take effect at once", () => {
    const { root, workdir } = setup();
    const access = new SkillAccessController({ skillsRoot: root, policy: { allowedSkillNames: ["pdf"], allowSkillMutation: true } });
    const paths = createPathPolicy({ workdir, skills: access.pathOptions() });
    const read = paths.resolve("skill://pdf/SKILL.md", { intent: "read" });
    expect(read).toMatchObject({ scope: "skill", skillName: "pdf", access: "read", exists: true, absolutePath: path.join(root, "pdf", "SKILL.md") });
    expect(paths.resolve("skill://pdf/SKILL.md", { intent: "write" }).access).toBe("write");
    expect(() => paths.resolve("skill://xlsx/SKILL.md", { intent: "read" })).toThrow(/"xlsx" is not enabled/);
    expect(() => paths.resolve("skill://skills-creator/SKILL.md", { intent: "edit" })).toThrow(/built-in skill/);
    access.grant("xlsx");
    expect(paths.resolve("skill://xlsx/SKILL.md", { intent: "read" }).access).toBe("read");

    const readOnly = createPathPolicy({ workdir, skills: new SkillAccessController({ skillsRoot: root }).pathOptions() });
    expect(() => readOnly.resolve("skill://pdf/SKILL.md", { intent: "delete" })).toThrow(SKILL_DENIAL_SUFFIX);
  });

  it("sees the canonical spelling of a root behind a symlink", () => {
    const { root, home } = setup();
    const link = path.join(tempDir("skills-link-"), "skills");
    symlinkSync(root, link);
    const policy = new SkillAccessController({ skillsRoot: link, homeDir: home, policy: { allowedSkillNames: ["pdf"] } }).commandPolicy();
    expect(policy({ command: `cat ${root}/pdf/SKILL.md`, cwd: "/" })).toMatch(/with cat/);
    expect(policy({ command: `cat ${link}/pdf/SKILL.md`, cwd: "/" })).toMatch(/with cat/);
    expect(policy({ command: `sh ${root}/xlsx/scripts/hello.sh`, cwd: "/" })).toMatch(/"xlsx" is not enabled/);
    expect(policy({ command: `sh ${root}/pdf/scripts/hello.sh`, cwd: "/" })).toBeUndefined();
  });

  describe("with the real Bash tool", () => {
    async function shell(access: SkillAccessController, workdir: string, dataDir: string) {
      const runner = new ExecaProcessRunner();
      const commandPolicy: CommandPolicy = access.commandPolicy();
      const registry: ToolRegistry = createToolRegistry({
        workdir,
        dataDir,
        runtimeScope: "cron",
        skills: access.pathOptions(),
        bundles: [createShellToolBundle({ commandPolicies: [commandPolicy] })],
        ports: { processRunner: runner },
        loopBreaker: false,
      });
      cleanups.push(async () => {
        await registry.close();
        await runner.close();
      });
      let counter = 0;
      return async (args: Record<string, unknown>) => {
        const result = await registry.executeToolCall({ id: `c${(counter += 1)}`, name: "Bash", arguments: args });
        return { isError: result.isError, text: toolResultText(result, "") };
      };
    }

    it("runs an enabled skill's script, refuses reads, disabled skills and .. from a skill cwd", async () => {
      const { root, home, workdir } = setup();
      const access = new SkillAccessController({ skillsRoot: root, homeDir: home, workdir, policy: { allowedSkillNames: ["pdf"] } });
      const bash = await shell(access, workdir, tempDir("skills-data-"));

      const ran = await bash({ command: `sh ${root}/pdf/scripts/hello.sh world` });
      expect(ran.isError).toBe(false);
      expect(ran.text).toContain("hello from pdf world");

      const fromCwd = await bash({ command: "sh scripts/hello.sh there", cwd: "skill://pdf" });
      expect(fromCwd.text).toContain("hello from pdf there");

      const marker = path.join(workdir, "leak.txt");
      const readRefused = await bash({ command: `cat ${root}/pdf/SKILL.md > ${marker}` });
      expect(readRefused.isError).toBe(true);
      expect(readRefused.text).toContain("Read skill://pdf/SKILL.md");
      expect(() => readFileSync(marker)).toThrow();

      const disabled = await bash({ command: `sh ${root}/xlsx/scripts/hello.sh` });
      expect(disabled.isError).toBe(true);
      expect(disabled.text).toContain('"xlsx" is not enabled');
      expect(disabled.text).not.toContain("hello from xlsx");

      const climbing = await bash({ command: "cat ../xlsx/SKILL.md", cwd: "skill://pdf" });
      expect(climbing.isError).toBe(true);
      expect(climbing.text).toContain('".."');

      access.grant("xlsx");
      expect((await bash({ command: `sh ${root}/xlsx/scripts/hello.sh` })).text).toContain("hello from xlsx");
    });
  });
});
