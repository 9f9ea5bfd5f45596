/**
 * Attacks on skills of a registry built on a non-local workspace (a memory
 * tree; an SSH workspace on the test sshd as root), as a model would make
 * them through `executeToolCall`. The skills are the host's data in
 * `<dataDir>/skills`, read on this disk through `skill://`; the workspace's
 * files and commands are the workspace's:
 *
 * - `skill://` with `..`, encoded dots, empty names, a skill folder that is a
 *   symlink, symlinks inside a skill to a host secret or to the workspace's
 *   path on this disk reach nothing outside the skill (Read, List, Glob,
 *   Grep, Image, SkillsManager read);
 * - a workspace path never becomes a skill or a host file: the host's skills
 *   path given as a workspace path is the workspace's (memory tree rooted at
 *   `/`), SkillsManager installs from no path (workspace or host);
 * - `skill://` is never a cwd nor writable there, and Bash refuses the ways
 *   to name a skill script; what the guard cannot see (a path computed at run
 *   time) runs on the remote machine as its account, never on this host.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { toolResultText } from "@agent-tools/core";
import { type Workspace, createMemoryWorkspace } from "@agent-tools/core/workspace";
import { buildBuiltinToolRegistry } from "@agent-tools/sdk";
import { afterAll, describe, expect, it } from "vitest";
import { asRoot, useSshWorkspaceHarness } from "./__fixtures__/ssh-workspace.js";

const SECRET = "HOST-SECRET-7f3a";
const scratch = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "attack-workspace-skills-")));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));
const harness = useSshWorkspaceHarness();

type Registry = Awaited<ReturnType<typeof buildBuiltinToolRegistry>>;
let calls = 0;
async function call(registry: Registry, name: string, args: Record<string, unknown>) {
  const result = await registry.executeToolCall({ id: `${name}-${++calls}`, name, arguments: args });
  return { isError: result.isError === true, code: result.error?.code, text: toolResultText(result, "") };
}

/** A host secret beside the dataDir, and a skill `greeter` in the host's skills folder planted with links out of it. */
function plantSkills(base: string, workspacePathOnHost: string): { dataDir: string; skills: string; secret: string } {
  const dataDir = path.join(base, "data");
  const skills = path.join(dataDir, "skills");
  const secret = path.join(base, "secret.txt");
  fs.mkdirSync(path.join(skills, "greeter", "scripts"), { recursive: true });
  fs.writeFileSync(secret, `${SECRET}\n`);
  fs.writeFileSync(path.join(skills, "greeter", "SKILL.md"), "---\nname: greeter\ndescription: Says hello.\n---\n\n# Greeter\n");
  fs.writeFileSync(path.join(skills, "greeter", "scripts", "hello.sh"), "#!/bin/sh\necho hello\n");
  fs.symlinkSync(secret, path.join(skills, "greeter", "leak.txt"));
  fs.symlinkSync(base, path.join(skills, "greeter", "up"));
  fs.symlinkSync(path.join(workspacePathOnHost, "project.txt"), path.join(skills, "greeter", "workspace-file.txt"));
  fs.symlinkSync(base, path.join(skills, "evil"));
  return { dataDir, skills, secret };
}

/** Every way a model may try to make a skill path reach outside the skill; none may show the secret. */
async function skillPathAttacks(registry: Registry): Promise<string[]> {
  const attempts: Array<[string, Record<string, unknown>]> = [
    ["Read", { path: "skill://greeter/../../secret.txt" }],
    ["Read", { path: "skill://greeter/..%2f..%2fsecret.txt" }],
    ["Read", { path: "skill://../secret.txt" }],
    ["Read", { path: "skill:///secret.txt" }],
    ["Read", { path: "skill://greeter/leak.txt" }],
    ["Read", { path: "skill://greeter/up/secret.txt" }],
    ["Read", { path: "skill://greeter/workspace-file.txt" }],
    ["Read", { path: "skill://evil/secret.txt" }],
    ["Image", { path: "skill://greeter/leak.txt" }],
    ["List", { path: "skill://greeter/up" }],
    ["List", { path: "skill://evil" }],
    ["Glob", { pattern: "**", path: "skill://evil" }],
    ["Glob", { pattern: "../**", path: "skill://greeter" }],
    ["Grep", { pattern: "HOST-SECRET", path: "skill://evil", output_mode: "content" }],
    ["Grep", { pattern: "HOST-SECRET", path: "skill://greeter/leak.txt", output_mode: "content" }],
    ["SkillsManager", { action: "read", path: "skill://greeter/leak.txt" }],
    ["SkillsManager", { action: "read", path: "skill://greeter/../evil/secret.txt" }],
    ["SkillsManager", { action: "read", path: "skill://evil/secret.txt" }],
  ];
  const leaks: string[] = [];
  for (const [name, args] of attempts) {
    const result = await call(registry, name, args);
    if (result.text.includes(SECRET) || result.text.includes("WORKSPACE-ONLY")) leaks.push(`${name} ${JSON.stringify(args)}: ${result.text.slice(0, 200)}`);
  }
  // What a walk of the skill shows is its own files, the links left out or refused.
  const walk = await call(registry, "Grep", { pattern: ".", path: "skill://greeter", output_mode: "content" });
  if (walk.text.includes(SECRET) || walk.text.includes("WORKSPACE-ONLY")) leaks.push(`Grep skill://greeter: ${walk.text.slice(0, 200)}`);
  return leaks;
}

