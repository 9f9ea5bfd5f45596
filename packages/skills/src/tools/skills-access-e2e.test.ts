/**
 * The skill access policy end to end: one host-like registry per session
 * (fs, shell with the skill guard, skills) over a shared skills root, the
 * model's calls going through SkillsManager, Read/Write/Edit/Delete on
 * skill:// and the real Bash tool.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SKILL_DENIAL_SUFFIX } from "../domain/skill-types.js";
import { sampleItems } from "../ports/__fixtures__/skill-registry-items.js";
import { LocalSkillRegistry } from "../ports/local-skill-registry.js";
import { HttpSkillRegistry } from "../runtime/http-skill-registry.js";
import { type SkillRegistryServer, startSkillRegistryServer } from "../testing/skill-registry-server.js";
import { type SkillsHarness, caseDirs, openSkillsHarness, tempParent, writeSkill } from "./__fixtures__/skills-tool-harness.js";
import type { SkillsManagerDetails } from "./skills-manager-output.js";

const parent = tempParent("skills-access-e2e-");
const open: SkillsHarness[] = [];
let server: SkillRegistryServer;
beforeAll(async () => {
  server = await startSkillRegistryServer(new LocalSkillRegistry(sampleItems()));
});
afterAll(async () => {
  await Promise.all(open.map((harness) => harness.close()));
  await server.close();
  fs.rmSync(parent, { recursive: true, force: true });
});

function session(dirs: { workdir: string; rootDir: string }, policy?: Parameters<typeof openSkillsHarness>[0]["policy"]): SkillsHarness {
  const harness = openSkillsHarness({
    ...dirs,
    ...(policy === undefined ? {} : { policy }),
    registry: new HttpSkillRegistry({ baseUrl: server.url }),
  });
  open.push(harness);
  return harness;
}

/** A skills root holding alpha and beta (each with scripts/run.sh printing "<name> ran"), installed by an unrestricted session. */
async function library(): Promise<{ workdir: string; rootDir: string }> {
  const dirs = caseDirs(parent);
  writeSkill(path.join(dirs.workdir, "in"), "alpha", { script: "alpha ran" });
  writeSkill(path.join(dirs.workdir, "in"), "beta", { script: "beta ran" });
  const setup = openSkillsHarness(dirs);
  for (const name of ["alpha", "beta"]) expect((await setup.manage({ action: "install", source: `in/${name}` })).isError).toBe(false);
  await setup.close();
  return dirs;
}

function expectDenied(result: { isError: boolean; text: string }, what: string): void {
  expect(result.isError, what).toBe(true);
  expect(result.text.trimEnd().endsWith(SKILL_DENIAL_SUFFIX), `${what}: ${result.text}`).toBe(true);
}

function errorCode(result: { details: unknown }): string | undefined {
  return (result.details as { error?: { code: string } }).error?.code;
}

