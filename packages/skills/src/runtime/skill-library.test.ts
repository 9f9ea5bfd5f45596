import fs from "node:fs";
import path from "node:path";
import { unzipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { skillLibraryCases, skillMd, stagingEntries } from "./__fixtures__/skill-library-cases.js";
import { BUILTIN_SKILLS } from "./builtin-skills.js";
import { SkillLibrary } from "./skill-library.js";

const { fresh, sourceFolder } = skillLibraryCases();

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
