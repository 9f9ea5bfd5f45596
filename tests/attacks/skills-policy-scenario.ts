/**
 * The scenario of the skills-policy attacks: a workspace and a dataDir whose
 * skills root holds an enabled writable skill, a protected one and one that
 * is not enabled, a registry from `buildBuiltinToolRegistry` over them, and
 * the Bash commands that got around the Bash skill guard.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type ToolResult, toolResultText } from "@agent-tools/core";
import { buildBuiltinToolRegistry } from "@agent-tools/sdk";

/** A registry of `buildBuiltinToolRegistry`. */
export type Registry = Awaited<ReturnType<typeof buildBuiltinToolRegistry>>;

/**
 * A scratch folder for the cases, not under /tmp: a confined command gets a
 * private /tmp, which would hide the dataDir by accident. Remove it after the file.
 */
export function scratchFolder(): string {
  const parent = fs.existsSync("/var/tmp") ? "/var/tmp" : os.homedir();
  return fs.realpathSync(fs.mkdtempSync(path.join(parent, "agent-tools-skills-attack-")));
}

/** Text only the skill that is not enabled holds. */
export const HIDDEN_SECRET = "HIDDEN-SKILL-SECRET";
/** Text only the dataDir's SQLite file and logs hold. */
export const DATA_SECRET = "DATADIR-SECRET";
const PROTECTED_TEXT = "# prot\n\nLeave me alone.\n";

/** One case: its folders and registry. */
export interface Scenario {
  readonly base: string;
  readonly workdir: string;
  readonly dataDir: string;
  readonly root: string;
  readonly registry: Registry;
}

/** One Bash command a model could send, with the cwd it asks for. */
export interface Attack {
  readonly name: string;
  readonly command: string;
  readonly cwd?: string;
}

function writeSkill(root: string, name: string, body: string): void {
  fs.mkdirSync(path.join(root, name, "scripts"), { recursive: true });
  fs.writeFileSync(path.join(root, name, "SKILL.md"), `---\nname: ${name}\ndescription: The ${name} skill.\n---\n\n${body}`);
  fs.writeFileSync(path.join(root, name, "scripts", "run.sh"), `#!/bin/sh\necho "${name} ran"\n`, { mode: 0o755 });
}

/**
 * A workspace and a dataDir (inside the workspace as `.agent-tools`, or beside it) whose skills root holds
 * `ok` (enabled, writable), `prot` (enabled, protected) and `hidden` (not enabled), and whose other files hold a secret.
 */
export async function scenario(
  scratch: string,
  options: { readonly dataDirInWorkspace: boolean; readonly sandbox: boolean; readonly ripgrep?: false },
): Promise<Scenario> {
  const base = fs.mkdtempSync(path.join(scratch, "case-"));
  const workdir = path.join(base, "project");
  const dataDir = options.dataDirInWorkspace ? path.join(workdir, ".agent-tools") : path.join(base, "data");
  const root = path.join(dataDir, "skills");
  fs.mkdirSync(workdir);
  fs.mkdirSync(root, { recursive: true });
  writeSkill(root, "ok", "# ok\n\nUse it.\n");
  writeSkill(root, "prot", PROTECTED_TEXT);
  writeSkill(root, "hidden", `# hidden\n\n${HIDDEN_SECRET}\n`);
  fs.writeFileSync(path.join(dataDir, "agent-tools.sqlite"), `SQLite format 3 ${DATA_SECRET}`);
  fs.mkdirSync(path.join(dataDir, "process-logs"));
  fs.writeFileSync(path.join(dataDir, "process-logs", "p1.log"), `log ${DATA_SECRET}\n`);
  fs.writeFileSync(path.join(workdir, "payload.txt"), "pwned\n");
  const registry = await buildBuiltinToolRegistry({
    workdir,
    dataDir,
    memory: false,
    ...(options.ripgrep === false ? { fs: { ripgrepPath: false } } : {}),
    skills: { policy: { allowedSkillNames: ["ok", "prot"], protectedSkillNames: ["prot"], allowSkillMutation: true } },
    ...(options.sandbox ? { sandbox: { enabled: true } } : {}),
  });
  return { base, workdir, dataDir, root, registry };
}

export async function call(registry: Registry, name: string, args: Record<string, unknown>): Promise<ToolResult> {
  return registry.executeToolCall({ id: `call-${Math.random()}`, name, arguments: args });
}

export function text(result: ToolResult): string {
  return toolResultText(result, "");
}

/** Every file below `folder` with its content, for before/after comparisons. */
export function snapshot(folder: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const entry of fs.readdirSync(folder, { recursive: true, withFileTypes: true })) {
    const full = path.join(entry.parentPath, entry.name);
    files[path.relative(folder, full)] = entry.isFile() ? fs.readFileSync(full, "utf8") : entry.isDirectory() ? "<dir>" : "<other>";
  }
  return files;
}

/** The entries that differ between two snapshots. */
export function diff(before: Record<string, string>, after: Record<string, string>): string[] {
  return [...new Set([...Object.keys(before), ...Object.keys(after)])].filter((key) => before[key] !== after[key]);
}