describe("allowedSkillNames", () => {
  it("hides other skills from list and refuses read, Read on skill:// and running their scripts in Bash; the enabled skill works", async () => {
    const dirs = await library();
    const h = session(dirs, { allowedSkillNames: ["alpha"] });

    const listed = await h.manage({ action: "list" });
    expect(listed.text).toContain("- alpha:");
    expect(listed.text).not.toContain("beta");
    expect((listed.details as { hidden: number }).hidden).toBe(1);

    const read = await h.manage({ action: "read", path: "skill://beta/SKILL.md" });
    expectDenied(read, "read beta");
    expect(errorCode(read)).toBe("permission_denied");
    expect(read.text).toContain('Skill "beta" is not enabled');
    for (const action of ["validate", "package"]) expectDenied(await h.manage({ action, name: "beta" }), `${action} beta`);
    expectDenied(await h.tool("Read", { path: "skill://beta/SKILL.md" }), "Read skill://beta");
    expectDenied(await h.tool("Read", { path: "skill://beta/scripts/run.sh" }), "Read beta script");
    const glob = await h.tool("Glob", { pattern: "**/*", path: "skill://beta/" });
    expect(glob.isError).toBe(true);
    expect(glob.text).not.toContain("run.sh");

    const betaScript = path.join(dirs.rootDir, "beta", "scripts", "run.sh");
    const ranBeta = await h.tool("Bash", { command: `sh ${betaScript}` });
    expectDenied(ranBeta, "run beta's script");
    expect(ranBeta.text).not.toContain("beta ran");
    expectDenied(await h.tool("Bash", { command: betaScript }), "exec beta's script");

    const ranAlpha = await h.tool("Bash", { command: `sh ${path.join(dirs.rootDir, "alpha", "scripts", "run.sh")}` });
    expect(ranAlpha.isError, ranAlpha.text).toBe(false);
    expect(ranAlpha.text).toContain("alpha ran");
    const readAlpha = await h.tool("Read", { path: "skill://alpha/SKILL.md" });
    expect(readAlpha.isError).toBe(false);
    expect(readAlpha.text).toContain("name: alpha");
    expect((await h.manage({ action: "read", path: "alpha" })).isError).toBe(false);

    // The built-ins stay enabled under any allow list.
    expect(listed.text).toContain("skills-creator (built-in)");
    expect((await h.tool("Read", { path: "skill://skills-installer/SKILL.md" })).isError).toBe(false);

    const prompt = await h.skills.renderPromptSection();
    expect(prompt).toContain("alpha");
    expect(prompt).toContain("skills-creator");
    expect(prompt).not.toContain("beta");
  });

  it("an empty allow list enables only the built-ins; allowedSkillBaseDirs enables by folder", async () => {
    const dirs = await library();
    const none = session(dirs, { allowedSkillNames: [] });
    const listed = await none.manage({ action: "list" });
    expect(listed.text).toContain("2 enabled skills:");
    expect((listed.details as { hidden: number }).hidden).toBe(2);
    const byDir = session(dirs, { allowedSkillBaseDirs: [path.join(dirs.rootDir, "beta")] });
    const names = ((await byDir.manage({ action: "list" })).details as Extract<SkillsManagerDetails, { action: "list"; skills: unknown }>).skills.map(
      (skill) => skill.name,
    );
    expect(names.sort()).toEqual(["beta", "skills-creator", "skills-installer"]);
    expectDenied(await byDir.tool("Read", { path: "skill://alpha/SKILL.md" }), "Read alpha by dir");
  });
});

describe("allowSkillInventory and allowSkillManagement", () => {
  it("allowSkillInventory false refuses list and registry_search, not read", async () => {
    const dirs = await library();
    const h = session(dirs, { allowSkillInventory: false });
    expectDenied(await h.manage({ action: "list" }), "list");
    const search = await h.manage({ action: "registry_search", query: "pdf" });
    expectDenied(search, "registry_search");
    expect(search.text).toContain("turned off");
    expect((await h.manage({ action: "read", path: "alpha" })).isError).toBe(false);
  });

  it("allowSkillManagement false refuses install, create, validate, package, delete and registry_install and changes nothing", async () => {
    const dirs = await library();
    writeSkill(path.join(dirs.workdir, "in"), "gamma");
    const h = session(dirs, { allowSkillManagement: false });
    const before = fs.readdirSync(dirs.rootDir).sort();
    const calls: Record<string, unknown>[] = [
      { action: "install", source: "in/gamma" },
      { action: "create", name: "delta", description: "New." },
      { action: "validate", name: "alpha" },
      { action: "package", name: "alpha" },
      { action: "delete", name: "alpha" },
      { action: "registry_install", slug: "docx" },
    ];
    for (const args of calls) {
      const result = await h.manage(args);
      expectDenied(result, String(args.action));
      expect(errorCode(result)).toBe("permission_denied");
    }
    expect(fs.readdirSync(dirs.rootDir).sort()).toEqual(before);
    expect(h.changes).toEqual([]);
    expect((await h.manage({ action: "list" })).isError).toBe(false);
    expect((await h.manage({ action: "registry_search", query: "pdf" })).isError).toBe(false);
  });
});

