import { describe, expect, it } from "vitest";
import { type SkillCommandFacts, checkSkillCommand } from "./skill-command-policy.js";
import { SKILL_DENIAL_SUFFIX } from "./skill-types.js";

const HOME = "/home/ada";
const ROOT = `${HOME}/.agent-tools/skills`;
const WORK = "/srv/app";
const REMOTE = "ssh://dev@build:22";
const facts: SkillCommandFacts = {
  skillsRoot: ROOT,
  homeDir: HOME,
  workdir: WORK,
  isEnabled: (name) => ["pdf", "docx"].includes(name),
  canWrite: () => true,
  remoteWorkspace: REMOTE,
};

function check(command: string, cwd = WORK): string | undefined {
  return checkSkillCommand({ command, cwd }, facts);
}

describe("checkSkillCommand on a non-local workspace (remoteWorkspace)", () => {
  it.each([
    [`python3 ${ROOT}/pdf/scripts/fill.py in.pdf`, WORK],
    ["python3 ~/.agent-tools/skills/pdf/scripts/fill.py", WORK],
    [`${ROOT}/pdf/bin/tool --help`, WORK],
    [`cp ${ROOT}/pdf/assets/template.docx ./out.docx`, WORK],
    [`S=${ROOT}; bash $S/docx/run.sh`, WORK],
    [`sh -c "node ${ROOT}/pdf/index.js"`, WORK],
    [`echo x > ${ROOT}/pdf/notes.md`, WORK],
    ["python3 scripts/fill.py", `${ROOT}/pdf`],
    ["ls", `${ROOT}/pdf/scripts`],
  ])("refuses %s (cwd %s): the skill's files are not there", (command, cwd) => {
    const refusal = check(command, cwd);
    expect(refusal).toContain(`Bash runs on ${REMOTE}, where the skill's files are not`);
    expect(refusal).toContain("installs the skill's files there as project files, or uses a local workspace");
    expect(refusal?.endsWith(SKILL_DENIAL_SUFFIX)).toBe(true);
  });

  it("keeps the local answers for reads and for skills that are not enabled, and lets other commands run", () => {
    expect(check(`cat ${ROOT}/pdf/SKILL.md`)).toContain("Read skill://pdf/SKILL.md");
    expect(check(`sh ${ROOT}/hidden/run.sh`)).toContain('Skill "hidden" is not enabled');
    expect(check("ls -la && python3 tools/build.py")).toBeUndefined();
    expect(check("cat ~/notes.txt")).toBeUndefined();
  });

  it("without remoteWorkspace still allows a skill's scripts (the local registry)", () => {
    const { remoteWorkspace: _, ...local } = facts;
    expect(checkSkillCommand({ command: `python3 ${ROOT}/pdf/scripts/fill.py`, cwd: WORK }, local)).toBeUndefined();
  });
});
