import { describe, expect, it } from "vitest";
import { type SkillCommandFacts, checkSkillCommand } from "./skill-command-policy.js";
import { SKILL_DENIAL_SUFFIX } from "./skill-types.js";

const HOME = "/home/ada";
const ROOT = `${HOME}/.agent-tools/skills`;
const WORK = "/work/project";
const facts: SkillCommandFacts = {
  skillsRoot: ROOT,
  homeDir: HOME,
  workdir: WORK,
  isEnabled: (name) => ["pdf", "docx", "skills-creator"].includes(name),
};

function check(command: string, cwd = WORK, extra: Partial<SkillCommandFacts> = {}): string | undefined {
  return checkSkillCommand({ command, cwd }, { ...facts, ...extra });
}

describe("checkSkillCommand: allowed", () => {
  it.each([
    ["ls -la", WORK],
    ["cat README.md && grep -rn TODO src | head -n 5", WORK],
    ["python3 ~/.agent-tools/skills/pdf/scripts/fill.py in.pdf out.pdf", WORK],
    [`python3 ${ROOT}/pdf/scripts/fill.py`, WORK],
    [`bash ${ROOT}/docx/run.sh --input a.docx`, WORK],
    [`${ROOT}/pdf/bin/tool --help`, WORK],
    [`"$HOME/.agent-tools/skills/pdf/scripts/x.py" a`, WORK],
    [`FOO=1 node \${HOME}/.agent-tools/skills/pdf/index.js`, WORK],
    [`cp ${ROOT}/pdf/assets/template.docx ./out.docx`, WORK],
    ["python3 scripts/fill.py && ls scripts && cat SKILL.md", `${ROOT}/pdf`],
    ["bash run.sh", `${ROOT}/pdf/scripts`],
    ["find / -name '*.log'", WORK],
    ["find . -name SKILL.md", WORK],
    ["cd packages/skills && ls", WORK],
    ["cd src/skills-helpers", WORK],
    ["echo 'cat ~/.agent-tools/skills is not run' # cat ~/.agent-tools/skills", WORK],
    ["ls /home/*", WORK],
    ["ls ~/.agent-tools", WORK],
    ["grep -rn TODO ~/notes", WORK],
    ["rg TODO /work", WORK],
    ["cat /home/ada/.agent-tools/config.json", WORK],
    ["git log -n 3 2>/dev/null", WORK],
  ])("%s (cwd %s)", (command, cwd) => {
    expect(check(command, cwd)).toBeUndefined();
  });
});

