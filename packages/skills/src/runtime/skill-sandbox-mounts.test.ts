import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { SkillAccessController } from "./skill-access-controller.js";
import { skillSandboxMounts } from "./skill-sandbox-mounts.js";

const temporary = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "skill-sandbox-mounts-")));
afterAll(() => fs.rmSync(temporary, { recursive: true, force: true }));

/** A skills root holding the given folders, `.staging` and `.lock`, and a skill folder that is a symlink. */
function root(names: readonly string[]): string {
  const folder = fs.mkdtempSync(path.join(temporary, "root-"));
  for (const name of [...names, ".staging"]) fs.mkdirSync(path.join(folder, name));
  fs.writeFileSync(path.join(folder, ".lock"), "{}");
  fs.symlinkSync(temporary, path.join(folder, "linked"));
  return folder;
}

describe("skillSandboxMounts", () => {
  it("masks the root and binds back the enabled skills: writable where skill:// writes are allowed, read-only otherwise", () => {
    const skillsRoot = root(["ok", "prot", "hidden", "skills-creator"]);
    const access = new SkillAccessController({
      skillsRoot,
      policy: { allowedSkillNames: ["ok", "prot", "linked"], protectedSkillNames: ["prot"], allowSkillMutation: true },
    });
    const mounts = skillSandboxMounts(access.state());
    expect(mounts.maskedDirectories).toEqual([skillsRoot]);
    expect(mounts.writableRoots).toEqual([path.join(skillsRoot, "ok")]);
    expect([...mounts.readOnlyRoots].sort()).toEqual([path.join(skillsRoot, "prot"), path.join(skillsRoot, "skills-creator")]);
  });

  it("binds every skill read-only without allowSkillMutation, and counts grants made later", () => {
    const skillsRoot = root(["ok", "new"]);
    const access = new SkillAccessController({ skillsRoot, policy: { allowedSkillNames: ["ok"] } });
    expect(access.sandboxMounts()).toEqual({ maskedDirectories: [skillsRoot], readOnlyRoots: [path.join(skillsRoot, "ok")], writableRoots: [] });
    access.grant("new");
    expect([...access.sandboxMounts().readOnlyRoots].sort()).toEqual([path.join(skillsRoot, "new"), path.join(skillsRoot, "ok")]);
  });

  it("works on the canonical root when the configured one is a symlink, and gives nothing when the root does not exist", () => {
    const skillsRoot = root(["ok"]);
    const alias = path.join(temporary, `alias-${path.basename(skillsRoot)}`);
    fs.symlinkSync(skillsRoot, alias);
    const mounts = new SkillAccessController({ skillsRoot: alias }).sandboxMounts();
    expect(mounts.maskedDirectories).toEqual([skillsRoot]);
    expect(mounts.readOnlyRoots).toContain(path.join(skillsRoot, "ok"));
    expect(new SkillAccessController({ skillsRoot: path.join(temporary, "missing") }).sandboxMounts()).toEqual({
      maskedDirectories: [],
      readOnlyRoots: [],
      writableRoots: [],
    });
  });
});
