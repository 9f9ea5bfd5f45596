import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { SKILL_LIMITS } from "../domain/skill-types.js";
import { readSourceFolder } from "./source-folder-reader.js";

const top = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "agent-tools-source-reader-")));
afterAll(() => fs.rmSync(top, { recursive: true, force: true }));
let serial = 0;

/** A fresh folder `<top>/<n>/<name>` holding `files` (path -> text). */
function folder(name: string, files: Record<string, string>): string {
  const dir = path.join(top, String((serial += 1)), name);
  fs.mkdirSync(dir, { recursive: true });
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  }
  return dir;
}

/** Reads `dir` and returns what the visitor saw. */
async function read(dir: string, options: Parameters<typeof readSourceFolder>[3] = {}) {
  const seen: string[] = [];
  await readSourceFolder(
    path.dirname(dir),
    [path.basename(dir)],
    {
      directory: (relative) => void seen.push(`${relative}/`),
      file: (relative, data, executable) => void seen.push(`${relative}=${Buffer.from(data).toString()}${executable ? " (x)" : ""}`),
    },
    options,
  );
  return seen;
}

describe("readSourceFolder", () => {
  it("hands over folders and files in sorted order with their bytes and executable bit", async () => {
    const dir = folder("demo", { "SKILL.md": "skill", "scripts/run.sh": "#!/bin/sh\n", "b.txt": "b" });
    fs.chmodSync(path.join(dir, "scripts", "run.sh"), 0o755);
    expect(await read(dir)).toEqual(["SKILL.md=skill", "b.txt=b", "scripts/", "scripts/run.sh=#!/bin/sh\n (x)"]);
  });

  it("refuses a symlink anywhere: the folder itself, a file, a folder inside", async () => {
    const dir = folder("demo", { "SKILL.md": "skill" });
    const alias = path.join(path.dirname(dir), "alias");
    fs.symlinkSync(dir, alias);
    await expect(read(alias)).rejects.toMatchObject({ code: "invalid_arguments", message: expect.stringContaining(`The source folder ${alias} is a symlink`) });
    const withFile = folder("file-link", { "SKILL.md": "skill" });
    fs.symlinkSync("/etc/passwd", path.join(withFile, "passwd"));
    await expect(read(withFile)).rejects.toMatchObject({ message: expect.stringContaining("passwd in") });
    const withFolder = folder("folder-link", { "SKILL.md": "skill" });
    fs.symlinkSync("/etc", path.join(withFolder, "etc"));
    await expect(read(withFolder)).rejects.toMatchObject({ message: expect.stringContaining("etc in") });
  });

  it("refuses FIFOs without blocking on them", async () => {
    const dir = folder("piped", { "SKILL.md": "skill" });
    execFileSync("mkfifo", [path.join(dir, "pipe")]);
    await expect(read(dir)).rejects.toMatchObject({ code: "invalid_arguments", message: expect.stringContaining("is not a regular file") });
  });

  it("refuses a file over the per-file cap and nesting past folderMaxDepth", async () => {
    const big = folder("big", { "SKILL.md": "skill" });
    fs.writeFileSync(path.join(big, "huge.bin"), "");
    fs.truncateSync(path.join(big, "huge.bin"), SKILL_LIMITS.fileMaxBytes + 1);
    await expect(read(big)).rejects.toMatchObject({ code: "too_large", message: expect.stringContaining("the per-file cap") });
    const deep = folder("deep", { "SKILL.md": "skill" });
    fs.mkdirSync(path.join(deep, ...Array.from({ length: SKILL_LIMITS.folderMaxDepth + 2 }, () => "d")), { recursive: true });
    await expect(read(deep)).rejects.toMatchObject({
      code: "too_large",
      message: expect.stringContaining(`more than ${SKILL_LIMITS.folderMaxDepth} folders deep`),
    });
  });

  it("gives checkOpened the canonical path of what it opened, skips top-level names, and refuses . and ..", async () => {
    const dir = folder("demo", { "SKILL.md": "skill", ".git/config": "x" });
    const seen: string[] = [];
    expect(await read(dir, { checkOpened: (canonical) => void seen.push(canonical), skipTopLevel: [".git"] })).toEqual(["SKILL.md=skill"]);
    expect(seen).toEqual([dir]);
    await expect(readSourceFolder(dir, [".."], { file: () => undefined })).rejects.toMatchObject({ code: "invalid_arguments" });
  });

  it("reports a missing folder and a file given as the folder", async () => {
    await expect(read(path.join(top, "nope"))).rejects.toMatchObject({ code: "not_found" });
    const dir = folder("demo", { "SKILL.md": "skill" });
    await expect(read(path.join(dir, "SKILL.md"))).rejects.toMatchObject({ code: "not_a_directory" });
  });
});
