import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { unzipSync, zipSync } from "fflate";
import { afterAll, describe, expect, it } from "vitest";
import { SKILL_LIMITS } from "../domain/skill-types.js";
import { extractSkillArchive, writeSkillArchive } from "./skill-archive.js";

const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "agent-tools-skill-archive-")));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
const text = (value: string) => new TextEncoder().encode(value);
let serial = 0;
const dest = () => path.join(root, `out-${(serial += 1)}`);
const SKILL = "---\nname: demo\ndescription: A demo.\n---\n\n# Demo\n";

/** Every file below `dir`, relative, sorted. */
function tree(dir: string): string[] {
  return (fs.readdirSync(dir, { recursive: true }) as string[]).filter((entry) => fs.statSync(path.join(dir, entry)).isFile()).sort();
}

/** Sets the declared uncompressed size of every central directory entry. */
function lieAboutSizes(bytes: Uint8Array, size: number): Uint8Array {
  const copy = bytes.slice();
  const view = new DataView(copy.buffer);
  for (let offset = 0; offset + 4 <= copy.length; offset += 1) {
    if (view.getUint32(offset, true) === 0x02014b50) view.setUint32(offset + 24, size, true);
  }
  return copy;
}

describe("extractSkillArchive", () => {
  it("returns the single top-level folder holding the skill and keeps executable bits", async () => {
    const bytes = zipSync({
      "demo/SKILL.md": text(SKILL),
      "demo/scripts/run.sh": [text("#!/bin/sh\necho hi\n"), { os: 3, attrs: 0o100755 << 16 }],
      "demo/references/": new Uint8Array(0),
    });
    const out = dest();
    const folder = await extractSkillArchive(bytes, out);
    expect(folder).toBe(path.join(out, "demo"));
    expect(tree(folder)).toEqual(["SKILL.md", "scripts/run.sh"]);
    expect(fs.statSync(path.join(folder, "references")).isDirectory()).toBe(true);
    expect(fs.statSync(path.join(folder, "scripts/run.sh")).mode & 0o777).toBe(0o755);
    expect(fs.statSync(path.join(folder, "SKILL.md")).mode & 0o777).toBe(0o644);
    expect(fs.readFileSync(path.join(folder, "SKILL.md"), "utf8")).toBe(SKILL);
  });

  it("accepts the skill's files at the top level, and a lone folder beside a top-level SKILL.md", async () => {
    const out = dest();
    expect(await extractSkillArchive(zipSync({ "SKILL.md": text(SKILL), "scripts/a.py": text("#!/usr/bin/env python3\n") }), out)).toBe(out);
    const second = dest();
    expect(await extractSkillArchive(zipSync({ "SKILL.md": text(SKILL) }), second)).toBe(second);
    const third = dest();
    expect(await extractSkillArchive(zipSync({ "scripts/a.sh": text("#!/bin/sh\n"), "other/b.md": text("b") }), third)).toBe(third);
  });

  it("skips macOS clutter", async () => {
    const out = dest();
    const folder = await extractSkillArchive(
      zipSync({ "demo/SKILL.md": text(SKILL), "__MACOSX/demo/._SKILL.md": text("x"), "demo/.DS_Store": text("x") }),
      out,
    );
    expect(folder).toBe(path.join(out, "demo"));
    expect(tree(out)).toEqual(["demo/SKILL.md"]);
  });

  it.each([
    ["../evil.md", "climbs out"],
    ["demo/../../evil.md", "climbs out"],
    ["/etc/evil.md", "is absolute"],
    ["C:/evil.md", "is absolute"],
    ["demo\\evil.md", "backslash"],
    ["demo/a\0b.md", "NUL"],
    ["demo//b.md", "empty or . segment"],
    ["demo/./b.md", "empty or . segment"],
  ])("refuses the entry %j and writes nothing", async (name, reason) => {
    const out = dest();
    await expect(extractSkillArchive(zipSync({ "demo/SKILL.md": text(SKILL), [name]: text("x") }), out)).rejects.toMatchObject({
      code: "invalid_arguments",
      message: expect.stringContaining(reason),
    });
    expect(fs.existsSync(out)).toBe(false);
    expect(fs.existsSync(path.join(root, "evil.md"))).toBe(false);
  });

  it("refuses symlink entries (Unix mode in the external attributes), also from the zip CLI", async () => {
    const bytes = zipSync({ "demo/SKILL.md": text(SKILL), "demo/link": [text("/etc/passwd"), { os: 3, attrs: 0o120777 << 16 }] });
    await expect(extractSkillArchive(bytes, dest())).rejects.toMatchObject({
      code: "invalid_arguments",
      message: expect.stringContaining("demo/link is a symlink"),
    });
    const source = path.join(root, "cli", "demo");
    fs.mkdirSync(source, { recursive: true });
    fs.writeFileSync(path.join(source, "SKILL.md"), SKILL);
    fs.symlinkSync("/etc/passwd", path.join(source, "passwd"));
    let cliZip: Buffer | undefined;
    try {
      execFileSync("zip", ["-q", "-y", "-r", path.join(root, "cli.zip"), "demo"], { cwd: path.dirname(source) });
      cliZip = fs.readFileSync(path.join(root, "cli.zip"));
    } catch {
      // no zip CLI on this machine: the fflate case above covers the rule
    }
    if (cliZip !== undefined) await expect(extractSkillArchive(cliZip, dest())).rejects.toMatchObject({ message: expect.stringContaining("symlink") });
  });

  it("refuses special-file entries, a name both file and folder, and nesting past folderMaxDepth", async () => {
    await expect(
      extractSkillArchive(zipSync({ "demo/SKILL.md": text(SKILL), "demo/fifo": [text(""), { os: 3, attrs: 0o010644 << 16 }] }), dest()),
    ).rejects.toMatchObject({
      message: expect.stringContaining("demo/fifo is a special file"),
    });
    await expect(extractSkillArchive(zipSync({ "demo/SKILL.md": text(SKILL), "demo/a": text("a"), "demo/a/b": text("b") }), dest())).rejects.toMatchObject({
      message: expect.stringContaining("demo/a both as a file and as a folder"),
    });
    const deep = `${Array.from({ length: SKILL_LIMITS.folderMaxDepth }, () => "d").join("/")}/f.txt`;
    await expect(extractSkillArchive(zipSync({ "SKILL.md": text(SKILL), [deep]: text("x") }), dest())).rejects.toMatchObject({
      message: expect.stringContaining(`nested more than ${SKILL_LIMITS.folderMaxDepth} folders deep`),
    });
  });

  it("refuses duplicates, non-zip bytes and damaged entries", async () => {
    const bytes = zipSync({ "demo/SKILL.md": text(SKILL) });
    await expect(extractSkillArchive(text("<html>not a zip</html>"), dest())).rejects.toMatchObject({ message: expect.stringContaining("not a zip file") });
    await expect(extractSkillArchive(lieAboutSizes(bytes, 5), dest())).rejects.toMatchObject({ message: expect.stringContaining("declared size") });
    const doubled = zipSync({ "demo/SKILL.md": text(SKILL), "demo/SKILL.mX": text(SKILL) });
    const patched = doubled.slice();
    // Rename the second entry (local header and central directory) to the first one's name.
    const marker = text("demo/SKILL.mX");
    for (let offset = 0; offset + marker.length <= patched.length; offset += 1) {
      if (marker.every((byte, index) => patched[offset + index] === byte)) patched[offset + marker.length - 1] = "d".charCodeAt(0);
    }
    await expect(extractSkillArchive(patched, dest())).rejects.toMatchObject({ message: expect.stringContaining("twice") });
  });

  it("refuses more than skillMaxFiles files", async () => {
    const files: Record<string, Uint8Array> = { "demo/SKILL.md": text(SKILL) };
    for (let index = 0; index < SKILL_LIMITS.skillMaxFiles; index += 1) files[`demo/f${index}.txt`] = new Uint8Array(0);
    await expect(extractSkillArchive(zipSync(files), dest())).rejects.toMatchObject({ code: "too_large", message: expect.stringContaining("2001 files") });
  });

  it("refuses a zip bomb from its declared sizes before inflating", async () => {
    const bomb = zipSync({ "demo/SKILL.md": text(SKILL), "demo/zeros.bin": new Uint8Array(SKILL_LIMITS.skillMaxBytes) }, { level: 9 });
    expect(bomb.length).toBeLessThan(1_000_000);
    const out = dest();
    await expect(extractSkillArchive(bomb, out)).rejects.toMatchObject({ code: "too_large", message: expect.stringContaining("unpacks to") });
    expect(fs.existsSync(out)).toBe(false);
    // A bomb that declares a small size is cut at the declared size and refused.
    const lying = lieAboutSizes(zipSync({ "demo/zeros.bin": new Uint8Array(20_000_000) }, { level: 9 }), 1_000);
    await expect(extractSkillArchive(lying, dest())).rejects.toMatchObject({ message: expect.stringContaining("declared size") });
  });
});