/** Puts a folder back as a snapshot had it (so one attack's success does not hide the next one's). */
export function restore(folder: string, files: Record<string, string>): void {
  const now = snapshot(folder);
  for (const key of Object.keys(now).sort().reverse()) if (!(key in files)) fs.rmSync(path.join(folder, key), { recursive: true, force: true });
  for (const [key, content] of Object.entries(files)) if (content !== "<dir>" && content !== "<other>") fs.writeFileSync(path.join(folder, key), content);
}

/** `/a/b/data` -> `/a/b/d?ta`: a glob that matches the dataDir without naming it. */
function globbed(folder: string): string {
  const name = path.basename(folder);
  const at = name.startsWith(".") ? 2 : 1;
  return path.join(path.dirname(folder), `${name.slice(0, at)}?${name.slice(at + 1)}`);
}

/** `/a/b/data` -> `/a/b/{data,nothing}`: a brace expansion that yields the dataDir. */
function braced(folder: string): string {
  return path.join(path.dirname(folder), `{${path.basename(folder)},nothing}`);
}

/** Bash commands that read the hidden skill or the dataDir's other files, each a way around the Bash guard. */
export function readAttacks(s: Scenario): Attack[] {
  const hidden = path.join(s.root, "hidden", "SKILL.md");
  const relativeToData = path.relative(s.dataDir, hidden);
  return [
    { name: "cd <dataDir> then a relative path", command: `cd ${s.dataDir} && cat ${relativeToData}` },
    { name: "cd / then a relative path", command: `cd / && cat ${hidden.slice(1)}` },
    { name: "$'...' quoting", command: `cat $'${hidden}'` },
    { name: "a glob above the skills root", command: `cat ${globbed(s.dataDir)}/${relativeToData}` },
    { name: "braces above the skills root", command: `cat ${braced(s.dataDir)}/${relativeToData}` },
    { name: "a variable", command: `D=${s.root}; cat "$D/hidden/SKILL.md"` },
    { name: "tar -C", command: `tar -C ${s.root} -cf - hidden | tar -xOf -` },
    { name: "dd if=", command: `dd if=${hidden} status=none` },
    { name: "inline code", command: `node -e "process.stdout.write(require('fs').readFileSync('${hidden}'))"` },
    { name: "a symlink to the dataDir", command: `ln -s ${s.dataDir} link && cat link/${relativeToData}` },
    { name: "a copy of the dataDir", command: `cp -r ${s.dataDir} /tmp/copy && cat /tmp/copy/${relativeToData}` },
    { name: "base64 of the path", command: `cat "$(echo ${Buffer.from(hidden).toString("base64")} | base64 -d)"` },
    { name: "a recursive grep from the dataDir's parent", command: `cd ${path.dirname(s.dataDir)} && grep -r ${HIDDEN_SECRET} .` },
    { name: "the dataDir's SQLite file", command: `cat ${path.join(s.dataDir, "agent-tools.sqlite")}` },
    { name: "the dataDir's logs", command: `cat ${path.join(s.dataDir, "process-logs", "p1.log")}` },
    { name: "a cwd of <dataDir>", command: `cat ${relativeToData} process-logs/p1.log`, cwd: s.dataDir },
  ];
}

/** Bash commands that change the protected skill or add a skill, each a way around the Bash guard. */
export function writeAttacks(s: Scenario): Attack[] {
  const prot = path.join(s.root, "prot");
  const relativeToData = path.relative(s.dataDir, prot);
  return [
    { name: "echo x>>f without a space", command: `echo pwned>>${prot}/SKILL.md` },
    { name: "1<> redirection", command: `echo pwned 1<>${prot}/SKILL.md` },
    { name: "dd of=", command: `dd if=payload.txt of=${prot}/SKILL.md status=none` },
    { name: "tar -C", command: `tar -cf evil.tar payload.txt && tar -C ${prot} -xf evil.tar` },
    { name: "cd <dataDir> then a relative path", command: `cd ${s.dataDir} && echo pwned > ${relativeToData}/SKILL.md` },
    { name: "$'...' quoting", command: `echo pwned > $'${prot}/SKILL.md'` },
    { name: "a glob above the skills root", command: `echo pwned > ${globbed(s.dataDir)}/${relativeToData}/SKILL.md` },
    { name: "braces above the skills root", command: `touch ${braced(s.dataDir)}/${relativeToData}/new.txt` },
    { name: "a cwd of skill://prot", command: "echo pwned > SKILL.md; echo pwned > new.txt", cwd: "skill://prot" },
    { name: "cp -t", command: `cp -t ${prot} payload.txt` },
    { name: "inline code", command: `node -e "require('fs').appendFileSync('${prot}/SKILL.md','pwned')"` },
    { name: "a new skill through cd", command: `cd ${s.dataDir} && mkdir -p skills/evil && cp ${s.workdir}/payload.txt skills/evil/SKILL.md` },
    { name: "a symlink to the dataDir", command: `ln -s ${s.dataDir} link2 && echo pwned > link2/${relativeToData}/SKILL.md` },
    { name: "the dataDir's SQLite file", command: `echo pwned >> ${path.join(s.dataDir, "agent-tools.sqlite")}` },
  ];
}
