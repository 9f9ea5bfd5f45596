/**
 * Attacks on the skill access policy with the sandbox on, as a model would
 * make them through `executeToolCall` of a registry from
 * `buildBuiltinToolRegistry`: Bash commands that got around the Bash skill
 * guard (glued redirections, `1<>`, `dd of=`, `tar -C`, `cd <dataDir>`,
 * `$'...'`, globs, braces, a cwd of `skill://prot`, inline code, symlinks,
 * copies of the dataDir, a path decoded at run time), each also hidden from
 * the guard, read nothing of a skill that is not enabled nor of the dataDir's
 * other files and change nothing in a protected skill: the sandbox's mounts
 * enforce the policy. Real bubblewrap, real processes, real files.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  type Attack,
  DATA_SECRET,
  HIDDEN_SECRET,
  type Registry,
  call,
  diff,
  readAttacks,
  scenario,
  scratchFolder,
  snapshot,
  text,
  writeAttacks,
} from "./skills-policy-scenario.js";

// Real bubblewrap: skipped only where it is missing and this is not CI (CI must have it).
const skipSandbox = !fs.existsSync("/usr/bin/bwrap") && !process.env.CI;
const scratch = scratchFolder();
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

/** The command hidden from the Bash guard (it sees only `eval "$(... | base64 -d)"`), so what stops it is the sandbox alone. */
function pastTheGuard(command: string): string {
  return `eval "$(echo ${Buffer.from(command).toString("base64")} | base64 -d)"`;
}

/**
 * Runs attacks past the guard, those sharing a cwd in one Bash call (each in
 * a subshell, its output after a marker line), and returns each attack's output.
 */
async function runPastTheGuard(registry: Registry, attacks: readonly Attack[]): Promise<Map<string, string>> {
  const outputs = new Map<string, string>();
  const byCwd = new Map<string | undefined, Attack[]>();
  for (const attack of attacks) byCwd.set(attack.cwd, [...(byCwd.get(attack.cwd) ?? []), attack]);
  for (const [cwd, group] of byCwd) {
    const script = group.map((attack, index) => `echo "@@attack-${index}@@"; ( ${attack.command} ) 2>&1`).join("\n");
    const output = text(await call(registry, "Bash", { command: pastTheGuard(script), ...(cwd ? { cwd } : {}) }));
    for (const [index, attack] of group.entries()) {
      const start = output.indexOf(`@@attack-${index}@@`);
      const end = output.indexOf(`@@attack-${index + 1}@@`);
      outputs.set(attack.name, start < 0 ? output : output.slice(start, end < 0 ? undefined : end));
    }
  }
  return outputs;
}

for (const dataDirInWorkspace of [false, true]) {
  describe.skipIf(skipSandbox)(`with the sandbox on and the dataDir ${dataDirInWorkspace ? "inside" : "outside"} the workspace`, () => {
    it("reads nothing of a skill that is not enabled nor of the dataDir's other files, whatever the Bash guard misses", async () => {
      const s = await scenario(scratch, { dataDirInWorkspace, sandbox: true });
      try {
        const outputs = await runPastTheGuard(s.registry, readAttacks(s));
        expect(outputs.size).toBe(readAttacks(s).length);
        const leaks = [...outputs].filter(([, output]) => output.includes(HIDDEN_SECRET) || output.includes(DATA_SECRET)).map(([name]) => name);
        expect(leaks).toEqual([]);
      } finally {
        await s.registry.close();
      }
    });

    it("changes nothing in a protected skill nor the dataDir, and adds no skill, whatever the Bash guard misses", async () => {
      const s = await scenario(scratch, { dataDirInWorkspace, sandbox: true });
      const before = snapshot(s.dataDir);
      try {
        await runPastTheGuard(s.registry, writeAttacks(s));
        expect(diff(before, snapshot(s.dataDir))).toEqual([]);
      } finally {
        await s.registry.close();
      }
    });

    it("still runs an enabled skill's scripts, lets the writable skill be changed and keeps the workspace writable", async () => {
      const s = await scenario(scratch, { dataDirInWorkspace, sandbox: true });
      try {
        const ran = await call(s.registry, "Bash", { command: `${path.join(s.root, "ok", "scripts", "run.sh")} && ./scripts/run.sh`, cwd: "skill://prot" });
        expect(ran.isError, text(ran)).toBe(false);
        expect(text(ran)).toMatch(/ok ran[\s\S]*prot ran/);
        const wrote = await call(s.registry, "Bash", { command: "echo made > made.txt && echo note > note.txt", cwd: "skill://ok" });
        expect(wrote.isError, text(wrote)).toBe(false);
        expect(fs.readFileSync(path.join(s.root, "ok", "note.txt"), "utf8")).toBe("note\n");
        const workspace = await call(s.registry, "Bash", { command: "echo kept > kept.txt" });
        expect(workspace.isError).toBe(false);
        expect(fs.readFileSync(path.join(s.workdir, "kept.txt"), "utf8")).toBe("kept\n");
      } finally {
        await s.registry.close();
      }
    });
  });
}
