/**
 * Attacks on skill installs, as a model makes them through
 * `executeToolCall` (SkillsManager) of a registry from
 * `buildBuiltinToolRegistry`:
 *
 * - a racing process flips a file of the source folder between a regular
 *   file and a symlink to a secret outside the workspace while the folder is
 *   installed (check-then-copy): the secret never lands in the skills root;
 * - a symlink as the source itself, an absolute folder outside the
 *   workspace (with a README.md), an outside archive or local repository, a
 *   repository whose skill folder is a committed symlink: refused as Read
 *   refuses them, nothing of the outside readable through `skill://`;
 * - `create` with `conflict: overwrite` (or backup) onto an installed skill
 *   that is not enabled for the session: refused, the skill unchanged;
 * - zip bombs (sizes understated in the central directory, a ratio of
 *   ~1000:1, entries sharing their data) are refused naming the cap, while
 *   the host's other tool calls keep answering; hostile entry names and
 *   symlink entries are refused.
 *
 * `ATTACK_ROUNDS` (default 12) sets how many installs race the flipping file.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type GitClient, type ToolResult, toolResultText } from "@agent-tools/core";
import { GitCliClient } from "@agent-tools/git";
import { buildBuiltinToolRegistry } from "@agent-tools/sdk";
import { afterAll, describe, expect, it } from "vitest";
import { crc32, deflatedZeros, forgeZip } from "./zip-forge.js";

type Registry = Awaited<ReturnType<typeof buildBuiltinToolRegistry>>;

const ROUNDS = Math.max(1, Number(process.env.ATTACK_ROUNDS ?? 12));
const SECRET = "-----BEGIN OPENSSH PRIVATE KEY----- attack-secret";

const temporary = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "attack-skills-install-")));
afterAll(() => fs.rmSync(temporary, { recursive: true, force: true }));

interface Scene {
  readonly base: string;
  readonly workdir: string;
  readonly root: string;
  /** Outside the workspace: `secret/id_rsa` and `notes/` (a README.md and a secret file). */
  readonly outside: string;
  readonly registry: Registry;
  call(name: string, args: Record<string, unknown>): Promise<ToolResult & { text: string }>;
}

const skillMd = (name: string, description = `The ${name} skill.`) => `---\nname: ${name}\ndescription: ${description}\n---\n\n# ${name}\n`;

/** The host's git client, except that cloning `url` clones `local` instead (a forge repository served from disk). */
function servingClone(url: string, local: string): GitClient {
  const git = new GitCliClient();
  return new Proxy(git, {
    get(client, property) {
      if (property === "clone") {
        return (source: string, into: string, options?: Parameters<GitClient["clone"]>[2]) => client.clone(source === url ? local : source, into, options);
      }
      const value = Reflect.get(client, property, client);
      return typeof value === "function" ? value.bind(client) : value;
    },
  });
}

async function scene(label: string, policy?: { allowedSkillNames: string[] }, gitClient?: GitClient): Promise<Scene> {
  const base = fs.mkdtempSync(path.join(temporary, `${label}-`));
  const workdir = path.join(base, "project");
  const dataDir = path.join(base, "data");
  const outside = path.join(base, "outside");
  fs.mkdirSync(workdir);
  fs.mkdirSync(path.join(outside, "secret"), { recursive: true });
  fs.writeFileSync(path.join(outside, "secret", "id_rsa"), SECRET);
  fs.mkdirSync(path.join(outside, "notes", ".git"), { recursive: true });
  fs.writeFileSync(path.join(outside, "notes", "README.md"), "# Notes\n\nPersonal notes of the user.\n");
  fs.writeFileSync(path.join(outside, "notes", "secret.txt"), SECRET);
  const registry = await buildBuiltinToolRegistry({
    workdir,
    dataDir,
    memory: false,
    skills: policy === undefined ? {} : { policy },
    ...(gitClient === undefined ? {} : { ports: { gitClient } }),
  });
  let calls = 0;
  const call = async (name: string, args: Record<string, unknown>) => {
    const result = await registry.executeToolCall({ id: `${name}-${(calls += 1)}`, name, arguments: args });
    return { ...result, text: toolResultText(result, "") };
  };
  // Opens the library (and seeds the built-ins) before any timing.
  expect((await call("SkillsManager", { action: "list" })).isError).toBe(false);
  return { base, workdir, root: path.join(dataDir, "skills"), outside, registry, call };
}