describe("allowSkillMutation and protected skills", () => {
  it("refuses Write, Edit and Delete on skill:// by default", async () => {
    const dirs = await library();
    const h = session(dirs);
    const skillMd = path.join(dirs.rootDir, "alpha", "SKILL.md");
    const before = fs.readFileSync(skillMd, "utf8");
    await h.tool("Read", { path: "skill://alpha/SKILL.md" });
    expectDenied(await h.tool("Write", { path: "skill://alpha/SKILL.md", content: "changed" }), "Write");
    expectDenied(await h.tool("Write", { path: "skill://alpha/new.md", content: "new" }), "Write new file");
    expectDenied(await h.tool("Edit", { path: "skill://alpha/SKILL.md", old_string: "Use it well.", new_string: "Changed." }), "Edit");
    expectDenied(await h.tool("Delete", { path: "skill://alpha/scripts/run.sh" }), "Delete");
    expect(fs.readFileSync(skillMd, "utf8")).toBe(before);
    expect(fs.existsSync(path.join(dirs.rootDir, "alpha", "new.md"))).toBe(false);
    expect(fs.existsSync(path.join(dirs.rootDir, "alpha", "scripts", "run.sh"))).toBe(true);
  });

  it("allows them with allowSkillMutation for a normal skill, never for a protected one", async () => {
    const dirs = await library();
    const h = session(dirs, { allowSkillMutation: true, protectedSkillNames: ["beta"] });
    const alphaMd = path.join(dirs.rootDir, "alpha", "SKILL.md");
    await h.tool("Read", { path: "skill://alpha/SKILL.md" });
    const edited = await h.tool("Edit", { path: "skill://alpha/SKILL.md", old_string: "Use it well.", new_string: "Edited by the model." });
    expect(edited.isError, edited.text).toBe(false);
    expect(fs.readFileSync(alphaMd, "utf8")).toContain("Edited by the model.");
    const written = await h.tool("Write", { path: "skill://alpha/references/notes.md", content: "notes\n" });
    expect(written.isError, written.text).toBe(false);
    expect(fs.readFileSync(path.join(dirs.rootDir, "alpha", "references", "notes.md"), "utf8")).toBe("notes\n");
    const deleted = await h.tool("Delete", { path: "skill://alpha/scripts/run.sh" });
    expect(deleted.isError, deleted.text).toBe(false);
    expect(fs.existsSync(path.join(dirs.rootDir, "alpha", "scripts", "run.sh"))).toBe(false);

    const betaMd = path.join(dirs.rootDir, "beta", "SKILL.md");
    const betaBefore = fs.readFileSync(betaMd, "utf8");
    await h.tool("Read", { path: "skill://beta/SKILL.md" });
    const protectedWrite = await h.tool("Write", { path: "skill://beta/SKILL.md", content: "changed" });
    expectDenied(protectedWrite, "Write protected");
    expect(protectedWrite.text).toContain("protected");
    expectDenied(await h.tool("Edit", { path: "skill://beta/SKILL.md", old_string: "Use it well.", new_string: "x" }), "Edit protected");
    expectDenied(await h.tool("Delete", { path: "skill://beta" }), "Delete protected folder");
    expect(fs.readFileSync(betaMd, "utf8")).toBe(betaBefore);

    // SkillsManager refuses to replace or delete it too, but reads, validates and packages it.
    writeSkill(path.join(dirs.workdir, "in2"), "beta", { description: "Replacement." });
    expectDenied(await h.manage({ action: "install", source: "in2/beta", conflict: "overwrite" }), "install over protected");
    expectDenied(await h.manage({ action: "create", name: "beta", description: "x", conflict: "overwrite" }), "create over protected");
    expectDenied(await h.manage({ action: "delete", name: "beta" }), "delete protected");
    expect(fs.readFileSync(betaMd, "utf8")).toBe(betaBefore);
    expect((await h.manage({ action: "read", path: "beta" })).isError).toBe(false);
    expect((await h.manage({ action: "validate", name: "beta" })).isError).toBe(false);
    expect((await h.manage({ action: "package", name: "beta" })).isError).toBe(false);
    expect((await h.manage({ action: "list" })).text).toContain("- beta (protected):");
  });

  it("protectedSkillBaseDirs protects by folder", async () => {
    const dirs = await library();
    const h = session(dirs, { allowSkillMutation: true, protectedSkillBaseDirs: [path.join(dirs.rootDir, "alpha")] });
    expectDenied(await h.tool("Write", { path: "skill://alpha/x.md", content: "x" }), "Write under protected dir");
    expectDenied(await h.manage({ action: "delete", name: "alpha" }), "delete under protected dir");
    expect((await h.tool("Write", { path: "skill://beta/x.md", content: "x" })).isError).toBe(false);
  });
});

