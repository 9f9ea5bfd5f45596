import { execFileSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { GitCliClient } from "@agent-tools/git";
import { zipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { skillLibraryCases, skillMd, stagingEntries } from "./__fixtures__/skill-library-cases.js";
import { SkillLibrary } from "./skill-library.js";

const { top, fresh, sourceFolder } = skillLibraryCases();
const text = (value: string) => new TextEncoder().encode(value);

describe("SkillLibrary: install", () => {
  it("installs a folder, renames it after its metadata name, and lists it", async () => {
    const library = await SkillLibrary.open({ rootDir: fresh() });
    const source = sourceFolder("some-folder", { "SKILL.md": skillMd("demo"), "scripts/run.sh": "#!/bin/sh\necho\n" });
    const change = await library.install({ kind: "directory", path: source });
    expect(change).toEqual({
      action: "installed",
      name: "demo",
      description: "Does things.",
      metadataFile: "SKILL.md",
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

  it("asks mayReplace before replacing a skill by install or create, and changes nothing when it refuses", async () => {
    const root = fresh();
    const library = await SkillLibrary.open({ rootDir: root });
    await library.install({ kind: "directory", path: sourceFolder("demo", { "SKILL.md": skillMd("demo", "First.") }) });
    const asked: string[] = [];
    const mayReplace = (name: string) => {
      asked.push(name);
      return `not ${name}`;
    };
    const second = sourceFolder("demo", { "SKILL.md": skillMd("demo", "Second.") });
    await expect(library.install({ kind: "directory", path: second }, { conflict: "overwrite", mayReplace })).rejects.toMatchObject({
      code: "permission_denied",
      message: "not demo",
    });
    await expect(library.create({ name: "demo", description: "Third.", conflict: "overwrite" }, { mayReplace })).rejects.toMatchObject({
      code: "permission_denied",
    });
    expect(asked).toEqual(["demo", "demo"]);
    expect(fs.readFileSync(path.join(root, "demo", "SKILL.md"), "utf8")).toContain("First.");
    expect(stagingEntries(root)).toEqual([]);
  });

  it("recovers a journaled swap only inside the root: a journal naming outside folders moves nothing", async () => {
    const root = fresh();
    await SkillLibrary.open({ rootDir: root });
    const outside = sourceFolder("outside", { "SKILL.md": skillMd("outside"), "secret.txt": "secret" });
    fs.mkdirSync(path.join(root, ".staging"), { recursive: true });
    fs.writeFileSync(path.join(root, ".staging", "swap-20260101T000000000Z-abcdef.json"), JSON.stringify({ name: "evil", staged: outside, old: outside }));
    const library = await SkillLibrary.open({ rootDir: root });
    expect(fs.existsSync(path.join(root, "evil"))).toBe(false);
    expect(fs.readFileSync(path.join(outside, "secret.txt"), "utf8")).toBe("secret");
    expect(await library.list()).toEqual([]);
    expect(stagingEntries(root)).toEqual([]);
  });

  it("reports a git source as unavailable without a git client", async () => {
    const library = await SkillLibrary.open({ rootDir: fresh() });
    await expect(library.install({ kind: "git", url: "https://example.invalid/x.git", ref: "main", subdirectory: "" })).rejects.toMatchObject({
      code: "unavailable",
    });
  });
});