/** Every file below `dir` (symlinks not followed) with its bytes, and every symlink. */
function walk(dir: string): { files: Map<string, string>; symlinks: string[] } {
  const files = new Map<string, string>();
  const symlinks: string[] = [];
  const visit = (folder: string) => {
    for (const entry of fs.readdirSync(folder, { withFileTypes: true })) {
      const full = path.join(folder, entry.name);
      if (entry.isSymbolicLink()) symlinks.push(full);
      else if (entry.isDirectory()) visit(full);
      else if (entry.isFile()) files.set(full, fs.readFileSync(full, "latin1"));
    }
  };
  if (fs.existsSync(dir)) visit(dir);
  return { files, symlinks };
}

/** Fails when the skills root holds the secret or any symlink. */
function expectRootClean(root: string): void {
  const { files, symlinks } = walk(root);
  expect(symlinks).toEqual([]);
  expect([...files].filter(([, text]) => text.includes(SECRET)).map(([file]) => file)).toEqual([]);
}

/** A host process flipping `targets` between a regular file and a symlink to `secret`, through renames from `scratch`. */
function startFlipper(targets: readonly string[], secret: string, scratch: string): ChildProcess {
  const script = `
    const fs = require("node:fs");
    const path = require("node:path");
    const [secret, scratch, ...targets] = process.argv.slice(1);
    let n = 0;
    for (;;) {
      for (const target of targets) {
        const link = path.join(scratch, "l" + n);
        const file = path.join(scratch, "f" + n);
        n += 1;
        try {
          // Both prepared first: the target is a symlink only between the two renames, so a listing mostly sees a file.
          fs.symlinkSync(secret, link);
          fs.writeFileSync(file, "benign\\n");
          fs.renameSync(link, target);
          fs.renameSync(file, target);
        } catch {}
      }
    }`;
  return spawn(process.execPath, ["-e", script, secret, scratch, ...targets], { stdio: "ignore" });
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGKILL");
  await exited;
}

describe("attack: a file of the source folder flipped to a symlink while it is installed", () => {
  it(`never copies the symlink's target into the skills root (${ROUNDS} rounds)`, async () => {
    const s = await scene("flip");
    const source = path.join(s.workdir, "flippy");
    fs.mkdirSync(source);
    fs.writeFileSync(path.join(source, "SKILL.md"), skillMd("flippy"));
    const names = ["a.txt", "b.txt", "c.txt"];
    const targets = names.map((name) => path.join(source, name));
    for (const target of targets) fs.writeFileSync(target, "benign\n");
    const scratch = path.join(s.workdir, "scratch");
    fs.mkdirSync(scratch);
    const flipper = startFlipper(targets, path.join(s.outside, "secret", "id_rsa"), scratch);
    const outcomes: string[] = [];
    try {
      for (let round = 0; round < ROUNDS; round += 1) {
        const result = await s.call("SkillsManager", { action: "install", source: "flippy", conflict: "overwrite" });
        outcomes.push(result.isError ? result.text : "installed");
        expectRootClean(s.root);
        for (const name of names) {
          const read = await s.call("Read", { path: `skill://flippy/${name}` });
          expect(read.text).not.toContain(SECRET);
        }
      }
    } finally {
      await stop(flipper);
      await s.registry.close();
    }
    expect(outcomes).toHaveLength(ROUNDS);
    // A round ends installed, or refused because it met the symlink or saw the folder change: never a crash.
    expect(outcomes.filter((outcome) => outcome !== "installed" && !/is a symlink|changed while/.test(outcome))).toEqual([]);
  });
});

