import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { SKILL_LIMITS } from "../domain/skill-types.js";
import { listSkillFolder } from "./skill-folder-listing.js";

const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "agent-tools-skill-listing-")));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describe("listSkillFolder", () => {
  it("lists files, directories and symlinks with sorted / paths, sizes and script first lines", async () => {
    const dir = path.join(root, "demo");
    fs.mkdirSync(path.join(dir, "scripts", "deep"), { recursive: true });
    fs.writeFileSync(path.join(dir, "SKILL.md"), "---\nname: demo\n---\n");
    fs.writeFileSync(path.join(dir, "scripts", "run.py"), "#!/usr/bin/env python3\r\nprint(1)\n");
    fs.writeFileSync(path.join(dir, "scripts", "go.SH"), "echo hi");
    fs.writeFileSync(path.join(dir, "scripts", "deep", "notes.txt"), "#!not read\n");
    fs.writeFileSync(path.join(dir, "scripts", "long.bash"), `#!${"x".repeat(400)}\nrest`);
    fs.symlinkSync("/etc/passwd", path.join(dir, "link.md"));
    fs.symlinkSync(path.join(dir, "scripts"), path.join(dir, "dirlink"));
    const entries = await listSkillFolder(dir);
    expect(entries.map((entry) => entry.path)).toEqual([
      "SKILL.md",
      "dirlink",
      "link.md",
      "scripts",
      "scripts/deep",
      "scripts/deep/notes.txt",
      "scripts/go.SH",
      "scripts/long.bash",
      "scripts/run.py",
    ]);
    const byPath = new Map(entries.map((entry) => [entry.path, entry]));
    expect(byPath.get("SKILL.md")).toEqual({ path: "SKILL.md", kind: "file", size: 19 });
    expect(byPath.get("dirlink")).toEqual({ path: "dirlink", kind: "symlink", size: 0 });
    expect(byPath.get("link.md")?.kind).toBe("symlink");
    expect(byPath.get("scripts")).toEqual({ path: "scripts", kind: "directory", size: 0 });
    expect(byPath.get("scripts/run.py")?.firstLine).toBe("#!/usr/bin/env python3");
    expect(byPath.get("scripts/go.SH")?.firstLine).toBe("echo hi");
    expect(byPath.get("scripts/long.bash")?.firstLine).toHaveLength(256);
    expect(byPath.get("scripts/deep/notes.txt")?.firstLine).toBeUndefined();
  });

  it("reads an empty script's first line as empty", async () => {
    const dir = path.join(root, "empty-script");
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, "a.sh"), "");
    expect(await listSkillFolder(dir)).toEqual([{ path: "a.sh", kind: "file", size: 0, firstLine: "" }]);
  });

  it("stops past skillMaxFiles + 1 files", async () => {
    const dir = path.join(root, "many");
    fs.mkdirSync(path.join(dir, "a"), { recursive: true });
    fs.mkdirSync(path.join(dir, "b"));
    for (let index = 0; index < SKILL_LIMITS.skillMaxFiles; index += 1) fs.writeFileSync(path.join(dir, "a", `f${index}`), "");
    for (let index = 0; index < 50; index += 1) fs.writeFileSync(path.join(dir, "b", `g${index}`), "");
    const entries = await listSkillFolder(dir);
    expect(entries.filter((entry) => entry.kind !== "directory")).toHaveLength(SKILL_LIMITS.skillMaxFiles + 1);
  });

  it("rejects a folder that does not exist", async () => {
    await expect(listSkillFolder(path.join(root, "missing"))).rejects.toMatchObject({ code: "ENOENT" });
  });
});
