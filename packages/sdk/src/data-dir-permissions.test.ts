import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { buildBuiltinToolRegistry } from "./build-builtin-tool-registry.js";

const temporary = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "agent-tools-sdk-data-dir-modes-")));
afterAll(() => fs.rmSync(temporary, { recursive: true, force: true }));

const modeOf = (file: string) => (fs.statSync(file).mode & 0o777).toString(8);

/** The modes of `dataDir`'s own entries (what the SDK put there), by name. */
const topLevelModes = (dataDir: string) => Object.fromEntries(fs.readdirSync(dataDir).map((name) => [name, modeOf(path.join(dataDir, name))]));

/** Builds the default registry on `dataDir` and has it write there: a memory (Markdown + the SQLite index), an installed skill and a process log. */
async function useDataDir(workdir: string, dataDir: string): Promise<void> {
  const skill = path.join(workdir, "incoming", "greeter");
  fs.mkdirSync(skill, { recursive: true });
  fs.writeFileSync(path.join(skill, "SKILL.md"), "---\nname: greeter\ndescription: Says hello.\n---\n\n# greeter\n");
  const registry = await buildBuiltinToolRegistry({ workdir, dataDir, skills: {} });
  try {
    const memory = await registry.executeToolCall({
      id: "1",
      name: "MemoryManager",
      arguments: { action: "write", slug: "secret-plan", scope: "project", type: "project", description: "Plan", body: "tenant_alice plan." },
    });
    expect(memory.isError).toBe(false);
    const skillInstall = await registry.executeToolCall({ id: "2", name: "SkillsManager", arguments: { action: "install", source: "incoming/greeter" } });
    expect(skillInstall.isError).toBe(false);
    const started = await registry.executeToolCall({ id: "3", name: "ManagedProcess", arguments: { action: "start", command: "echo tenant_alice" } });
    expect(started.isError).toBe(false);
  } finally {
    await registry.close();
  }
}

/** Runs `action` with the process umask set to `mask` (vitest runs each file in its own forked process). */
async function withUmask(mask: number, action: () => Promise<void>): Promise<void> {
  const before = process.umask(mask);
  try {
    await action();
  } finally {
    process.umask(before);
  }
}

describe("buildBuiltinToolRegistry: what it creates in dataDir is the owner's alone", () => {
  for (const mask of [0o022, 0o000]) {
    it(`umask ${mask.toString(8).padStart(3, "0")}: a missing dataDir is made 0700, its folders 0700 and the SQLite file 0600`, async () => {
      const base = fs.mkdtempSync(path.join(temporary, "missing-"));
      const workdir = path.join(base, "project");
      fs.mkdirSync(workdir);
      const dataDir = path.join(base, "data");
      await withUmask(mask, () => useDataDir(workdir, dataDir));
      expect(modeOf(dataDir)).toBe("700");
      expect(topLevelModes(dataDir)).toMatchObject({ "agent-tools.sqlite": "600", memory: "700", skills: "700", "process-logs": "700" });
      for (const [name, mode] of Object.entries(topLevelModes(dataDir)))
        expect({ name, others: (Number.parseInt(mode, 8) & 0o077).toString(8) }).toEqual({ name, others: "0" });
      for (const folder of ["global", "global/user", "projects"]) expect(modeOf(path.join(dataDir, "memory", folder))).toBe("700");
      const [project] = fs.readdirSync(path.join(dataDir, "memory", "projects"));
      expect(modeOf(path.join(dataDir, "memory", "projects", project as string))).toBe("700");
    });
  }

  it("a dataDir the host made 0755 keeps its mode; what the SDK makes inside is 0700 / 0600", async () => {
    const base = fs.mkdtempSync(path.join(temporary, "host-made-"));
    const workdir = path.join(base, "project");
    fs.mkdirSync(workdir);
    const dataDir = path.join(base, "data");
    fs.mkdirSync(dataDir);
    fs.chmodSync(dataDir, 0o755);
    await withUmask(0o022, () => useDataDir(workdir, dataDir));
    expect(modeOf(dataDir)).toBe("755");
    expect(topLevelModes(dataDir)).toMatchObject({ "agent-tools.sqlite": "600", memory: "700", skills: "700", "process-logs": "700" });
  });
});