describe("attack: install sources that Read refuses", () => {
  it("refuses a symlink as the source folder; nothing in the skills root is a symlink", async () => {
    const s = await scene("toplink");
    fs.mkdirSync(path.join(s.workdir, "real"));
    fs.writeFileSync(path.join(s.workdir, "real", "SKILL.md"), skillMd("linked"));
    fs.symlinkSync(path.join(s.workdir, "real"), path.join(s.workdir, "linked"));
    try {
      const result = await s.call("SkillsManager", { action: "install", source: "linked" });
      expect(result.isError).toBe(true);
      expect(result.text).toContain("is a symlink");
      expectRootClean(s.root);
      expect(fs.existsSync(path.join(s.root, "linked"))).toBe(false);
    } finally {
      await s.registry.close();
    }
  });

  it("refuses an absolute folder outside the workspace (with a README.md), as Read does", async () => {
    const s = await scene("outside");
    try {
      const notes = path.join(s.outside, "notes");
      const read = await s.call("Read", { path: path.join(notes, "secret.txt") });
      expect(read.isError).toBe(true);
      const result = await s.call("SkillsManager", { action: "install", source: notes });
      expect(result.isError).toBe(true);
      expect(result.text).toContain("outside the workspace");
      expect(fs.existsSync(path.join(s.root, "notes"))).toBe(false);
      expect((await s.call("Read", { path: "skill://notes/secret.txt" })).text).not.toContain(SECRET);
      expectRootClean(s.root);
    } finally {
      await s.registry.close();
    }
  });

  it("refuses an archive and a local git repository outside the workspace", async () => {
    const s = await scene("outside-sources");
    try {
      const archive = path.join(s.outside, "notes.zip");
      const skill = new TextEncoder().encode(skillMd("zipped"));
      fs.writeFileSync(archive, forgeZip([{ name: "SKILL.md", data: skill, method: 0, declaredSize: skill.length }]));
      const zipped = await s.call("SkillsManager", { action: "install", source: archive });
      expect(zipped.isError).toBe(true);
      expect(zipped.text).toContain("outside the workspace");
      const repository = path.join(s.outside, "repo");
      fs.mkdirSync(repository);
      fs.writeFileSync(path.join(repository, "SKILL.md"), skillMd("repo"));
      fs.writeFileSync(path.join(repository, "secret.txt"), SECRET);
      const git = (...args: string[]) =>
        execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.com", ...args], { cwd: repository, stdio: "pipe" });
      git("init", "-q", "-b", "main");
      git("add", ".");
      git("commit", "-q", "-m", "secret");
      const cloned = await s.call("SkillsManager", { action: "install", source: repository, method: "git" });
      expect(cloned.isError).toBe(true);
      expect(cloned.text).toContain("outside the workspace");
      expect(fs.existsSync(path.join(s.root, "repo"))).toBe(false);
      expectRootClean(s.root);
    } finally {
      await s.registry.close();
    }
  });

  it("refuses a repository folder that is a committed symlink, and touches nothing it points to", async () => {
    // The model names a folder of a forge repository; the host's git client fetches it (here: from a local repository).
    const remote = fs.mkdtempSync(path.join(temporary, "remote-"));
    const forgeUrl = "https://github.com/attacker/skills.git";
    const s = await scene("gitlink", undefined, servingClone(forgeUrl, remote));
    try {
      fs.symlinkSync(path.join(s.outside, "notes"), path.join(remote, "notes"));
      const git = (...args: string[]) => execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.com", ...args], { cwd: remote, stdio: "pipe" });
      git("init", "-q", "-b", "main");
      git("add", ".");
      git("commit", "-q", "-m", "link");
      const result = await s.call("SkillsManager", { action: "install", source: "https://github.com/attacker/skills/tree/main/notes" });
      expect(result.isError).toBe(true);
      expect(result.text).toContain("is a symlink");
      expect(fs.existsSync(path.join(s.outside, "notes", ".git"))).toBe(true);
      expect((await s.call("Read", { path: "skill://notes/secret.txt" })).text).not.toContain(SECRET);
      expectRootClean(s.root);
    } finally {
      await s.registry.close();
    }
  });
});

