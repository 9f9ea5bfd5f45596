/**
 * Attacks on the skill access policy without the sandbox, as a model would
 * make them through `executeToolCall` of a registry from
 * `buildBuiltinToolRegistry`:
 *
 * - with the dataDir inside the workspace, workspace-relative paths (and
 *   symlinks) into the skills root get the same policy as `skill://` paths
 *   in every file tool, and List, Glob and Grep skip the skills root;
 * - `skill://` exposes only the skills root's own folders;
 * - the Bash skill guard (best-effort) refuses the known ways around a
 *   word-by-word check. With the sandbox on, the mounts enforce the same
 *   policy (skills-policy-sandbox.attack.test.ts).
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { HIDDEN_SECRET, call, diff, readAttacks, restore, scenario, scratchFolder, snapshot, text, writeAttacks } from "./skills-policy-scenario.js";

const scratch = scratchFolder();
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

describe("with the dataDir inside the workspace, workspace paths into the skills root get the skill policy", () => {
  it("refuses Read, Write, Edit and Delete where skill:// would, and allows what skill:// allows", async () => {
    const s = await scenario(scratch, { dataDirInWorkspace: true, sandbox: false });
    const before = snapshot(s.dataDir);
    try {
      const denied = async (name: string, args: Record<string, unknown>) => {
        const result = await call(s.registry, name, args);
        expect(result.isError, `${name} ${JSON.stringify(args)}: ${text(result)}`).toBe(true);
        expect(text(result)).not.toContain(HIDDEN_SECRET);
        return text(result);
      };
      expect(await denied("Read", { path: ".agent-tools/skills/hidden/SKILL.md" })).toContain('Skill "hidden" is not enabled');
      await denied("Read", { path: "./.agent-tools/skills/../skills/hidden/SKILL.md" });
      await denied("Read", { path: path.join(s.root, "hidden", "SKILL.md") });
      expect(await denied("Write", { path: ".agent-tools/skills/prot/SKILL.md", content: "pwned" })).toContain("protected");
      await denied("Write", { path: ".agent-tools/skills/evil/SKILL.md", content: "---\nname: evil\ndescription: x\n---\n" });
      await denied("Edit", { path: ".agent-tools/skills/prot/SKILL.md", old_string: "Leave me alone.", new_string: "pwned" });
      await denied("Delete", { path: ".agent-tools/skills/prot/scripts/run.sh" });
      await denied("Delete", { path: ".agent-tools/skills/hidden" });
      expect(await denied("Delete", { path: ".agent-tools/skills" })).toContain("skills folder");
      expect(await denied("Delete", { path: ".agent-tools" })).toContain("holds the skills folder");
      expect(snapshot(s.dataDir)).toEqual(before);

      const read = await call(s.registry, "Read", { path: ".agent-tools/skills/prot/SKILL.md" });
      expect(read.isError).toBe(false);
      expect(text(read)).toContain("Leave me alone.");
      const wrote = await call(s.registry, "Write", { path: ".agent-tools/skills/ok/notes.md", content: "noted\n" });
      expect(wrote.isError, text(wrote)).toBe(false);
      expect(text(wrote)).toContain("skill://ok/notes.md");
      expect(fs.readFileSync(path.join(s.root, "ok", "notes.md"), "utf8")).toBe("noted\n");
    } finally {
      await s.registry.close();
    }
  });

  it("refuses a workspace symlink into a skill that is not enabled or protected", async () => {
    const s = await scenario(scratch, { dataDirInWorkspace: true, sandbox: false });
    try {
      fs.symlinkSync(path.join(s.root, "hidden"), path.join(s.workdir, "hidden-link"));
      fs.symlinkSync(path.join(s.root, "prot"), path.join(s.workdir, "prot-link"));
      const read = await call(s.registry, "Read", { path: "hidden-link/SKILL.md" });
      expect(read.isError).toBe(true);
      expect(text(read)).not.toContain(HIDDEN_SECRET);
      const wrote = await call(s.registry, "Write", { path: "prot-link/SKILL.md", content: "pwned" });
      expect(wrote.isError).toBe(true);
      expect(fs.readFileSync(path.join(s.root, "prot", "SKILL.md"), "utf8")).toContain("Leave me alone.");
    } finally {
      await s.registry.close();
    }
  });

  it.each([["ripgrep", undefined] as const, ["the TypeScript engine", false] as const])(
    "keeps the skills root out of List, Glob and Grep (%s) from the workspace",
    async (_engine, ripgrep) => {
      const s = await scenario(scratch, { dataDirInWorkspace: true, sandbox: false, ripgrep });
      try {
        const listed = await call(s.registry, "List", { path: ".agent-tools", depth: 4 });
        expect(listed.isError).toBe(false);
        expect(text(listed)).toContain("agent-tools.sqlite");
        expect(text(listed)).not.toContain("skills/hidden");
        const globbed = await call(s.registry, "Glob", { pattern: "**/SKILL.md" });
        expect(text(globbed)).not.toContain("hidden");
        const grepped = await call(s.registry, "Grep", { pattern: HIDDEN_SECRET });
        expect(text(grepped)).toContain("No matches");
        const grepData = await call(s.registry, "Grep", { pattern: HIDDEN_SECRET, path: ".agent-tools" });
        expect(text(grepData)).toContain("No matches");
        const grepFiles = await call(s.registry, "Grep", { pattern: "description:|pwned", output_mode: "files" });
        expect(grepFiles.isError).toBe(false);
        expect((grepFiles.details as { engine: string }).engine).toBe(ripgrep === false ? "typescript" : "ripgrep");
        expect(text(grepFiles)).toContain("payload.txt");
        expect(text(grepFiles)).not.toContain("SKILL.md");
        const inSkill = await call(s.registry, "Glob", { pattern: "**", path: ".agent-tools/skills/hidden" });
        expect(inSkill.isError).toBe(true);
        const inRoot = await call(s.registry, "List", { path: ".agent-tools/skills" });
        expect(inRoot.isError).toBe(true);
        const okFiles = await call(s.registry, "Glob", { pattern: "**", path: ".agent-tools/skills/ok" });
        expect(text(okFiles)).toContain("skill://ok/SKILL.md");
      } finally {
        await s.registry.close();
      }
    },
  );
});

