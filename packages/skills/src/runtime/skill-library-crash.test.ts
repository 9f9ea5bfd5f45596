import { execFile, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bundleChild } from "./__fixtures__/bundle-child.js";
import { SkillLibrary } from "./skill-library.js";

const run = promisify(execFile);
const here = path.dirname(fileURLToPath(import.meta.url));
const top = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "agent-tools-skill-crash-")));
afterAll(() => fs.rmSync(top, { recursive: true, force: true }));
let child: { command: string; args: string[] };
beforeAll(async () => {
  child = await bundleChild(path.join(here, "__fixtures__/library-installer-child.ts"), top);
});

const VERSIONS = 4;
const PARTS = 12;
/** Kills in total, over lanes that run side by side (each its own skills root). */
const KILLS = 52;
const LANES = 2;

/** Writes `<dir>/v<n>/crashy` for every version: SKILL.md names the version, every part repeats it. */
function writeVersions(dir: string): void {
  for (let version = 0; version < VERSIONS; version += 1) {
    const skill = path.join(dir, `v${version}`, "crashy");
    fs.mkdirSync(path.join(skill, "references"), { recursive: true });
    fs.writeFileSync(path.join(skill, "SKILL.md"), `---\nname: crashy\ndescription: Version ${version}.\n---\n\n# Crashy\n`);
    for (let part = 0; part < PARTS; part += 1)
      fs.writeFileSync(path.join(skill, "references", `part-${part}.md`), `version ${version} part ${part}\n`.repeat(200));
  }
}

/** The folder is one whole version: valid, every part present and of the version SKILL.md names. */
function checkWhole(folder: string): number {
  const match = /description: Version (\d+)\./.exec(fs.readFileSync(path.join(folder, "SKILL.md"), "utf8"));
  expect(match, folder).not.toBeNull();
  const version = Number(match![1]);
  const parts = fs.readdirSync(path.join(folder, "references")).sort();
  expect(parts).toHaveLength(PARTS);
  for (let part = 0; part < PARTS; part += 1) {
    expect(fs.readFileSync(path.join(folder, "references", `part-${part}.md`), "utf8")).toBe(`version ${version} part ${part}\n`.repeat(200));
  }
  return version;
}

/**
 * Starts an installer, lets it finish `installs` installs (so the kills do not depend on the machine's speed: the
 * second install of every run is a backup), then kills it a random moment into the next one.
 */
async function killOnce(root: string, sources: string, seed: number, installs: number): Promise<void> {
  const process_ = spawn(child.command, [...child.args, "loop", root, sources, String(VERSIONS), String(seed)], { stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  process_.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<void>((resolve) => process_.once("exit", () => resolve()));
  await new Promise<void>((resolve, reject) => {
    let done = 0;
    process_.stdout.on("data", (chunk: Buffer) => {
      done += chunk.toString().split("installed").length - 1;
      if (done >= installs) resolve();
    });
    void exited.then(() => reject(new Error(`the installer exited before it was killed: ${stderr}`)));
  });
  await new Promise((resolve) => setTimeout(resolve, Math.floor(Math.random() * 40)));
  process_.kill("SIGKILL");
  await exited;
  expect(stderr).toBe("");
}

describe("SkillLibrary under SIGKILL", () => {
  it(`leaves the skill whole (old or new version, never missing) after ${KILLS} kills mid-install`, async () => {
    const versionsSeen = new Set<number>();
    let backupsChecked = 0;
    const lane = async (index: number) => {
      const root = path.join(top, `lane-${index}`);
      const sources = path.join(top, `sources-${index}`);
      writeVersions(sources);
      const first = await SkillLibrary.open({ rootDir: root });
      await first.install({ kind: "directory", path: path.join(sources, "v0", "crashy") });
      for (let kill = 0; kill < KILLS / LANES; kill += 1) {
        await killOnce(root, sources, index * 1000 + kill + 1, 1 + (kill % 3));
        const library = await SkillLibrary.open({ rootDir: root, lock: { unreadableGraceMs: 300 } });
        const folder = path.join(root, "crashy");
        expect(fs.existsSync(folder), `kill ${kill} of lane ${index}: the skill is missing`).toBe(true);
        versionsSeen.add(checkWhole(folder));
        expect((await library.validate("crashy")).validation.ok).toBe(true);
        const staging = fs.readdirSync(path.join(root, ".staging"));
        expect(staging.filter((name) => name.startsWith("trash-") || name.startsWith("swap-"))).toEqual([]);
        for (const backup of fs.existsSync(path.join(root, ".backups")) ? fs.readdirSync(path.join(root, ".backups")) : []) {
          checkWhole(path.join(root, ".backups", backup));
          backupsChecked += 1;
        }
        expect((await library.list()).map((skill) => skill.name)).toEqual(["crashy"]);
      }
    };
    await Promise.all(Array.from({ length: LANES }, (_, index) => lane(index)));
    // The children got far enough to install several versions and make backups.
    expect(versionsSeen.size).toBeGreaterThan(1);
    expect(backupsChecked).toBeGreaterThan(0);
  }, 60_000);
});

describe("SkillLibrary: two processes installing the same name", () => {
  it("with conflict fail, exactly one succeeds and the other gets the conflict; the result is whole", async () => {
    for (let round = 0; round < 4; round += 1) {
      const root = path.join(top, `race-${round}`);
      const sources = path.join(top, `race-sources-${round}`);
      writeVersions(sources);
      await SkillLibrary.open({ rootDir: root });
      const startAt = String(Date.now() + 600);
      const answers = await Promise.all(
        [1, 2].map(async (version) => {
          const { stdout } = await run(child.command, [...child.args, "once", root, path.join(sources, `v${version}`, "crashy"), startAt]);
          return { version, answer: JSON.parse(stdout) as { ok?: true; code?: string; message?: string } };
        }),
      );
      const winners = answers.filter((entry) => entry.answer.ok === true);
      const losers = answers.filter((entry) => entry.answer.ok !== true);
      expect(winners).toHaveLength(1);
      expect(losers).toHaveLength(1);
      expect(losers[0]?.answer).toMatchObject({ code: "conflict", message: expect.stringContaining("Destination already exists") });
      expect(checkWhole(path.join(root, "crashy"))).toBe(winners[0]?.version);
      expect(fs.existsSync(path.join(root, ".backups"))).toBe(false);
      expect(fs.readdirSync(path.join(root, ".staging"))).toEqual([]);
    }
  }, 30_000);
});
