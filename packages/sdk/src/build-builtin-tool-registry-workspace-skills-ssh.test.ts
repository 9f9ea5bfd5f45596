/**
 * Skills on an SSH workspace (the real OpenSSH server of
 * @agent-tools/ssh/testing, as root only): SkillsManager, Read and Glob read
 * the skills from the host's <dataDir>/skills, and a command naming a skill
 * script is refused even where the remote machine could run the host's
 * file (the test server runs on this host, so a control run as its account
 * shows what the refusal prevents).
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { toolResultText } from "@agent-tools/core";
import { createSshWorkspace } from "@agent-tools/ssh";
import { type TestSshd, startTestSshd } from "@agent-tools/ssh/testing";
import type { SkillToolBundle } from "@agent-tools/skills";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildBuiltinToolRegistry } from "./build-builtin-tool-registry.js";

const asRoot = process.getuid?.() === 0;
const localTemporary = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "agent-tools-sdk-skills-ssh-")));
let sshd: TestSshd | undefined;

beforeAll(async () => {
  if (asRoot) sshd = await startTestSshd();
}, 60_000);
afterAll(async () => {
  await sshd?.stop();
  fs.rmSync(localTemporary, { recursive: true, force: true });
}, 60_000);

function server(): TestSshd {
  if (sshd === undefined) throw new Error("the test sshd did not start");
  return sshd;
}

type Registry = Awaited<ReturnType<typeof buildBuiltinToolRegistry>>;
let calls = 0;
async function call(registry: Registry, name: string, args: Record<string, unknown>) {
  const result = await registry.executeToolCall({ id: `${name}-${++calls}`, name, arguments: args });
  return { isError: result.isError === true, code: result.error?.code, text: toolResultText(result, "") };
}

/** A registry with skills on a fresh project folder of the SSH account; the dataDir on this disk. */
async function sshRegistry(name: string, onReady?: (bundle: SkillToolBundle) => void) {
  const workdir = path.join(server().root, name);
  fs.mkdirSync(workdir, { recursive: true });
  fs.writeFileSync(path.join(workdir, "README.md"), "# remote project\n");
  execFileSync("chown", ["-R", `${server().uid}`, workdir]);
  const workspace = await createSshWorkspace({ ...server().connectOptions, root: server().root });
  const dataDir = path.join(localTemporary, `data-${name}`);
  const registry = await buildBuiltinToolRegistry({ workspace, workdir, dataDir, memory: false, skills: onReady === undefined ? {} : { onReady } });
  return {
    registry,
    dataDir,
    workdir,
    close: async () => {
      await registry.close();
      await workspace.close();
    },
  };
}

describe.skipIf(!asRoot)("buildBuiltinToolRegistry({ workspace: ssh, skills })", () => {
  it("reads the host's skills through SkillsManager, Read, List and Glob; the workspace's Bash still runs", async () => {
    let bundle: SkillToolBundle | undefined;
    const { registry, dataDir, close } = await sshRegistry("reads", (ready) => (bundle = ready));
    try {
      const listed = await call(registry, "SkillsManager", { action: "list" });
      expect(listed.text).toContain("skills-installer");
      const hostFile = fs.readFileSync(path.join(dataDir, "skills", "skills-installer", "SKILL.md"), "utf8");
      const read = await call(registry, "Read", { path: "skill://skills-installer/SKILL.md" });
      expect(read.isError).toBe(false);
      expect(read.text).toContain(hostFile.split("\n")[1] as string);
      const managerRead = await call(registry, "SkillsManager", { action: "read", path: "skill://skills-installer/SKILL.md" });
      expect(managerRead.text).toContain(hostFile.split("\n")[1] as string);
      const glob = await call(registry, "Glob", { pattern: "**", path: "skill://skills-installer" });
      expect(glob.text).toContain("skill://skills-installer/SKILL.md");
      expect((await call(registry, "List", { path: "skill://skills-installer" })).text).toContain("SKILL.md");
      // The workspace's own files and commands are the remote's.
      expect((await call(registry, "Read", { path: "README.md" })).text).toContain("# remote project");
      const whoami = await call(registry, "Bash", { command: "id -un" });
      expect(whoami.text).toContain(server().username);
      expect(await bundle?.renderPromptSection()).toContain(`Bash runs on ${registry.ports.workspace?.label}`);
    } finally {
      await close();
    }
  });

  it("refuses a skill script (by path, through sh, as cwd, after cd) though the remote machine could run the host's file", async () => {
    const { registry, dataDir, close } = await sshRegistry("scripts");
    // A marker folder the SSH account may write, and the dataDir opened to it: the remote CAN run the host's file here.
    const markers = path.join(localTemporary, "markers");
    fs.mkdirSync(markers, { recursive: true, mode: 0o777 });
    fs.chmodSync(markers, 0o777);
    fs.chmodSync(localTemporary, 0o755);
    const marker = path.join(markers, "ran");
    try {
      const created = await call(registry, "SkillsManager", {
        action: "create",
        name: "greeter",
        description: "Says hello.",
        files: [{ path: "scripts/hello.sh", content: `#!/bin/sh\necho hello-from-greeter\ntouch '${marker}'\n` }],
      });
      expect(created.isError).toBe(false);
      const skills = path.join(dataDir, "skills");
      execFileSync("chmod", ["-R", "o+rX", dataDir]);
      const script = path.join(skills, "greeter", "scripts", "hello.sh");
      for (const args of [
        { command: `sh ${script}` },
        { command: `bash '${script}'` },
        { command: `cd ${path.join(skills, "greeter")} && sh scripts/hello.sh` },
        { command: `D=${skills}/greeter; sh "$D/scripts/hello.sh"` },
        { command: "sh scripts/hello.sh", cwd: "skill://greeter" },
      ]) {
        const refused = await call(registry, "Bash", args);
        expect(refused.isError, JSON.stringify(args)).toBe(true);
        expect(refused.text, JSON.stringify(args)).toContain("where the skill's files are not");
      }
      expect(fs.existsSync(marker)).toBe(false);
      // The control: the SSH account on this machine could have run it.
      execFileSync("runuser", ["-u", server().username, "--", "/bin/sh", script]);
      expect(fs.existsSync(marker)).toBe(true);
    } finally {
      await close();
    }
  });
});
