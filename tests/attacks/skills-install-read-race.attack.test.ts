/**
 * Attacks on the files of an installed skill that a confined command may
 * change, as a model would make them through `executeToolCall` of a
 * registry from `buildBuiltinToolRegistry` with the sandbox on: the
 * command (Bash, in bubblewrap, the writable skill `ok` bound in) flips a
 * file of `ok` between a regular file and a symlink to the SKILL.md of the
 * skill `hidden` (not enabled, masked from the sandbox), while the host reads
 * that file through SkillsManager `read`, `list` and `validate`. A host read
 * that checks the name and then opens it again (lstat, realpath, readFile)
 * follows the symlink put there in between; reads through a descriptor
 * opened without following any symlink never show the hidden skill.
 *
 * The same command makes FIFOs in the skill (a script and a text file): a
 * host read that opens them by name without `O_NONBLOCK` waits for a writer
 * forever, holding one of libuv's four file threads, so a few calls freeze
 * every file operation of the host; they must answer at once.
 *
 * `ATTACK_ROUNDS` (default 150) sets how many reads race the flipping file.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { HIDDEN_SECRET, call, scenario, scratchFolder, text } from "./skills-policy-scenario.js";

const ROUNDS = Math.max(1, Number(process.env.ATTACK_ROUNDS ?? 150));
// Real bubblewrap: skipped only where it is missing and this is not CI (CI must have it).
const skipSandbox = !fs.existsSync("/usr/bin/bwrap") && !process.env.CI;
const scratch = scratchFolder();
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

/** A confined loop flipping `file` between a regular file and a symlink to `target`, for `seconds`. */
function flipper(file: string, target: string, seconds: number, body: string): string {
  const folder = path.dirname(file);
  return [
    `end=$(( $(date +%s) + ${seconds} ))`,
    `while [ "$(date +%s)" -lt "$end" ]; do`,
    `  for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do`,
    `    ln -sfn '${target}' '${folder}/.link-${path.basename(file)}' && mv -T '${folder}/.link-${path.basename(file)}' '${file}'`,
    `    printf '%s' '${body}' > '${folder}/.plain-${path.basename(file)}' && mv -T '${folder}/.plain-${path.basename(file)}' '${file}'`,
    "  done",
    "done",
    "echo flipped",
  ].join("\n");
}

/** The command hidden from the best-effort Bash guard, so what stops the attack is the host's reads alone. */
function pastTheGuard(command: string): string {
  return `eval "$(echo ${Buffer.from(command).toString("base64")} | base64 -d)"`;
}

describe.skipIf(skipSandbox)("attack: a confined command flips a skill's file to a symlink while the host reads it", () => {
  it(`never shows a file the symlink points to through SkillsManager read, list or validate (${ROUNDS} rounds)`, async () => {
    const s = await scenario(scratch, { dataDirInWorkspace: false, sandbox: true });
    try {
      const hiddenSkillMd = path.join(s.root, "hidden", "SKILL.md");
      const okSkillMd = path.join(s.root, "ok", "SKILL.md");
      const plainSkillMd = fs.readFileSync(okSkillMd, "utf8");
      const notes = path.join(s.root, "ok", "notes.md");
      fs.writeFileSync(notes, "plain notes\n");
      const seconds = Math.max(4, Math.ceil(ROUNDS / 25));
      let flipping = true;
      const flips = Promise.all([
        call(s.registry, "Bash", {
          command: pastTheGuard(flipper(notes, hiddenSkillMd, seconds, "plain notes\n")),
          timeout_ms: (seconds + 30) * 1000,
          yield_time_ms: (seconds + 20) * 1000,
        }),
        call(s.registry, "Bash", {
          command: pastTheGuard(flipper(okSkillMd, hiddenSkillMd, seconds, plainSkillMd)),
          timeout_ms: (seconds + 30) * 1000,
          yield_time_ms: (seconds + 20) * 1000,
        }),
      ]).finally(() => {
        flipping = false;
      });
      const leaks: string[] = [];
      const outcomes = new Set<string>();
      let rounds = 0;
      while (flipping || rounds < 3) {
        rounds += 1;
        const [read, ...others] = await Promise.all([
          call(s.registry, "SkillsManager", { action: "read", path: "ok/notes.md" }).then(text),
          call(s.registry, "SkillsManager", { action: "read", path: "ok/notes.md" }).then(text),
          call(s.registry, "SkillsManager", { action: "read", path: "ok/notes.md" }).then(text),
          call(s.registry, "SkillsManager", { action: "list" }).then(text),
          call(s.registry, "SkillsManager", { action: "validate", name: "ok" }).then(text),
        ]);
        for (const [action, output] of [
          ["read", read as string],
          ["read", others[0] as string],
          ["read", others[1] as string],
          ["list", others[2] as string],
          ["validate", others[3] as string],
        ] as const) {
          if (output.includes(HIDDEN_SECRET) || output.includes("The hidden skill.")) leaks.push(`${action}: ${output.slice(0, 200)}`);
        }
        outcomes.add(read.includes("plain notes") ? "read plain" : read.slice(0, 60));
        if (!flipping && rounds >= ROUNDS) break;
      }
      const flipped = await flips;
      expect(leaks).toEqual([]);
      for (const result of flipped) expect(text(result)).toMatch(/exit_code: 0[\s\S]*stdout:\s*flipped\s*$/);
      expect(outcomes.has("read plain")).toBe(true);
    } finally {
      await s.registry.close();
    }
  }, 120_000);

  it("answers list, validate and read at once when the skill holds FIFOs", async () => {
    const s = await scenario(scratch, { dataDirInWorkspace: false, sandbox: true });
    try {
      const folder = path.join(s.root, "ok");
      const made = await call(s.registry, "Bash", { command: pastTheGuard(`mkfifo '${folder}/hang.sh' '${folder}/hang.md' && echo made`) });
      expect(text(made)).toMatch(/stdout:\s*made/);
      const answered = async (args: Record<string, unknown>) => {
        const timer = new Promise<string>((resolve) => setTimeout(() => resolve("no answer in 10 s"), 10_000).unref());
        return Promise.race([call(s.registry, "SkillsManager", args).then(text), timer]);
      };
      expect(await answered({ action: "list" })).toContain("ok");
      expect(await answered({ action: "validate", name: "ok" })).not.toBe("no answer in 10 s");
      expect(await answered({ action: "read", path: "ok/hang.md" })).toContain("not a regular file");
    } finally {
      await s.registry.close();
    }
  }, 60_000);
});