describe("skills installed during the session", () => {
  it("are enabled at once under a restrictive allow list, tell the host, and show in the prompt section", async () => {
    const dirs = await library();
    writeSkill(path.join(dirs.workdir, "in"), "gamma", { script: "gamma ran" });
    const h = session(dirs, { allowedSkillNames: [] });
    expect(await h.skills.renderPromptSection()).not.toContain("gamma");

    const installed = await h.manage({ action: "install", source: "in/gamma" });
    expect(installed.isError, installed.text).toBe(false);
    expect(h.changes).toEqual([{ action: "installed", name: "gamma", path: path.join(dirs.rootDir, "gamma") }]);
    expect((await h.manage({ action: "read", path: "gamma" })).isError).toBe(false);
    const read = await h.tool("Read", { path: "skill://gamma/SKILL.md" });
    expect(read.isError, read.text).toBe(false);
    const ran = await h.tool("Bash", { command: `sh ${path.join(dirs.rootDir, "gamma", "scripts", "run.sh")}` });
    expect(ran.text).toContain("gamma ran");
    expect((await h.manage({ action: "list" })).text).toContain("- gamma:");

    const created = await h.manage({ action: "create", name: "delta", description: "Made in the session." });
    expect(created.isError).toBe(false);
    expect(h.changes.at(-1)).toEqual({ action: "created", name: "delta", path: path.join(dirs.rootDir, "delta") });
    const registryInstalled = await h.manage({ action: "registry_install", slug: "docx" });
    expect(registryInstalled.isError, registryInstalled.text).toBe(false);
    expect(h.changes.at(-1)).toEqual({ action: "installed", name: "docx", path: path.join(dirs.rootDir, "docx") });
    expect((await h.tool("Read", { path: "skill://docx/SKILL.md" })).isError).toBe(false);

    const prompt = await h.skills.renderPromptSection();
    for (const name of ["gamma", "delta", "docx", "skills-creator", "skills-installer"]) expect(prompt).toContain(name);
    expect(prompt).not.toContain("alpha");
    expect((await h.skills.enabledSkills()).map((skill) => skill.name).sort()).toEqual(["delta", "docx", "gamma", "skills-creator", "skills-installer"]);

    const deleted = await h.manage({ action: "delete", name: "delta" });
    expect(deleted.isError).toBe(false);
    expect(h.changes.at(-1)).toEqual({ action: "deleted", name: "delta", path: path.join(dirs.rootDir, "delta") });
    expect(h.changes).toHaveLength(4);

    // Grants belong to the session: a new one under the same policy does not see gamma.
    const next = session(dirs, { allowedSkillNames: [] });
    expect((await next.manage({ action: "list" })).text).not.toContain("gamma");
    expectDenied(await next.tool("Read", { path: "skill://gamma/SKILL.md" }), "gamma in the next session");
  });

  it("a refused or failed install grants nothing and tells the host nothing; a hidden skill is never replaced", async () => {
    const dirs = await library();
    const h = session(dirs, { allowedSkillNames: [] });
    const betaMd = path.join(dirs.rootDir, "beta", "SKILL.md");
    const betaBefore = fs.readFileSync(betaMd, "utf8");
    writeSkill(path.join(dirs.workdir, "in2"), "beta", { description: "New beta." });
    for (const conflict of ["fail", "backup", "overwrite"]) {
      const refused = await h.manage({ action: "install", source: "in2/beta", conflict });
      expectDenied(refused, `install over hidden beta (${conflict})`);
      expect(refused.text).toContain('Skill "beta" is installed but not enabled');
    }
    expect(fs.readFileSync(betaMd, "utf8")).toBe(betaBefore);
    expect(fs.existsSync(path.join(dirs.rootDir, ".backups"))).toBe(false);

    writeSkill(path.join(dirs.workdir, "in2"), "broken", { files: { "CHANGELOG.md": "no\n" } });
    expect((await h.manage({ action: "install", source: "in2/broken" })).isError).toBe(true);
    expect(h.changes).toEqual([]);
    expect(h.skills.access.grantedNames()).toEqual([]);
    expectDenied(await h.tool("Read", { path: "skill://beta/SKILL.md" }), "beta still hidden");
  });
});

describe("the Bash guard", () => {
  it("refuses looking at the skills folder directly, with the suffix, and lets other commands run", async () => {
    const dirs = await library();
    const h = session(dirs);
    const root = dirs.rootDir;
    const commands = [
      `cat ${root}/alpha/SKILL.md`,
      `ls ${root}`,
      `cd ${root}`,
      `cd ${root} && ls`,
      "find / -name SKILL.md",
      `cat ${path.join(root, "beta", "scripts", "run.sh")}`,
    ];
    for (const command of commands) {
      const result = await h.tool("Bash", { command });
      expectDenied(result, command);
      expect(result.text, command).not.toContain("name: alpha");
    }
    const fine = await h.tool("Bash", { command: "echo outside && ls in" });
    expect(fine.isError, fine.text).toBe(false);
    expect(fine.text).toContain("outside");
  });
});