/** Changes and installs that must be refused, and the dataDir unchanged. */
async function changeAttacks(registry: Registry, workspacePath: string, hostDecoy: string): Promise<string[]> {
  const accepted: string[] = [];
  for (const [name, args] of [
    ["Write", { path: "skill://greeter/SKILL.md", content: "pwned" }],
    ["Edit", { path: "skill://greeter/SKILL.md", old_string: "Greeter", new_string: "pwned" }],
    ["Delete", { path: "skill://greeter/scripts/hello.sh" }],
    ["SkillsManager", { action: "install", source: workspacePath }],
    ["SkillsManager", { action: "install", source: hostDecoy }],
    ["SkillsManager", { action: "install", source: `file://${hostDecoy}` }],
    ["SkillsManager", { action: "install", source: hostDecoy, method: "git" }],
    ["SkillsManager", { action: "install", source: "../../.." }],
  ] as const) {
    const result = await call(registry, name, args);
    if (!result.isError) accepted.push(`${name} ${JSON.stringify(args)}: ${result.text.slice(0, 200)}`);
  }
  return accepted;
}

/** A skill folder on this disk at `at` (the decoy an install falling back to the local disk would take). */
function hostDecoy(at: string): void {
  fs.mkdirSync(at, { recursive: true });
  fs.writeFileSync(path.join(at, "SKILL.md"), "---\nname: decoy\ndescription: Decoy on the host.\n---\n\nDecoy.\n");
}

/** Every file below `dir` (links as their target), to tell that nothing changed. */
function tree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (at: string) => {
    for (const entry of fs.readdirSync(at, { withFileTypes: true })) {
      const full = path.join(at, entry.name);
      if (entry.isSymbolicLink()) out[path.relative(dir, full)] = `-> ${fs.readlinkSync(full)}`;
      else if (entry.isDirectory()) walk(full);
      else out[path.relative(dir, full)] = fs.readFileSync(full, "utf8");
    }
  };
  walk(dir);
  return out;
}

describe("attack: skills of a registry on a memory workspace", () => {
  it("skill:// reaches nothing outside the skill, a workspace path is never a host file or a skill, changes and path installs are refused", async () => {
    const base = path.join(scratch, "memory");
    const workspaceOnHost = path.join(base, "ws");
    hostDecoy(path.join(workspaceOnHost, "incoming", "decoy"));
    fs.writeFileSync(path.join(workspaceOnHost, "project.txt"), "WORKSPACE-ONLY on this disk\n");
    const { dataDir, skills } = plantSkills(base, workspaceOnHost);
    // Rooted at "/": the host's skills path is also a path of this workspace, where nothing is.
    const workspace = createMemoryWorkspace({ root: "/", files: { "ws/project.txt": "remote project\n" } });
    const registry = await buildBuiltinToolRegistry({
      workspace,
      workdir: "/ws",
      dataDir,
      memory: false,
      skills: { policy: { allowSkillMutation: true } },
    });
    try {
      expect(await skillPathAttacks(registry)).toEqual([]);
      const before = tree(skills);
      const ownFile = await call(registry, "Read", { path: "skill://greeter/SKILL.md" });
      expect(ownFile.text).toContain("# Greeter");
      // The host's skills path as a workspace path is the workspace's: nothing there.
      const asWorkspacePath = await call(registry, "Read", { path: path.join(skills, "greeter", "SKILL.md") });
      expect(asWorkspacePath.isError).toBe(true);
      expect(asWorkspacePath.text).not.toContain("# Greeter");
      const listed = await call(registry, "List", { path: path.join(skills, "greeter") });
      expect(listed.isError).toBe(true);
      expect(listed.text).not.toContain("SKILL.md");
      expect(await changeAttacks(registry, "incoming/decoy", path.join(workspaceOnHost, "incoming", "decoy"))).toEqual([]);
      expect(tree(skills)).toEqual(before);
    } finally {
      await registry.close();
      await workspace.close();
    }
  });
});