describe("skill:// exposes only the skills root's own folders", () => {
  it("refuses a skill folder that is a symlink to a folder elsewhere", async () => {
    const s = await scenario(scratch, { dataDirInWorkspace: false, sandbox: false });
    try {
      const elsewhere = path.join(s.base, "elsewhere");
      fs.mkdirSync(elsewhere);
      fs.writeFileSync(path.join(elsewhere, "README.md"), `# elsewhere\n\n${HIDDEN_SECRET}\n`);
      // The enabled skill "ok" replaced by a link to a folder the model may not read.
      fs.rmSync(path.join(s.root, "ok"), { recursive: true });
      fs.symlinkSync(elsewhere, path.join(s.root, "ok"));
      const direct = await call(s.registry, "Read", { path: path.join(elsewhere, "README.md") });
      expect(direct.isError).toBe(true);
      const read = await call(s.registry, "Read", { path: "skill://ok/README.md" });
      expect(read.isError, text(read)).toBe(true);
      expect(text(read)).toContain("is a symlink");
      expect(text(read)).not.toContain(HIDDEN_SECRET);
      const glob = await call(s.registry, "Glob", { pattern: "**", path: "skill://ok" });
      expect(text(glob)).not.toContain("README.md");
      const viaRoot = await call(s.registry, "Read", { path: path.join(s.root, "ok", "README.md") });
      expect(text(viaRoot)).not.toContain(HIDDEN_SECRET);
      const viaManager = await call(s.registry, "SkillsManager", { action: "read", path: "skill://ok/README.md" });
      expect(viaManager.isError).toBe(true);
      expect(text(viaManager)).not.toContain(HIDDEN_SECRET);
    } finally {
      await s.registry.close();
    }
  });
});

describe("without the sandbox, the Bash guard (best-effort) refuses the known ways around it", () => {
  // What the guard cannot see: a path computed at run time, and the dataDir's files that are not skills. The sandbox covers those.
  const beyondTheGuard = new Set(["base64 of the path", "the dataDir's SQLite file", "the dataDir's logs"]);

  it.each([false, true])("reads nothing of a skill that is not enabled (dataDir inside the workspace: %s)", async (dataDirInWorkspace) => {
    const s = await scenario(scratch, { dataDirInWorkspace, sandbox: false });
    try {
      const leaks: string[] = [];
      for (const attack of readAttacks(s).filter(({ name }) => !beyondTheGuard.has(name))) {
        const result = await call(s.registry, "Bash", { command: attack.command, ...(attack.cwd ? { cwd: attack.cwd } : {}) });
        if (text(result).includes(HIDDEN_SECRET)) leaks.push(attack.name);
        else if (!result.isError) leaks.push(`${attack.name} (ran)`);
      }
      expect(leaks).toEqual([]);
    } finally {
      await s.registry.close();
    }
  });

  it.each([false, true])("changes nothing in a protected skill and adds no skill (dataDir inside the workspace: %s)", async (dataDirInWorkspace) => {
    const s = await scenario(scratch, { dataDirInWorkspace, sandbox: false });
    const before = snapshot(s.root);
    try {
      const changed: string[] = [];
      for (const attack of writeAttacks(s).filter(({ name }) => !beyondTheGuard.has(name))) {
        const result = await call(s.registry, "Bash", { command: attack.command, ...(attack.cwd ? { cwd: attack.cwd } : {}) });
        const after = snapshot(s.root);
        if (JSON.stringify(after) !== JSON.stringify(before)) changed.push(`${attack.name}: ${JSON.stringify(diff(before, after))}`);
        else if (!result.isError) changed.push(`${attack.name} (ran)`);
        restore(s.root, before);
      }
      expect(changed).toEqual([]);
    } finally {
      await s.registry.close();
    }
  });
});
