/**
 * SkillsManager end to end through a host-like registry: installs from
 * folders, archives, an HTTP server and git repositories, and create,
 * validate, package and delete on a real skills root.
 */
import fs from "node:fs";
import path from "node:path";
import { strToU8, zipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { errorCode, freshHarnesses, skillText } from "./__fixtures__/skills-manager-cases.js";
import { git, serveBytes, writeSkill } from "./__fixtures__/skills-tool-harness.js";

const fresh = freshHarnesses("skills-manager-install-");

function zipOf(files: Record<string, string>): Uint8Array {
  return zipSync(Object.fromEntries(Object.entries(files).map(([name, text]) => [name, strToU8(text)])));
}

const skillMd = (name: string, description: string) => `---\nname: ${name}\ndescription: ${description}\n---\n\n# ${name}\n`;

describe("SkillsManager install", () => {
  it("installs a folder relative to the workspace, and each conflict mode does what it says", async () => {
    const h = fresh();
    writeSkill(path.join(h.workdir, "v1"), "alpha", { description: "First version." });
    writeSkill(path.join(h.workdir, "v2"), "alpha", { description: "Second version." });
    writeSkill(path.join(h.workdir, "v3"), "alpha", { description: "Third version." });
    const first = await h.manage({ action: "install", source: "v1/alpha" });
    expect(first.isError).toBe(false);
    expect(first.text).toContain(`Installed skill alpha from v1/alpha at skill://alpha/ (${path.join(h.rootDir, "alpha")})`);
    expect(first.details).toMatchObject({ action: "install", change: { name: "alpha", action: "installed", path: path.join(h.rootDir, "alpha") } });

    const failed = await h.manage({ action: "install", source: "v2/alpha", conflict: "fail" });
    expect(failed.isError).toBe(true);
    expect(errorCode(failed)).toBe("conflict");
    expect(failed.text).toContain("Destination already exists");
    expect(skillText(h, "alpha")).toContain("First version.");

    const backedUp = await h.manage({ action: "install", source: "v2/alpha" });
    expect(backedUp.isError).toBe(false);
    expect(skillText(h, "alpha")).toContain("Second version.");
    const backups = fs.readdirSync(path.join(h.rootDir, ".backups"));
    expect(backups).toHaveLength(1);
    expect(backups[0]).toMatch(/^alpha-/);
    expect(fs.readFileSync(path.join(h.rootDir, ".backups", backups[0] as string, "SKILL.md"), "utf8")).toContain("First version.");
    expect(backedUp.text).toContain("The previous version was moved to");

    const overwritten = await h.manage({ action: "install", source: "v3/alpha", conflict: "overwrite" });
    expect(overwritten.isError).toBe(false);
    expect(overwritten.text).toContain("The previous version was replaced.");
    expect(skillText(h, "alpha")).toContain("Third version.");
    expect(fs.readdirSync(path.join(h.rootDir, ".backups"))).toHaveLength(1);
    // The list shows the skill once, and nothing staged is left behind.
    expect((await h.manage({ action: "list" })).text.match(/- alpha:/g)).toHaveLength(1);
    expect(fs.readdirSync(path.join(h.rootDir, ".staging")).filter((entry) => !entry.startsWith("."))).toEqual([]);
  });

  it("installs a .zip archive and refuses an invalid folder without touching the library", async () => {
    const h = fresh();
    fs.writeFileSync(path.join(h.workdir, "zipped.zip"), zipOf({ "zipped/SKILL.md": skillMd("zipped", "From a zip."), "zipped/notes/a.md": "A\n" }));
    const zipped = await h.manage({ action: "install", source: "zipped.zip" });
    expect(zipped.isError).toBe(false);
    expect(skillText(h, "zipped", "notes/a.md")).toBe("A\n");

    writeSkill(path.join(h.workdir, "in"), "broken", { files: { "README.md": "extra docs\n" } });
    const broken = await h.manage({ action: "install", source: "in/broken" });
    expect(broken.isError).toBe(true);
    expect(broken.text).toContain("README.md");
    expect(fs.existsSync(path.join(h.rootDir, "broken"))).toBe(false);

    const nowhere = await h.manage({ action: "install", source: "in/nowhere" });
    expect(nowhere.isError).toBe(true);
    expect(errorCode(nowhere)).toBe("not_found");
  });

  it("installs from an http URL serving a zip, and explains a URL that serves a web page", async () => {
    const h = fresh();
    const server = await serveBytes({
      "/skills/webby.zip": { body: zipOf({ "webby/SKILL.md": skillMd("webby", "From the web.") }), type: "application/zip" },
      "/page": { body: "<!doctype html><html><body>hi</body></html>", type: "text/html" },
    });
    try {
      const installed = await h.manage({ action: "install", source: `${server.url}/skills/webby.zip` });
      expect(installed.isError).toBe(false);
      expect(skillText(h, "webby")).toContain("From the web.");
      expect(server.requests).toContain("/skills/webby.zip");

      const page = await h.manage({ action: "install", source: `${server.url}/page` });
      expect(page.isError).toBe(true);
      expect(page.text).toContain("returned a web page, not a zip archive");
      const missing = await h.manage({ action: "install", source: `${server.url}/gone.zip`, method: "download" });
      expect(missing.isError).toBe(true);
      expect(missing.text).toContain("HTTP 404");
    } finally {
      await server.close();
    }
  });

  it("installs from a local git repository at a branch, a tag and the default ref", async () => {
    const h = fresh();
    const repository = path.join(h.workdir, "repos", "gitty");
    fs.mkdirSync(repository, { recursive: true });
    git(repository, "init", "-q", "-b", "main");
    fs.writeFileSync(path.join(repository, "SKILL.md"), skillMd("gitty", "On main."));
    git(repository, "add", "-A");
    git(repository, "commit", "-q", "-m", "main");
    git(repository, "tag", "v1.0");
    git(repository, "checkout", "-q", "-b", "next");
    fs.writeFileSync(path.join(repository, "SKILL.md"), skillMd("gitty", "On next."));
    git(repository, "commit", "-q", "-am", "next");
    git(repository, "checkout", "-q", "main");
    fs.writeFileSync(path.join(repository, "SKILL.md"), skillMd("gitty", "On main, later."));
    git(repository, "commit", "-q", "-am", "later");

    const branch = await h.manage({ action: "install", source: repository, method: "git", ref: "next" });
    expect(branch.isError, branch.text).toBe(false);
    expect(skillText(h, "gitty")).toContain("On next.");
    expect(fs.existsSync(path.join(h.rootDir, "gitty", ".git"))).toBe(false);

    const tag = await h.manage({ action: "install", source: `file://${repository}`, method: "git", ref: "v1.0", conflict: "overwrite" });
    expect(tag.isError, tag.text).toBe(false);
    expect(skillText(h, "gitty")).toContain("On main.");

    const main = await h.manage({ action: "install", source: path.relative(h.workdir, repository), method: "git", conflict: "overwrite" });
    expect(main.isError, main.text).toBe(false);
    expect(skillText(h, "gitty")).toContain("On main, later.");

    const badRef = await h.manage({ action: "install", source: repository, method: "git", ref: "no-such-ref", conflict: "overwrite" });
    expect(badRef.isError).toBe(true);
    expect(badRef.text).toContain("no-such-ref");
    expect(skillText(h, "gitty")).toContain("On main, later.");
  });
});

describe("SkillsManager create, validate, package and delete", () => {
  it("creates from the template and with files; conflict defaults to fail; backup keeps the old copy", async () => {
    const h = fresh();
    const made = await h.manage({ action: "create", name: "made", description: "Makes: things <safely>?" });
    expect(made.isError).toBe(true); // < and > are not allowed in a description
    const ok = await h.manage({ action: "create", name: "made", description: "Makes things: quickly." });
    expect(ok.isError, ok.text).toBe(false);
    expect(ok.text).toContain("Created skill made");
    const text = skillText(h, "made");
    expect(text).toMatch(/^---\nname: made\ndescription: "Makes things: quickly."\n---\n\n# /);
    expect(text).toContain("## Workflow");

    const again = await h.manage({ action: "create", name: "made", description: "Other." });
    expect(again.isError).toBe(true);
    expect(again.text).toContain("Destination already exists");
    expect(skillText(h, "made")).toContain("Makes things: quickly.");

    const withFiles = await h.manage({
      action: "create",
      name: "made",
      description: "With files.",
      body: "# Made\n\nRun scripts/go.sh.\n",
      files: [{ path: "scripts/go.sh", content: "#!/bin/sh\necho go\n" }],
      conflict: "backup",
    });
    expect(withFiles.isError, withFiles.text).toBe(false);
    expect(skillText(h, "made")).toContain("# Made\n\nRun scripts/go.sh.\n");
    expect(skillText(h, "made", "scripts/go.sh")).toBe("#!/bin/sh\necho go\n");
    expect(fs.readdirSync(path.join(h.rootDir, ".backups")).some((entry) => entry.startsWith("made-"))).toBe(true);

    const skillFile = await h.manage({ action: "create", name: "other", description: "x", files: [{ path: "SKILL.md", content: "x" }] });
    expect(skillFile.isError).toBe(true);
    expect(errorCode(skillFile)).toBe("invalid_arguments");
    const badName = await h.manage({ action: "create", name: "Bad_Name", description: "x" });
    expect(badName.isError).toBe(true);
    expect(errorCode(badName)).toBe("invalid_arguments");
    expect(fs.existsSync(path.join(h.rootDir, "other"))).toBe(false);
  });

  it("validates hand-written folders: a valid one, and one with every kind of problem named", async () => {
    const h = fresh();
    await h.manage({ action: "list" }); // opens the root
    writeSkill(h.rootDir, "good", { files: { "scripts/run.py": "#!/usr/bin/env python3\nprint(1)\n" } });
    fs.mkdirSync(path.join(h.rootDir, "bad", "scripts"), { recursive: true });
    fs.writeFileSync(path.join(h.rootDir, "bad", "SKILL.md"), "---\nname: other-name\ndescription: Bad.\ncolour: blue\n---\n");
    fs.writeFileSync(path.join(h.rootDir, "bad", "CHANGELOG.md"), "changes\n");
    fs.writeFileSync(path.join(h.rootDir, "bad", "scripts", "run.sh"), "echo no shebang\n");

    const good = await h.manage({ action: "validate", name: "good" });
    expect(good.isError).toBe(false);
    expect(good.text).toBe("Skill good is valid.");
    expect(good.details).toMatchObject({ action: "validate", valid: true, issues: [] });

    const bad = await h.manage({ action: "validate", name: "bad" });
    expect(bad.isError).toBe(true);
    const codes = (bad.details as { issues: { code: string }[] }).issues.map((issue) => issue.code).sort();
    expect(codes).toEqual(expect.arrayContaining(["forbidden_doc", "frontmatter_unexpected_keys", "name_mismatch", "shebang_missing"]));
    expect(bad.text).toContain("CHANGELOG.md");
    expect(bad.text).toContain("scripts/run.sh");

    const missing = await h.manage({ action: "validate", name: "ghost" });
    expect(missing.isError).toBe(true);
    expect(errorCode(missing)).toBe("not_found");
  });

  it("packages a skill into a .skill archive that reinstalls, refuses to package an invalid one, and deletes", async () => {
    const h = fresh();
    writeSkill(path.join(h.workdir, "in"), "packed", { script: "packed ran", files: { "references/r.md": "ref\n" } });
    await h.manage({ action: "install", source: "in/packed" });
    const packaged = await h.manage({ action: "package", name: "packed" });
    expect(packaged.isError, packaged.text).toBe(false);
    const archivePath = (packaged.details as { archivePath: string }).archivePath;
    expect(archivePath).toBe(path.join(h.rootDir, ".packages", "packed.skill"));
    expect(packaged.text).toBe(`Packaged skill packed to ${archivePath}.`);
    const copy = path.join(h.workdir, "packed.skill");
    fs.copyFileSync(archivePath, copy);

    const deleted = await h.manage({ action: "delete", name: "packed" });
    expect(deleted.isError).toBe(false);
    expect(deleted.text).toBe("Deleted skill packed.");
    expect(fs.existsSync(path.join(h.rootDir, "packed"))).toBe(false);
    expect(h.changes.at(-1)).toEqual({ action: "deleted", name: "packed", path: path.join(h.rootDir, "packed") });
    expect((await h.manage({ action: "read", path: "packed" })).isError).toBe(true);
    const deleteAgain = await h.manage({ action: "delete", name: "packed" });
    expect(errorCode(deleteAgain)).toBe("not_found");

    const reinstalled = await h.manage({ action: "install", source: "packed.skill" });
    expect(reinstalled.isError, reinstalled.text).toBe(false);
    expect(skillText(h, "packed", "references/r.md")).toBe("ref\n");
    expect(fs.statSync(path.join(h.rootDir, "packed", "scripts", "run.sh")).mode & 0o111).not.toBe(0);

    fs.writeFileSync(path.join(h.rootDir, "packed", "README.md"), "not allowed\n");
    const invalid = await h.manage({ action: "package", name: "packed" });
    expect(invalid.isError).toBe(true);
    expect(invalid.text).toContain("README.md");
  });
});
