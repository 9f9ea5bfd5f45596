/**
 * Skills on a non-local workspace (a memory tree, with or without real
 * processes): the skills stay the host's data, read from `<dataDir>/skills`
 * on this disk through SkillsManager and `skill://` (read-only for the file
 * tools), and a command that names a skill script (or runs in a skill's
 * folder) is refused, since the workspace's shell runs where the skill's
 * files are not. SSH: workspace-skills-ssh.test.ts.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { toolResultText } from "@agent-tools/core";
import { type Workspace, createMemoryWorkspace } from "@agent-tools/core/workspace";
import { ExecaProcessRunner } from "@agent-tools/node";
import type { SkillToolBundle } from "@agent-tools/skills";
import { afterAll, describe, expect, it } from "vitest";
import { buildBuiltinToolRegistry } from "./build-builtin-tool-registry.js";

const temporary = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "agent-tools-sdk-workspace-skills-")));
afterAll(() => fs.rmSync(temporary, { recursive: true, force: true }));

type Registry = Awaited<ReturnType<typeof buildBuiltinToolRegistry>>;

let calls = 0;
async function call(registry: Registry, name: string, args: Record<string, unknown>) {
  const result = await registry.executeToolCall({ id: `${name}-${++calls}`, name, arguments: args });
  return { isError: result.isError === true, code: result.error?.code, text: toolResultText(result, "") };
}

/** A fresh dataDir on the host. */
function dataDir(name: string): string {
  const dir = path.join(temporary, name, "data");
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

/** A skill `greeter` with a script that leaves `marker` on this disk when it runs, created through SkillsManager. */
async function createGreeter(registry: Registry, marker: string): Promise<void> {
  const created = await call(registry, "SkillsManager", {
    action: "create",
    name: "greeter",
    description: "Says hello.",
    body: "# Greeter\n\nRun scripts/hello.sh.\n",
    files: [{ path: "scripts/hello.sh", content: `#!/bin/sh\necho hello-from-greeter\ntouch '${marker}'\n` }],
  });
  expect(created.text).toContain("greeter");
  expect(created.isError).toBe(false);
}

/** A memory tree for files with a real process runner for commands (rooted at a local folder), as in the workspace tests. */
function memoryWithProcesses(root: string, files: Record<string, string>): Workspace {
  fs.mkdirSync(root, { recursive: true });
  const memory = createMemoryWorkspace({ root, files });
  const runner = new ExecaProcessRunner();
  return {
    kind: "memory+processes",
    label: `test-remote:${root}`,
    root: memory.root,
    fs: memory.fs,
    processes: runner,
    capabilities: { ...memory.capabilities, processes: true },
    close: async () => {
      await runner.close();
      await memory.close();
    },
  };
}

describe("buildBuiltinToolRegistry({ workspace, skills }) on a non-local workspace", () => {
  it("builds, and SkillsManager, Read, List, Glob and Grep read the skills from the host's <dataDir>/skills", async () => {
    const workspace = createMemoryWorkspace({ root: "/ws", files: { "README.md": "# remote\n" } });
    const data = dataDir("reads");
    let bundle: SkillToolBundle | undefined;
    const registry = await buildBuiltinToolRegistry({ workspace, dataDir: data, memory: false, skills: { onReady: (ready) => (bundle = ready) } });
    try {
      const listed = await call(registry, "SkillsManager", { action: "list" });
      expect(listed.text).toContain("skills-creator");
      const hostFile = fs.readFileSync(path.join(data, "skills", "skills-creator", "SKILL.md"), "utf8");
      const managerRead = await call(registry, "SkillsManager", { action: "read", path: "skill://skills-creator/SKILL.md" });
      expect(managerRead.isError).toBe(false);
      expect(managerRead.text).toContain(hostFile.split("\n")[1] as string);

      const read = await call(registry, "Read", { path: "skill://skills-creator/SKILL.md" });
      expect(read.isError).toBe(false);
      expect(read.text).toContain(hostFile.split("\n")[1] as string);
      const glob = await call(registry, "Glob", { pattern: "**/*.md", path: "skill://skills-creator" });
      expect(glob.isError).toBe(false);
      expect(glob.text).toContain("skill://skills-creator/SKILL.md");
      const list = await call(registry, "List", { path: "skill://skills-creator" });
      expect(list.isError).toBe(false);
      expect(list.text).toContain("SKILL.md");
      const grep = await call(registry, "Grep", { pattern: "name: skills-creator", path: "skill://skills-creator", output_mode: "files" });
      expect(grep.isError).toBe(false);
      expect(grep.text).toContain("skill://skills-creator/SKILL.md");
      // The workspace's own files are still the workspace's.
      expect((await call(registry, "Read", { path: "README.md" })).text).toContain("# remote");

      // The prompt tells the model where its scripts cannot run.
      const prompt = (await bundle?.renderPromptSection()) ?? "";
      expect(prompt).toContain("skills-creator");
      expect(prompt).toContain("memory:/ws");
      expect(prompt).not.toContain("using cwd skill://");
    } finally {
      await registry.close();
      await workspace.close();
    }
  });

  it("keeps skill:// read-only for the file tools (SkillsManager create still writes the host's skills folder)", async () => {
    const workspace = createMemoryWorkspace({ root: "/ws" });
    const data = dataDir("read-only");
    const registry = await buildBuiltinToolRegistry({ workspace, dataDir: data, memory: false, skills: { policy: { allowSkillMutation: true } } });
    try {
      await createGreeter(registry, path.join(temporary, "never"));
      expect(fs.existsSync(path.join(data, "skills", "greeter", "scripts", "hello.sh"))).toBe(true);
      const read = await call(registry, "Read", { path: "skill://greeter/scripts/hello.sh" });
      expect(read.text).toContain("hello-from-greeter");
      for (const [name, args] of [
        ["Write", { path: "skill://greeter/notes.md", content: "x" }],
        ["Edit", { path: "skill://greeter/SKILL.md", old_string: "Greeter", new_string: "Changed" }],
        ["Delete", { path: "skill://greeter/scripts/hello.sh" }],
      ] as const) {
        const refused = await call(registry, name, args);
        expect(refused.isError, name).toBe(true);
        expect(refused.text, name).toMatch(/read-only on memory:\/ws/);
      }
      expect(fs.readFileSync(path.join(data, "skills", "greeter", "SKILL.md"), "utf8")).toContain("Greeter");
      expect(fs.existsSync(path.join(data, "skills", "greeter", "notes.md"))).toBe(false);
    } finally {
      await registry.close();
      await workspace.close();
    }
  });

  it("refuses a command that names a skill script or runs in a skill's folder, and runs nothing of the skill on this host", async () => {
    const root = path.join(temporary, "processes", "root");
    const workspace = memoryWithProcesses(root, { "src/a.ts": "export {};\n" });
    fs.mkdirSync(path.join(root, "src"), { recursive: true });
    const data = dataDir("processes");
    const marker = path.join(temporary, "processes", "ran");
    const registry = await buildBuiltinToolRegistry({ workspace, dataDir: data, memory: false, skills: {} });
    try {
      await createGreeter(registry, marker);
      const script = path.join(data, "skills", "greeter", "scripts", "hello.sh");
      for (const args of [
        { command: `sh ${script}` },
        { command: script },
        { command: `python3 ${script}` },
        { command: `S=${path.join(data, "skills")}; sh $S/greeter/scripts/hello.sh` },
        { command: `cp ${script} /tmp/x.sh` },
        { command: "sh scripts/hello.sh", cwd: "skill://greeter" },
      ]) {
        const refused = await call(registry, "Bash", args);
        expect(refused.isError, JSON.stringify(args)).toBe(true);
        expect(refused.text, JSON.stringify(args)).toMatch(/test-remote:.*where the skill's files are not/s);
      }
      // The skill's folder by its host path is a path outside the workspace there.
      const hostCwd = await call(registry, "Bash", { command: "sh hello.sh", cwd: path.dirname(script) });
      expect(hostCwd.code).toBe("out_of_bounds");
      const managed = await call(registry, "ManagedProcess", { action: "start", command: `sh ${script}` });
      expect(managed.isError).toBe(true);
      expect(managed.text).toMatch(/where the skill's files are not/);
      expect(fs.existsSync(marker)).toBe(false);
      // Other commands still run in the workspace.
      const echo = await call(registry, "Bash", { command: "echo still-runs", cwd: "src" });
      expect(echo.text).toContain("still-runs");
    } finally {
      await registry.close();
      await workspace.close();
    }
  });

  it("refuses an install from a path (the workspace's paths are not this disk's), leaving the host's folder at that path unread", async () => {
    const workspace = createMemoryWorkspace({ root: path.join(temporary, "install", "ws"), files: { "incoming/greeter/SKILL.md": "x" } });
    // A decoy skill on this disk at the workspace's path: an install that fell back to the local disk would take it.
    const decoy = path.join(temporary, "install", "ws", "incoming", "greeter");
    fs.mkdirSync(decoy, { recursive: true });
    fs.writeFileSync(path.join(decoy, "SKILL.md"), "---\nname: greeter\ndescription: Decoy on the host.\n---\n\nDecoy.\n");
    const data = dataDir("install");
    const registry = await buildBuiltinToolRegistry({ workspace, dataDir: data, memory: false, skills: {} });
    try {
      for (const source of ["incoming/greeter", decoy, `file://${decoy}`, `${decoy}.zip`]) {
        const refused = await call(registry, "SkillsManager", { action: "install", source });
        expect(refused.isError, source).toBe(true);
        expect(refused.text, source).toMatch(/cannot install from a path on memory:/);
      }
      const git = await call(registry, "SkillsManager", { action: "install", source: decoy, method: "git" });
      expect(git.text).toMatch(/cannot install from a path on memory:/);
      expect(fs.existsSync(path.join(data, "skills", "greeter"))).toBe(false);
    } finally {
      await registry.close();
      await workspace.close();
    }
  });
});
