import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ToolError } from "../errors.js";
import { type PathIntent, type SkillAccessDecision, createPathPolicy } from "./path-policy.js";

const base = realpathSync(mkdtempSync(path.join(os.tmpdir(), "skill-paths-")));
afterAll(() => rmSync(base, { recursive: true, force: true }));

/** A workspace holding the dataDir (`.agent-tools/skills` with pdf, docx and secret), and a folder outside it. */
function layout() {
  const workdir = mkdtempSync(path.join(base, "work-"));
  const skills = path.join(workdir, ".agent-tools", "skills");
  for (const name of ["pdf", "docx", "secret"]) {
    mkdirSync(path.join(skills, name), { recursive: true });
    writeFileSync(path.join(skills, name, "SKILL.md"), name);
  }
  const outside = mkdtempSync(path.join(base, "outside-"));
  writeFileSync(path.join(outside, "README.md"), "outside");
  return { workdir, skills, outside };
}

/** pdf readable and writable, docx read-only, secret refused. */
function access(name: string, intent: PathIntent): SkillAccessDecision {
  if (name === "secret") return { denied: `Skill "${name}" is not enabled.` };
  if (name === "pdf") return { access: "write" };
  return intent === "write" || intent === "edit" || intent === "delete" ? { denied: `Skill "${name}" is protected.` } : { access: "read" };
}

function refusal(run: () => unknown): ToolError {
  try {
    run();
  } catch (error) {
    if (error instanceof ToolError) return error;
    throw error;
  }
  throw new Error("expected a ToolError");
}

describe("the skill policy by canonical path", () => {
  it("gives a workspace-relative path into the skills root the decision of skill://", () => {
    const { workdir, skills } = layout();
    const policy = createPathPolicy({ workdir, skills: { rootDir: skills, access } });
    const read = policy.resolve(".agent-tools/skills/docx/SKILL.md", { intent: "read" });
    expect(read).toMatchObject({ scope: "skill", skillName: "docx", access: "read", displayPath: "skill://docx/SKILL.md", relativePath: "SKILL.md" });
    expect(refusal(() => policy.resolve(".agent-tools/skills/secret/SKILL.md", { intent: "read" })).message).toContain("not enabled");
    expect(refusal(() => policy.resolve(".agent-tools/skills/docx/SKILL.md", { intent: "write" })).message).toContain("protected");
    expect(policy.resolve(".agent-tools/skills/pdf/new.md", { intent: "write" })).toMatchObject({ scope: "skill", access: "write" });
    expect(refusal(() => policy.resolve(".agent-tools/skills", { intent: "list" })).message).toContain("the skills folder itself");
    expect(refusal(() => policy.resolve(".agent-tools", { intent: "delete" })).message).toContain("holds the skills folder");
    expect(policy.resolve(".agent-tools/other.txt", { intent: "write" }).scope).toBe("workspace");
  });

  it("follows a symlink from the workspace into a skill", () => {
    const { workdir, skills } = layout();
    symlinkSync(path.join(skills, "secret"), path.join(workdir, "link"));
    const policy = createPathPolicy({ workdir, skills: { rootDir: skills, access } });
    expect(refusal(() => policy.resolve("link/SKILL.md", { intent: "read" })).code).toBe("permission_denied");
  });

  it("refuses a skill folder that is a symlink, so skill:// never reaches another folder", () => {
    const { workdir, skills, outside } = layout();
    symlinkSync(outside, path.join(skills, "pdf-linked"));
    const policy = createPathPolicy({ workdir, skills: { rootDir: skills, access: () => ({ access: "read" }) } });
    const error = refusal(() => policy.resolve("skill://pdf-linked/README.md", { intent: "read" }));
    expect(error.code).toBe("out_of_bounds");
    expect(error.message).toContain("is a symlink");
  });

  it("lets a workspace placed inside the skills root keep its own access", () => {
    const { skills } = layout();
    const policy = createPathPolicy({ workdir: path.join(skills, "secret"), skills: { rootDir: skills, access } });
    expect(policy.resolve("SKILL.md", { intent: "write" })).toMatchObject({ scope: "workspace", access: "write" });
    expect(refusal(() => policy.resolve(path.join(skills, "docx", "SKILL.md"), { intent: "write" })).message).toContain("protected");
  });

  it("names the skills root as a walk exclusion below a folder that holds it", () => {
    const { workdir, skills } = layout();
    const policy = createPathPolicy({ workdir, skills: { rootDir: skills, access } });
    expect(policy.walkExclusions(workdir)).toEqual([skills]);
    expect(policy.walkExclusions(path.join(workdir, ".agent-tools"))).toEqual([skills]);
    expect(policy.walkExclusions(skills)).toEqual([]);
    expect(policy.walkExclusions(path.join(skills, "pdf"))).toEqual([]);
    expect(createPathPolicy({ workdir }).walkExclusions(workdir)).toEqual([]);
  });
});
