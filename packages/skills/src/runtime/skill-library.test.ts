import { execFileSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { GitCliClient } from "@agent-tools/git";
import { unzipSync, zipSync } from "fflate";
import { afterAll, describe, expect, it } from "vitest";
import { BUILTIN_SKILLS } from "./builtin-skills.js";
import { SkillLibrary } from "./skill-library.js";

const top = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "agent-tools-skill-library-")));
afterAll(() => fs.rmSync(top, { recursive: true, force: true }));
let serial = 0;
const fresh = () => path.join(top, `case-${(serial += 1)}`);
const text = (value: string) => new TextEncoder().encode(value);
const skillMd = (name: string, description = "Does things.", body = "# Body\n") => `---\nname: ${name}\ndescription: ${description}\n---\n\n${body}`;

/** Writes a skill folder outside the library and returns its path. */
function sourceFolder(name: string, files: Record<string, string>): string {
  const dir = path.join(top, "sources", `${(serial += 1)}`, name);
  for (const [file, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), content);
  }
  return dir;
}
const stagingEntries = (root: string) => (fs.existsSync(path.join(root, ".staging")) ? fs.readdirSync(path.join(root, ".staging")) : []);

describe("SkillLibrary: built-ins", () => {
  it("seeds both built-ins as valid skills, only when missing or different", async () => {
    const root = fresh();
    const library = await SkillLibrary.open({ rootDir: root });
    expect(await library.seedBuiltins()).toEqual(["skills-creator", "skills-installer"]);
    const listed = await library.list();
    expect(listed.map((skill) => [skill.name, skill.builtIn, skill.valid, skill.issues])).toEqual([
      ["skills-creator", true, true, []],
      ["skills-installer", true, true, []],
    ]);
    expect(listed[0]?.description).toContain("How to write a good skill");
    expect(await library.seedBuiltins()).toEqual([]);
    fs.appendFileSync(path.join(root, "skills-creator", "SKILL.md"), "changed");
    fs.writeFileSync(path.join(root, "skills-installer", "extra.txt"), "x");
    expect(await library.seedBuiltins()).toEqual(["skills-creator", "skills-installer"]);
    expect(fs.readFileSync(path.join(root, "skills-creator", "SKILL.md"), "utf8")).toBe(BUILTIN_SKILLS[0]?.files["SKILL.md"]);
    expect(fs.existsSync(path.join(root, "skills-installer", "extra.txt"))).toBe(false);
    expect(stagingEntries(root)).toEqual([]);
  });

  it("never overwrites, creates or deletes a built-in", async () => {
    const library = await SkillLibrary.open({ rootDir: fresh() });
    await library.seedBuiltins();
    const source = sourceFolder("skills-creator", { "SKILL.md": skillMd("skills-creator") });
    await expect(library.install({ kind: "directory", path: source }, { conflict: "overwrite" })).rejects.toMatchObject({ code: "permission_denied" });
    await expect(library.create({ name: "skills-installer", description: "x", conflict: "overwrite" })).rejects.toMatchObject({ code: "permission_denied" });
    await expect(library.delete("skills-creator")).rejects.toMatchObject({ code: "permission_denied", message: expect.stringContaining("built-in") });
    expect(fs.readFileSync(path.join(library.rootDir, "skills-creator", "SKILL.md"), "utf8")).toBe(BUILTIN_SKILLS[0]?.files["SKILL.md"]);
  });
});