describe("attack: create over a skill the session may not use", () => {
  it.each(["overwrite", "backup"])("refuses create with conflict %s and leaves the skill as it was", async (conflict) => {
    const s = await scene(`create-${conflict}`, { allowedSkillNames: ["ok"] });
    try {
      fs.mkdirSync(path.join(s.root, "hidden"), { recursive: true });
      fs.writeFileSync(path.join(s.root, "hidden", "SKILL.md"), skillMd("hidden", "Not for this session."));
      const result = await s.call("SkillsManager", { action: "create", name: "hidden", description: "Taken over.", conflict });
      expect(result.isError).toBe(true);
      expect(result.text).toContain('Skill "hidden" is installed but not enabled for this session');
      expect(fs.readFileSync(path.join(s.root, "hidden", "SKILL.md"), "utf8")).toContain("Not for this session.");
      expect(fs.existsSync(path.join(s.root, ".backups"))).toBe(false);
      expect((await s.call("Read", { path: "skill://hidden/SKILL.md" })).isError).toBe(true);
    } finally {
      await s.registry.close();
    }
  });
});

/** Installs `archive` while a Read runs in a loop; returns the install's result and the slowest Read. */
async function installWhileReading(s: Scene, archive: string): Promise<{ result: ToolResult & { text: string }; slowestReadMs: number }> {
  fs.writeFileSync(path.join(s.workdir, "small.txt"), "small\n");
  let settled = false;
  const install = s.call("SkillsManager", { action: "install", source: archive }).finally(() => {
    settled = true;
  });
  let slowest = 0;
  while (!settled) {
    const started = performance.now();
    const read = await s.call("Read", { path: "small.txt" });
    slowest = Math.max(slowest, performance.now() - started);
    expect(read.isError).toBe(false);
  }
  return { result: await install, slowestReadMs: slowest };
}