describe.skipIf(!asRoot)("attack: skills of a registry on an SSH workspace", () => {
  /** A registry with skills on the test sshd; the dataDir on this disk beside a host secret, root-only. */
  async function sshScene(name: string) {
    const base = path.join(harness.localTemporary, name);
    const project = path.join(harness.sshd.root, name);
    harness.asUser(
      `mkdir -p '${project}/incoming/decoy' && printf 'WORKSPACE-ONLY\\n' > '${project}/project.txt' && printf -- '---\\nname: decoy\\ndescription: Remote.\\n---\\n' > '${project}/incoming/decoy/SKILL.md'`,
    );
    fs.mkdirSync(base, { recursive: true, mode: 0o700 });
    const planted = plantSkills(base, project);
    const workspace: Workspace = await harness.openWorkspace();
    const registry = await buildBuiltinToolRegistry({
      workspace,
      workdir: project,
      dataDir: planted.dataDir,
      memory: false,
      skills: { policy: { allowSkillMutation: true } },
    });
    harness.cleanups.push(async () => {
      await registry.close();
      await workspace.close();
    });
    return { ...planted, base, project, registry };
  }

  it("skill:// reaches nothing outside the skill (not the host secret, not the workspace's file at its path on this disk); changes and path installs are refused", async () => {
    const { registry, skills, project } = await sshScene("paths");
    expect(await skillPathAttacks(registry)).toEqual([]);
    const before = tree(skills);
    expect((await call(registry, "Read", { path: "skill://greeter/SKILL.md" })).text).toContain("# Greeter");
    expect(await changeAttacks(registry, "incoming/decoy", path.join(project, "incoming", "decoy"))).toEqual([]);
    expect(tree(skills)).toEqual(before);
  });

  it("Bash refuses the ways to name a skill script, and what it cannot see runs on the remote machine as its account, never here", async () => {
    const { registry, skills } = await sshScene("bash");
    const markers = path.join(harness.localTemporary, "bash-markers");
    fs.mkdirSync(markers, { recursive: true });
    fs.chmodSync(markers, 0o777);
    const marker = path.join(markers, "who");
    fs.writeFileSync(path.join(skills, "greeter", "scripts", "who.sh"), `#!/bin/sh\nid -un > '${marker}'\n`, { mode: 0o755 });
    const script = path.join(skills, "greeter", "scripts", "who.sh");
    const seen: string[] = [];
    for (const args of [
      { command: `sh ${script}` },
      { command: script },
      { command: `sh -c 'sh ${script}'` },
      { command: `eval sh ${script}` },
      { command: `env sh ${script}` },
      { command: `S=${skills}; sh $S/greeter/scripts/who.sh` },
      { command: `cd ${skills}/greeter/scripts && ./who.sh` },
      { command: `cp ${script} /tmp/who.sh && sh /tmp/who.sh` },
      { command: `python3 -c "import os; os.system('sh ${script}')"` },
      { command: "sh scripts/who.sh", cwd: "skill://greeter" },
      { command: "sh who.sh", cwd: "skill://greeter/scripts" },
    ]) {
      const result = await call(registry, "Bash", args);
      if (!result.isError) seen.push(`${JSON.stringify(args)}: ${result.text.slice(0, 200)}`);
    }
    expect(seen).toEqual([]);
    expect(fs.existsSync(marker)).toBe(false);
    // A path computed at run time passes the guard (best-effort), but runs on the remote machine, as its account: the
    // host's dataDir is root-only there, so the script cannot even be read; nothing ran here as this process's user.
    const computed = await call(registry, "Bash", { command: `sh "$(printf %s ${script.replace("/skills/", "/ski''lls/")})"; echo exit=$?` });
    expect(computed.text).toMatch(/Permission denied|exit=[1-9]/);
    expect(fs.existsSync(marker)).toBe(false);
    const managed = await call(registry, "ManagedProcess", { action: "start", command: `sh ${script}` });
    expect(managed.isError).toBe(true);
    expect(fs.existsSync(marker)).toBe(false);
  });
});