describe("SkillLibrary: install", () => {
  it("installs a folder, renames it after its metadata name, and lists it", async () => {
    const library = await SkillLibrary.open({ rootDir: fresh() });
    const source = sourceFolder("some-folder", { "SKILL.md": skillMd("demo"), "scripts/run.sh": "#!/bin/sh\necho\n" });
    const change = await library.install({ kind: "directory", path: source });
    expect(change).toEqual({
      action: "installed",
      name: "demo",
      description: "Does things.",
      path: path.join(library.rootDir, "demo"),
      conflict: "backup",
      previous: "none",
    });
    expect(fs.readFileSync(path.join(library.rootDir, "demo", "scripts", "run.sh"), "utf8")).toBe("#!/bin/sh\necho\n");
    expect((await library.list()).map((skill) => [skill.name, skill.builtIn, skill.valid])).toEqual([["demo", false, true]]);
    expect(stagingEntries(library.rootDir)).toEqual([]);
  });

  it("handles an existing skill by conflict mode: fail, overwrite, backup (the default)", async () => {
    const root = fresh();
    const now = Date.UTC(2026, 0, 2, 3, 4, 5, 6);
    const library = await SkillLibrary.open({ rootDir: root, now: () => now });
    await library.install({ kind: "directory", path: sourceFolder("demo", { "SKILL.md": skillMd("demo", "First.") }) });
    const second = sourceFolder("demo", { "SKILL.md": skillMd("demo", "Second.") });
    await expect(library.install({ kind: "directory", path: second }, { conflict: "fail" })).rejects.toMatchObject({
      code: "conflict",
      message: expect.stringMatching(/^Destination already exists: .*conflict "backup".*conflict "overwrite"/),
    });
    expect(fs.readFileSync(path.join(root, "demo", "SKILL.md"), "utf8")).toContain("First.");
    const overwritten = await library.install({ kind: "directory", path: second }, { conflict: "overwrite" });
    expect(overwritten).toMatchObject({ previous: "overwritten", conflict: "overwrite", description: "Second." });
    expect(fs.existsSync(path.join(root, ".backups"))).toBe(false);
    const third = sourceFolder("demo", { "SKILL.md": skillMd("demo", "Third.") });
    const backedUp = await library.install({ kind: "directory", path: third });
    expect(backedUp).toMatchObject({ previous: "backed_up", conflict: "backup", description: "Third." });
    if (backedUp.previous !== "backed_up") throw new Error("unreachable");
    expect(path.dirname(backedUp.backupPath)).toBe(path.join(root, ".backups"));
    expect(path.basename(backedUp.backupPath)).toMatch(/^demo-20260102T030405006Z-[0-9a-f]{6}$/);
    expect(fs.readFileSync(path.join(backedUp.backupPath, "SKILL.md"), "utf8")).toContain("Second.");
    expect(fs.readFileSync(path.join(root, "demo", "SKILL.md"), "utf8")).toContain("Third.");
    expect(stagingEntries(root)).toEqual([]);
    expect((await library.list()).map((skill) => skill.name)).toEqual(["demo"]);
  });

  it("refuses an invalid skill with every issue, installing nothing", async () => {
    const library = await SkillLibrary.open({ rootDir: fresh() });
    const source = sourceFolder("bad", { "SKILL.md": skillMd("bad"), "run.py": "print(1)\n", "CHANGELOG.md": "x" });
    const error = await library.install({ kind: "directory", path: source }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: "invalid_arguments", message: expect.stringContaining('Skill "bad" has 2 problems') });
    expect((error as Error).message).toContain("shebang_missing");
    expect((error as Error).message).toContain("forbidden_doc");
    expect(await library.list()).toEqual([]);
    expect(stagingEntries(library.rootDir)).toEqual([]);
    const nameless = sourceFolder("nameless", { "SKILL.md": "no frontmatter" });
    await expect(library.install({ kind: "directory", path: nameless })).rejects.toMatchObject({ code: "invalid_arguments" });
  });

  it("requires the staged name to equal the expected one; installs archive bytes", async () => {
    const library = await SkillLibrary.open({ rootDir: fresh() });
    const bytes = zipSync({ "pack/SKILL.md": text(skillMd("pack")) });
    await expect(library.installArchive(bytes, { expectedName: "other" })).rejects.toMatchObject({
      code: "invalid_arguments",
      message: 'The staged skill is named "pack", not "other"; nothing was installed.',
    });
    expect(await library.installArchive(bytes, { expectedName: "pack" })).toMatchObject({ name: "pack", previous: "none" });
    const topLevel = zipSync({ "SKILL.md": text(skillMd("flat")) });
    expect(await library.installArchive(topLevel)).toMatchObject({ name: "flat" });
    expect((await library.list()).map((skill) => skill.name)).toEqual(["flat", "pack"]);
  });

  it("stops before the swap when the signal aborts", async () => {
    const library = await SkillLibrary.open({ rootDir: fresh() });
    const source = sourceFolder("demo", { "SKILL.md": skillMd("demo") });
    await expect(library.install({ kind: "directory", path: source }, { signal: AbortSignal.abort() })).rejects.toMatchObject({ name: "AbortError" });
    expect(await library.list()).toEqual([]);
  });

  it("installs from a git repository's subdirectory and from a URL", async () => {
    const repository = path.join(top, "repository");
    fs.mkdirSync(path.join(repository, "skills", "gitty"), { recursive: true });
    fs.writeFileSync(path.join(repository, "skills", "gitty", "SKILL.md"), skillMd("gitty", "From git."));
    const git = (...args: string[]) =>
      execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.com", ...args], { cwd: repository, stdio: "pipe" });
    git("init", "-q", "-b", "main");
    git("add", ".");
    git("commit", "-q", "-m", "skill");
    const library = await SkillLibrary.open({ rootDir: fresh(), gitClient: new GitCliClient() });
    expect(await library.install({ kind: "git", url: repository, ref: "main", subdirectory: "skills/gitty" })).toMatchObject({
      name: "gitty",
      description: "From git.",
    });
    const body = zipSync({ "web/SKILL.md": text(skillMd("web", "From the web.")) });
    const server = http.createServer((_request, response) => response.writeHead(200, { "content-type": "application/zip" }).end(body));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/web.zip`;
      expect(await library.install({ kind: "download", url })).toMatchObject({ name: "web", description: "From the web." });
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
    expect((await library.list()).map((skill) => skill.name)).toEqual(["gitty", "web"]);
    expect(stagingEntries(library.rootDir)).toEqual([]);
  });

  it("reports a git source as unavailable without a git client", async () => {
    const library = await SkillLibrary.open({ rootDir: fresh() });
    await expect(library.install({ kind: "git", url: "https://example.invalid/x.git", ref: "main", subdirectory: "" })).rejects.toMatchObject({
      code: "unavailable",
    });
  });
});

describe("SkillLibrary: create, validate, package, delete", () => {
  it("creates from the template with extra files; fails on an existing name by default", async () => {
    const library = await SkillLibrary.open({ rootDir: fresh() });
    const change = await library.create({
      name: "maker",
      description: 'Says "hi" loudly.',
      files: [
        { path: "scripts/hi.sh", content: "#!/bin/sh\necho hi\n" },
        { path: "references/notes.md", content: "notes" },
      ],
    });
    expect(change).toMatchObject({ action: "created", name: "maker", conflict: "fail", previous: "none", description: 'Says "hi" loudly.' });
    const skillFile = fs.readFileSync(path.join(library.rootDir, "maker", "SKILL.md"), "utf8");
    expect(skillFile.startsWith('---\nname: maker\ndescription: "Says \\"hi\\" loudly."\n---\n\n#')).toBe(true);
    expect(fs.statSync(path.join(library.rootDir, "maker", "scripts", "hi.sh")).mode & 0o111).not.toBe(0);
    expect(fs.readFileSync(path.join(library.rootDir, "maker", "references", "notes.md"), "utf8")).toBe("notes");
    await expect(library.create({ name: "maker", description: "Again." })).rejects.toMatchObject({ code: "conflict" });
    expect(await library.create({ name: "maker", description: "Again.", body: "# New\n", conflict: "overwrite" })).toMatchObject({ previous: "overwritten" });
    expect(fs.readFileSync(path.join(library.rootDir, "maker", "SKILL.md"), "utf8")).toBe('---\nname: maker\ndescription: "Again."\n---\n\n# New\n');
    expect(fs.existsSync(path.join(library.rootDir, "maker", "scripts"))).toBe(false);
  });

  it("refuses bad names, bad files and invalid descriptions", async () => {
    const library = await SkillLibrary.open({ rootDir: fresh() });
    await expect(library.create({ name: "Bad Name", description: "x" })).rejects.toMatchObject({
      code: "invalid_arguments",
      message: expect.stringContaining('Try "bad-name"'),
    });
    await expect(library.create({ name: "ok", description: "x", files: [{ path: "SKILL.md", content: "x" }] })).rejects.toMatchObject({
      code: "invalid_arguments",
    });
    await expect(library.create({ name: "ok", description: "x", files: [{ path: "../escape.txt", content: "x" }] })).rejects.toMatchObject({
      code: "invalid_arguments",
    });
    await expect(library.create({ name: "ok", description: "uses <tags>" })).rejects.toMatchObject({
      code: "invalid_arguments",
      message: expect.stringContaining("description_invalid"),
    });
    await expect(library.create({ name: "ok", description: "x", files: [{ path: "run.py", content: "print(1)" }] })).rejects.toMatchObject({
      message: expect.stringContaining("shebang_missing"),
    });
    expect(await library.list()).toEqual([]);
    expect(fs.existsSync(path.join(library.rootDir, "..", "escape.txt"))).toBe(false);
    expect(stagingEntries(library.rootDir)).toEqual([]);
  });

  it("validates an installed skill and reports problems added later", async () => {
    const library = await SkillLibrary.open({ rootDir: fresh() });
    await library.create({ name: "checked", description: "Checked." });
    expect((await library.validate("checked")).validation.ok).toBe(true);
    fs.writeFileSync(path.join(library.rootDir, "checked", "README.md"), "extra");
    fs.symlinkSync("/etc/hosts", path.join(library.rootDir, "checked", "hosts"));
    const result = await library.validate("checked");
    expect(result.baseDir).toBe(path.join(library.rootDir, "checked"));
    expect(result.validation.issues.map((issue) => issue.code).sort()).toEqual(["forbidden_doc", "symlink"]);
    expect((await library.list())[0]).toMatchObject({ name: "checked", valid: false, description: "Checked." });
    await expect(library.validate("absent")).rejects.toMatchObject({ code: "not_found", message: expect.stringContaining('action "list"') });
    await expect(library.validate("../etc")).rejects.toMatchObject({ code: "invalid_arguments" });
    await expect(library.validate(".staging")).rejects.toMatchObject({ code: "invalid_arguments" });
    await expect(library.package("checked")).rejects.toMatchObject({ code: "invalid_arguments", message: expect.stringContaining("symlink") });
  });

  it("packages a valid skill to .packages/<name>.skill", async () => {
    const library = await SkillLibrary.open({ rootDir: fresh() });
    await library.create({ name: "packed", description: "Packed.", files: [{ path: "scripts/a.sh", content: "#!/bin/sh\n" }] });
    const file = await library.package("packed");
    expect(file).toBe(path.join(library.rootDir, ".packages", "packed.skill"));
    expect(Object.keys(unzipSync(fs.readFileSync(file))).sort()).toEqual(["packed/SKILL.md", "packed/scripts/a.sh"]);
    expect(fs.readdirSync(path.join(library.rootDir, ".packages"))).toEqual(["packed.skill"]);
    expect((await library.list()).map((skill) => skill.name)).toEqual(["packed"]);
    // The package installs again under a second root.
    const other = await SkillLibrary.open({ rootDir: fresh() });
    expect(await other.install({ kind: "archive", path: file })).toMatchObject({ name: "packed" });
  });

  it("deletes a skill; a missing one is not_found", async () => {
    const library = await SkillLibrary.open({ rootDir: fresh() });
    await library.create({ name: "gone", description: "Gone." });
    expect(await library.delete("gone")).toEqual({ name: "gone", path: path.join(library.rootDir, "gone") });
    expect(fs.existsSync(path.join(library.rootDir, "gone"))).toBe(false);
    expect(stagingEntries(library.rootDir)).toEqual([]);
    await expect(library.delete("gone")).rejects.toMatchObject({ code: "not_found" });
  });
});

describe("SkillLibrary: readFile", () => {
  it("pages lines from a 0-based offset, 200 by default", async () => {
    const library = await SkillLibrary.open({ rootDir: fresh() });
    const lines = Array.from({ length: 450 }, (_, index) => `line ${index}`).join("\n");
    await library.create({ name: "reader", description: "Reads.", files: [{ path: "references/long.md", content: `${lines}\n` }] });
    const first = await library.readFile("reader", "references/long.md");
    expect(first).toMatchObject({ name: "reader", path: "references/long.md", offset: 0, lineCount: 200, totalLines: 450, nextOffset: 200 });
    expect(first.content.split("\n")[199]).toBe("line 199");
    const last = await library.readFile("reader", "./references/long.md", { offset: 400, length: 100 });
    expect(last).toMatchObject({ offset: 400, lineCount: 50, totalLines: 450 });
    expect(last.nextOffset).toBeUndefined();
    expect(last.content.endsWith("line 449")).toBe(true);
    expect((await library.readFile("reader", "SKILL.md", { length: 2 })).content).toBe("---\nname: reader");
    await expect(library.readFile("reader", "references/long.md", { offset: 450 })).rejects.toMatchObject({ code: "out_of_bounds" });
  });

  it("refuses missing files with a hint, folders, symlinks, binaries, unsafe paths and unknown skills", async () => {
    const library = await SkillLibrary.open({ rootDir: fresh() });
    await library.create({ name: "reader", description: "Reads." });
    const base = path.join(library.rootDir, "reader");
    fs.writeFileSync(path.join(base, "blob.bin"), new Uint8Array([1, 0, 2]));
    fs.writeFileSync(path.join(base, "latin.txt"), new Uint8Array([0xe9]));
    fs.symlinkSync("/etc/hosts", path.join(base, "hosts"));
    fs.symlinkSync("/etc", path.join(base, "etc"));
    await expect(library.readFile("reader", "nope.md")).rejects.toMatchObject({
      code: "not_found",
      message: expect.stringContaining("Glob on skill://reader/"),
    });
    await expect(library.readFile("reader", "blob.bin")).rejects.toMatchObject({ code: "binary_file" });
    await expect(library.readFile("reader", "latin.txt")).rejects.toMatchObject({ code: "not_utf8" });
    await expect(library.readFile("reader", "hosts")).rejects.toMatchObject({ code: "permission_denied" });
    await expect(library.readFile("reader", "etc/hosts")).rejects.toMatchObject({ code: "permission_denied" });
    await expect(library.readFile("reader", "../reader/SKILL.md")).rejects.toMatchObject({ code: "invalid_path" });
    await expect(library.readFile("reader", "/etc/hosts")).rejects.toMatchObject({ code: "invalid_path" });
    fs.mkdirSync(path.join(base, "folder"));
    await expect(library.readFile("reader", "folder")).rejects.toMatchObject({ code: "not_a_file" });
    await expect(library.readFile("missing", "SKILL.md")).rejects.toMatchObject({ code: "not_found", message: expect.stringContaining('action "list"') });
  });
});

describe("SkillLibrary: staging", () => {
  it("purges staging older than 24 h and trash on open, keeping fresh staging", async () => {
    const root = fresh();
    const staging = path.join(root, ".staging");
    fs.mkdirSync(path.join(staging, "old-1-0", "x"), { recursive: true });
    fs.mkdirSync(path.join(staging, "fresh-2-0"), { recursive: true });
    fs.mkdirSync(path.join(staging, "trash-demo-x"), { recursive: true });
    const old = new Date(Date.now() - 25 * 60 * 60 * 1000);
    fs.utimesSync(path.join(staging, "old-1-0"), old, old);
    await SkillLibrary.open({ rootDir: root });
    expect(fs.readdirSync(staging)).toEqual(["fresh-2-0"]);
    const later = await SkillLibrary.open({ rootDir: root, now: () => Date.now() + 25 * 60 * 60 * 1000 });
    expect(fs.readdirSync(staging)).toEqual([]);
    expect(await later.purgeStaging()).toBe(0);
  });

  it("finishes a swap a crash interrupted: the new version when staged, else the old one back", async () => {
    const root = fresh();
    const staging = path.join(root, ".staging");
    fs.mkdirSync(path.join(staging, "demo-1-0", "staged", "demo"), { recursive: true });
    fs.writeFileSync(path.join(staging, "demo-1-0", "staged", "demo", "SKILL.md"), skillMd("demo", "New."));
    fs.mkdirSync(path.join(staging, "trash-demo-a"));
    fs.writeFileSync(path.join(staging, "trash-demo-a", "SKILL.md"), skillMd("demo", "Old."));
    fs.writeFileSync(
      path.join(staging, "swap-a.json"),
      JSON.stringify({ name: "demo", staged: path.join(staging, "demo-1-0", "staged", "demo"), old: path.join(staging, "trash-demo-a") }),
    );
    fs.mkdirSync(path.join(root, ".backups", "other-b"), { recursive: true });
    fs.writeFileSync(path.join(root, ".backups", "other-b", "SKILL.md"), skillMd("other", "Old other."));
    fs.writeFileSync(
      path.join(staging, "swap-b.json"),
      JSON.stringify({ name: "other", staged: path.join(staging, "gone"), old: path.join(root, ".backups", "other-b") }),
    );
    const library = await SkillLibrary.open({ rootDir: root });
    expect((await library.list()).map((skill) => [skill.name, skill.description, skill.valid])).toEqual([
      ["demo", "New.", true],
      ["other", "Old other.", true],
    ]);
    expect(fs.readdirSync(staging)).toEqual(["demo-1-0"]);
  });
});
