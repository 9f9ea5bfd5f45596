import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ToolError } from "../errors.js";
import { createLexicalPathPolicy } from "./lexical-path-policy.js";

const WORKDIR = "/srv/remote-workspace-that-is-not-local/app";
const base = realpathSync(mkdtempSync(path.join(os.tmpdir(), "lexical-skill-paths-")));
afterAll(() => rmSync(base, { recursive: true, force: true }));

const skillsRoot = path.join(base, "skills");
mkdirSync(path.join(skillsRoot, "pdf", "scripts"), { recursive: true });
writeFileSync(path.join(skillsRoot, "pdf", "SKILL.md"), "# pdf\n");
writeFileSync(path.join(base, "secret.txt"), "secret\n");
symlinkSync(path.join(base, "secret.txt"), path.join(skillsRoot, "pdf", "leak.txt"));
symlinkSync(base, path.join(skillsRoot, "linked"));

function refusal(run: () => unknown): ToolError {
  try {
    run();
  } catch (error) {
    if (error instanceof ToolError) return error;
    throw error;
  }
  throw new Error("expected a ToolError");
}

describe("createLexicalPathPolicy({ skills }): the host's skills on a non-local workspace", () => {
  const paths = createLexicalPathPolicy({
    workdir: WORKDIR,
    workspaceLabel: "ssh://dev@remote:22",
    skills: { rootDir: skillsRoot, access: (name) => (name === "hidden" ? { denied: "hidden is not enabled" } : { access: "write" }) },
  });

  it("resolves skill:// on this disk as the local policy does, and shows host paths of a skill as skill://", () => {
    const resolved = paths.resolve("skill://pdf/SKILL.md", { intent: "read", label: "Read path" });
    expect(resolved).toMatchObject({
      scope: "skill",
      skillName: "pdf",
      absolutePath: path.join(skillsRoot, "pdf", "SKILL.md"),
      exists: true,
      displayPath: "skill://pdf/SKILL.md",
    });
    expect(paths.display(path.join(skillsRoot, "pdf", "scripts", "x.py"))).toBe("skill://pdf/scripts/x.py");
    // A workspace path is the workspace's, whatever it looks like.
    expect(paths.display(`${WORKDIR}/src/a.ts`)).toBe("src/a.ts");
    expect(paths.staysInside(path.join(skillsRoot, "pdf"), path.join(skillsRoot, "pdf", "SKILL.md"))).toBe(true);
    expect(paths.staysInside(path.join(skillsRoot, "pdf"), path.join(skillsRoot, "pdf", "leak.txt"))).toBe(false);
    expect(paths.staysInside(WORKDIR, `${WORKDIR}/a`)).toBe(false);
  });

  it("refuses what the local policy refuses: a hidden skill, a link out of the skill, a symlinked skill folder, ..", () => {
    expect(refusal(() => paths.resolve("skill://hidden/SKILL.md", { intent: "read" })).message).toContain("hidden is not enabled");
    expect(refusal(() => paths.resolve("skill://pdf/leak.txt", { intent: "read" })).code).toBe("out_of_bounds");
    expect(refusal(() => paths.resolve("skill://linked/secret.txt", { intent: "read" })).code).toBe("out_of_bounds");
    expect(refusal(() => paths.resolve("skill://pdf/../linked", { intent: "read" })).code).toBe("invalid_path");
  });

  it("is read-only and never a working directory there, whatever the access hook says", () => {
    for (const intent of ["write", "edit", "delete"] as const) {
      const error = refusal(() => paths.resolve("skill://pdf/SKILL.md", { intent, label: "Write path" }));
      expect(error.code).toBe("permission_denied");
      expect(error.message).toContain("read-only on ssh://dev@remote:22");
    }
    const cwd = refusal(() => paths.resolve("skill://pdf", { intent: "cwd", label: "Bash cwd" }));
    expect(cwd.code).toBe("unsupported_target");
    expect(cwd.message).toContain("commands run on ssh://dev@remote:22, where the skill's files are not");
  });

  it("without skills, still refuses skill:// naming the workspace", () => {
    const plain = createLexicalPathPolicy({ workdir: WORKDIR, workspaceLabel: "ssh://dev@remote:22" });
    expect(refusal(() => plain.resolve("skill://pdf/SKILL.md", { intent: "read" })).message).toMatch(/not available on ssh:\/\/dev@remote:22/);
    expect(plain.display(path.join(skillsRoot, "pdf", "SKILL.md"))).toBe(path.join(skillsRoot, "pdf", "SKILL.md"));
  });
});