describe("checkSkillCommand: refused", () => {
  it.each([
    ["cat ~/.agent-tools/skills/pdf/SKILL.md", /cannot read skill files with cat: .*Read skill:\/\/pdf\/SKILL\.md with Read/],
    [`head -n 20 ${ROOT}/pdf/SKILL.md`, /with head/],
    ["tail $HOME/.agent-tools/skills/pdf/SKILL.md", /with tail/],
    [`less \${HOME}/.agent-tools/skills/pdf/SKILL.md`, /with less/],
    [`more ${ROOT}/pdf/a.md`, /with more/],
    [`ls ${ROOT}`, /skills folder itself/],
    [`ls ${ROOT}/`, /skills folder itself/],
    ["ls ~/.agent-tools/skills/pdf/scripts", /with ls: .*Glob skill:\/\/pdf\/\*\*/],
    ["ls ~/.agent-tools/*", /skills folder itself/],
    ["ls ~/.agent-tools/sk*", /skills folder itself/],
    [`cat ${ROOT}/pdf/*.md`, /with cat: .*skill:\/\/pdf\/\*\.md/],
    [`find ${ROOT} -type f`, /skills folder itself/],
    [`grep -rn name ${ROOT}/pdf`, /with grep/],
    [`rg foo ${ROOT}/docx/`, /with rg/],
    [`sed -n 1,5p ${ROOT}/pdf/SKILL.md`, /with sed/],
    [`awk '{print}' ${ROOT}/pdf/SKILL.md`, /with awk/],
    [`/bin/cat ${ROOT}/pdf/SKILL.md`, /with cat/],
    [`echo start; cat ${ROOT}/pdf/SKILL.md`, /with cat/],
    [`true && cat < ${ROOT}/pdf/SKILL.md`, /with cat/],
    [`grep --file=${ROOT}/pdf/p.txt x`, /with grep/],
    [`sudo cat ${ROOT}/pdf/SKILL.md`, /with cat/],
    [`bash -c "cat ${ROOT}/pdf/SKILL.md"`, /with cat/],
    [`eval "cat ${ROOT}/pdf/SKILL.md"`, /with cat/],
    [`sh -c 'cd ${ROOT}/pdf && ls'`, /cannot cd into/],
    [`echo x > ${ROOT}/pdf/notes.md`, /cannot change skill files \(redirecting output to /],
    [`cat ${ROOT}/docx/../pdf/SKILL.md`, /with cat: .*skill:\/\/pdf\/SKILL\.md/],
    [`cd ${ROOT}/pdf`, /cannot cd into the skills folder.*cwd "skill:\/\/pdf"/],
    ["cd ~/.agent-tools/skills", /skills folder itself/],
    ["pushd $HOME/.agent-tools/skills/pdf", /cannot pushd into the skills folder/],
    ["cd skills", /do not live in the workspace's skills\/ folder/],
    ["cd ./skills/pdf && cat SKILL.md", /workspace's skills\/ folder/],
    [`cd ${WORK}/skills`, /workspace's skills\/ folder/],
    ["cd .skills", /workspace's skills\/ folder/],
    ["find / -name SKILL.md 2>/dev/null", /search the file system for skills/],
    ["find / -type d -name '*skill*'", /search the file system for skills/],
    ["find ~ -iname '*Skill*'", /search the file system for skills/],
    ["find $HOME -name SKILL.md", /search the file system for skills/],
    ["find /home -name SKILL.md", /search the file system for skills/],
    ["find / -type f | grep SKILL.md", /search the file system for skills/],
    ["locate SKILL.md", /search the file system for skills/],
    ["find ~/.agent-tools -name SKILL.md", /search the file system for skills/],
    ["find ~/.agent-tools -type f", /cannot search or list ~\/.agent-tools recursively with find/],
    ["grep -rn name ~/.agent-tools", /recursively with grep/],
    ["ls -laR $HOME/.agent-tools/", /recursively with ls/],
    ["rg --files ~/.agent-tools", /recursively with rg/],
    [`python3 ${ROOT}/xlsx/scripts/x.py`, /"xlsx" is not enabled/],
    [`${ROOT}/xlsx/bin/tool`, /"xlsx" is not enabled/],
    [`bash ~/.agent-tools/skills/xlsx/run.sh`, /"xlsx" is not enabled/],
    [`python3 ${ROOT}/.staging/x/run.py`, /skills folder itself/],
    [`rm -rf ${ROOT}/pdf`, /cannot change skill files \(rm /],
    [`echo x > ${ROOT}/pdf/SKILL.md`, /cannot change skill files/],
    [`echo x >>${ROOT}/pdf/SKILL.md`, /cannot change skill files/],
    [`cp evil.sh ${ROOT}/pdf/scripts/run.sh`, /cannot change skill files \(cp /],
  ])("%s", (command, pattern) => {
    const message = check(command);
    expect(message).toMatch(pattern);
    expect(message?.endsWith(SKILL_DENIAL_SUFFIX)).toBe(true);
  });

  it("refuses .. while the cwd is inside a skill, but not elsewhere", () => {
    expect(check("cat ../docx/SKILL.md", `${ROOT}/pdf`)).toMatch(/cannot use "\.\." while its cwd is inside skill:\/\/pdf\//);
    expect(check("python3 scripts/x.py ../out", `${ROOT}/pdf/scripts`)).toMatch(/"\.\."/);
    expect(check("cat ../README.md", `${WORK}/src`)).toBeUndefined();
  });

  it("refuses a cwd on the skills root itself, a hidden folder, or a disabled skill", () => {
    expect(checkSkillCommand({ command: "ls", cwd: ROOT, cwdInput: "~/.agent-tools/skills" }, facts)).toMatch(
      /cwd in the skills folder itself \(~\/\.agent-tools\/skills\)/,
    );
    expect(check("ls", `${ROOT}/.backups`)).toMatch(/skills folder itself/);
    expect(check("ls", `${ROOT}/xlsx`)).toMatch(/"xlsx" is not enabled/);
  });

  it("refuses an absolute read of the current skill (only relative reads stay allowed)", () => {
    expect(check(`cat ${ROOT}/pdf/SKILL.md`, `${ROOT}/pdf`)).toMatch(/with cat/);
    expect(check("cat SKILL.md", `${ROOT}/pdf`)).toBeUndefined();
  });

  it("checks every spelling of the root", () => {
    const aliases = { skillsRootAliases: ["/private/skills"] };
    expect(check("cat /private/skills/pdf/SKILL.md", WORK, aliases)).toMatch(/with cat/);
    expect(check("python3 /private/skills/pdf/x.py", WORK, aliases)).toBeUndefined();
  });
});

describe("checkSkillCommand: ways around a word-by-word check", () => {
  const DATA = `${HOME}/.agent-tools`;
  it.each([
    [`echo x>>${ROOT}/pdf/SKILL.md`, /cannot change skill files \(redirecting output to/],
    [`echo x 1<>${ROOT}/pdf/SKILL.md`, /cannot change skill files \(redirecting output to/],
    [`echo x | dd of=${ROOT}/pdf/SKILL.md`, /only to run its scripts .* dd with/],
    [`dd if=${ROOT}/xlsx/SKILL.md`, /"xlsx" is not enabled/],
    [`tar -C ${ROOT}/pdf -xf evil.tar`, /only to run its scripts .* tar with/],
    [`tar -C ${ROOT} -cf - xlsx`, /skills folder itself/],
    [`cd ${DATA} && cat skills/xlsx/SKILL.md`, /"xlsx" is not enabled/],
    [`cd ${DATA}; echo x > skills/pdf/SKILL.md`, /cannot change skill files/],
    [`cd / && cat ${ROOT.slice(1)}/xlsx/SKILL.md`, /"xlsx" is not enabled/],
    [`cat $'${ROOT}/xlsx/SKILL.md'`, /"xlsx" is not enabled/],
    [`echo x > $'${ROOT}/pdf/SKILL.md'`, /cannot change skill files/],
    [`cat ${HOME}/.agent-t?ols/skills/xlsx/SKILL.md`, /"xlsx" is not enabled/],
    [`cat /h*/ada/.agent-tools/sk*/pdf/SKILL.md`, /with cat/],
    [`cat ${HOME}/{.agent-tools,x}/skills/xlsx/SKILL.md`, /"xlsx" is not enabled/],
    [`touch ${HOME}/{.agent-tools,x}/skills/pdf/new`, /cannot change skill files \(touch/],
    [`D=${ROOT}; cat "$D/xlsx/SKILL.md"`, /"xlsx" is not enabled/],
    [`export D=${DATA}/skills && cat \${D}/pdf/SKILL.md`, /with cat/],
    [`python3 -c "print(open('${ROOT}/xlsx/SKILL.md').read())"`, /"xlsx" is not enabled/],
    [`python3 -c "open('${ROOT}/pdf/SKILL.md','a').write('x')"`, /only to run its scripts/],
    [`node -e "require('fs').appendFileSync('${ROOT}/pdf/SKILL.md','x')"`, /only to run its scripts/],
    [`cp -t ${ROOT}/pdf payload.txt`, /cannot change skill files \(cp /],
    [`cp --target-directory=${ROOT}/pdf payload.txt`, /cannot change skill files \(cp /],
    [`ln -s ${DATA} link && cat link/skills/xlsx/SKILL.md`, /cannot link to .* it holds the skills folder/],
    [`cp -r ${DATA} /tmp/copy`, /cannot copy .* it holds the skills folder/],
    [`cd ${DATA} && mkdir -p skills/evil`, /"evil" is not enabled/],
    [`jq . ${ROOT}/pdf/data.json`, /only to run its scripts .* jq with/],
  ])("%s", (command, pattern) => {
    const message = check(command);
    expect(message).toMatch(pattern);
    expect(message?.endsWith(SKILL_DENIAL_SUFFIX)).toBe(true);
  });

  it("refuses writes relative to a cwd inside a skill the policy does not let the model change, and allows them where it does", () => {
    const cwd = `${ROOT}/pdf`;
    expect(check("echo x > SKILL.md", cwd)).toMatch(/cannot change skill files \(redirecting output to SKILL\.md\)/);
    expect(check("touch new.txt", cwd)).toMatch(/cannot change skill files \(touch new\.txt\)/);
    expect(check("cp ../x new.txt", cwd)).toMatch(/"\.\."/);
    const writable = { canWrite: (name: string) => name === "pdf" };
    expect(check("echo x > notes.md && touch new.txt", cwd, writable)).toBeUndefined();
    expect(check(`echo x > ${ROOT}/pdf/notes.md`, WORK, writable)).toBeUndefined();
    expect(check(`echo x > ${ROOT}/docx/notes.md`, WORK, writable)).toMatch(/cannot change skill files/);
  });

  it("still lets scripts run with the skill's files as arguments, stderr joined, and their output piped", () => {
    expect(check(`python3 ${ROOT}/pdf/scripts/fill.py ${ROOT}/pdf/assets/form.pdf out.pdf 2>&1 | tail -n 5`)).toBeUndefined();
    expect(check("python3 scripts/fill.py assets/form.pdf out.pdf 2>&1", `${ROOT}/pdf`)).toBeUndefined();
    expect(check(`./scripts/run.sh <<EOF\ninput\nEOF`, `${ROOT}/pdf`)).toBeUndefined();
    expect(check(`cd /tmp && ${ROOT}/pdf/scripts/run.sh`)).toBeUndefined();
    expect(check(`rsync -t ${ROOT}/pdf/assets/a.png ./a.png`)).toBeUndefined();
    expect(check("cp -r . ../backup")).toBeUndefined();
  });
});