describe("attack: zip bombs", () => {
  it("refuses an archive whose directory understates its sizes, naming the cap, while other tool calls keep answering", async () => {
    const s = await scene("bomb");
    try {
      // 160 entries of 32 MiB of zeros each (~5 GB real), each declared as 16 bytes: a ~5 MB archive.
      const zeros = deflatedZeros(32 * 1024 * 1024);
      const entries = [{ name: "bomb/SKILL.md", data: new TextEncoder().encode(skillMd("bomb")), method: 0, declaredSize: skillMd("bomb").length }];
      for (let index = 0; index < 160; index += 1) entries.push({ name: `bomb/z${index}.bin`, data: zeros, method: 8, declaredSize: 16 });
      fs.writeFileSync(path.join(s.workdir, "bomb.zip"), forgeZip(entries));
      const { result, slowestReadMs } = await installWhileReading(s, "bomb.zip");
      expect(result.isError).toBe(true);
      expect(result.text).toContain("declared size of 16 bytes (its size cap)");
      expect(slowestReadMs).toBeLessThan(2_000);
      expectRootClean(s.root);
      expect(fs.existsSync(path.join(s.root, "bomb"))).toBe(false);
    } finally {
      await s.registry.close();
    }
  });

  it("refuses an entry past the compression-ratio cap and entries sharing their data", async () => {
    const s = await scene("ratio");
    try {
      const skill = new TextEncoder().encode(skillMd("ratio"));
      const head = { name: "ratio/SKILL.md", data: skill, method: 0, declaredSize: skill.length };
      const zeros = { data: deflatedZeros(3_000_000), declaredSize: 3_000_000, crc: crc32(new Uint8Array(3_000_000)) };
      fs.writeFileSync(path.join(s.workdir, "ratio.zip"), forgeZip([head, { name: "ratio/zeros.bin", ...zeros }]));
      const ratio = await s.call("SkillsManager", { action: "install", source: "ratio.zip" });
      expect(ratio.isError).toBe(true);
      expect(ratio.text).toContain("compression-ratio cap");
      const shared = { data: deflatedZeros(4096), declaredSize: 4096, crc: crc32(new Uint8Array(4096)) };
      fs.writeFileSync(
        path.join(s.workdir, "shared.zip"),
        forgeZip([head, { name: "ratio/a.bin", ...shared }, { name: "ratio/b.bin", ...shared, sharesDataOf: 1 }]),
      );
      const overlapping = await s.call("SkillsManager", { action: "install", source: "shared.zip" });
      expect(overlapping.isError).toBe(true);
      expect(overlapping.text).toContain("share their data");
      expect(fs.existsSync(path.join(s.root, "ratio"))).toBe(false);
    } finally {
      await s.registry.close();
    }
  });

  it.each([
    ["../evil.md", "climbs out"],
    ["/tmp/evil.md", "is absolute"],
    ["C:/evil.md", "is absolute"],
    ["pack\\..\\..\\evil.md", "backslash"],
  ])("refuses the entry name %j and writes nothing outside", async (name, reason) => {
    const s = await scene("names");
    try {
      const skill = new TextEncoder().encode(skillMd("pack"));
      fs.writeFileSync(
        path.join(s.workdir, "names.zip"),
        forgeZip([
          { name: "pack/SKILL.md", data: skill, method: 0, declaredSize: skill.length },
          { name, data: new TextEncoder().encode("evil"), method: 0, declaredSize: 4 },
        ]),
      );
      const result = await s.call("SkillsManager", { action: "install", source: "names.zip" });
      expect(result.isError).toBe(true);
      expect(result.text).toContain(reason);
      expect([...walk(s.base).files.keys()].filter((file) => file.endsWith("evil.md"))).toEqual([]);
      expect(fs.existsSync(path.join(s.root, "pack"))).toBe(false);
    } finally {
      await s.registry.close();
    }
  });

  it.each([
    ["pack/notes.md", "pack/NOTES.md"],
    ["pack/caf\u00e9.md", "pack/cafe\u0301.md"],
    ["pack/data", "pack/DATA/inner.md"],
  ])("refuses entries %j and %j, one file on a case-insensitive or normalising file system", async (first, second) => {
    const s = await scene("folded-names");
    try {
      const skill = new TextEncoder().encode(skillMd("pack"));
      const data = new TextEncoder().encode("text");
      fs.writeFileSync(
        path.join(s.workdir, "folded.zip"),
        forgeZip([
          { name: "pack/SKILL.md", data: skill, method: 0, declaredSize: skill.length },
          { name: first, data, method: 0, declaredSize: data.length },
          { name: second, data, method: 0, declaredSize: data.length },
        ]),
      );
      const result = await s.call("SkillsManager", { action: "install", source: "folded.zip" });
      expect(result.isError).toBe(true);
      expect(result.text).toMatch(/differ only by case|both as a file and as a folder/);
      expect(fs.existsSync(path.join(s.root, "pack"))).toBe(false);
    } finally {
      await s.registry.close();
    }
  });

  it("refuses a symlink entry", async () => {
    const s = await scene("symlink-entry");
    try {
      const skill = new TextEncoder().encode(skillMd("pack"));
      const target = new TextEncoder().encode(path.join(s.outside, "secret", "id_rsa"));
      fs.writeFileSync(
        path.join(s.workdir, "link.zip"),
        forgeZip([
          { name: "pack/SKILL.md", data: skill, method: 0, declaredSize: skill.length },
          { name: "pack/key", data: target, method: 0, declaredSize: target.length, mode: 0o120777 },
        ]),
      );
      const result = await s.call("SkillsManager", { action: "install", source: "link.zip" });
      expect(result.isError).toBe(true);
      expect(result.text).toContain("pack/key is a symlink");
      expectRootClean(s.root);
    } finally {
      await s.registry.close();
    }
  });
});