describe("writeSkillArchive", () => {
  it("zips <name>/... entries in sorted order with 0644 / 0755 and round-trips", async () => {
    const dir = path.join(root, "pack", "demo");
    fs.mkdirSync(path.join(dir, "scripts"), { recursive: true });
    fs.writeFileSync(path.join(dir, "SKILL.md"), SKILL);
    fs.writeFileSync(path.join(dir, "scripts", "run.sh"), "#!/bin/sh\n", { mode: 0o700 });
    fs.writeFileSync(path.join(dir, "b.txt"), "b", { mode: 0o600 });
    const bytes = await writeSkillArchive(dir, "demo");
    expect(Object.keys(unzipSync(bytes))).toEqual(["demo/SKILL.md", "demo/b.txt", "demo/scripts/run.sh"]);
    expect(await writeSkillArchive(dir, "demo")).toEqual(bytes);
    const out = dest();
    const folder = await extractSkillArchive(bytes, out);
    expect(folder).toBe(path.join(out, "demo"));
    expect(fs.statSync(path.join(folder, "scripts/run.sh")).mode & 0o777).toBe(0o755);
    expect(fs.statSync(path.join(folder, "b.txt")).mode & 0o777).toBe(0o644);
    expect(fs.readFileSync(path.join(folder, "SKILL.md"), "utf8")).toBe(SKILL);
    // Deflate: compressible content shrinks.
    fs.writeFileSync(path.join(dir, "big.txt"), "a".repeat(100_000));
    expect((await writeSkillArchive(dir, "demo")).length).toBeLessThan(10_000);
  });

  it("refuses a folder with a symlink", async () => {
    const dir = path.join(root, "pack-link", "demo");
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, "SKILL.md"), SKILL);
    fs.symlinkSync("SKILL.md", path.join(dir, "alias.md"));
    await expect(writeSkillArchive(dir, "demo")).rejects.toMatchObject({
      code: "invalid_arguments",
      message: expect.stringContaining("alias.md in skill demo is a symlink"),
    });
  });
});
