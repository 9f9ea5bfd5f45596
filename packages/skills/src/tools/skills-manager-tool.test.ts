/**
 * SkillsManager end to end through a host-like registry: every action on a
 * real skills root, installs from folders, archives, an HTTP server and git
 * repositories, the registry actions over HTTP, and the built-in skills.
 */
import fs from "node:fs";
import path from "node:path";
import { strToU8, zipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SKILL_DENIAL_SUFFIX } from "../domain/skill-types.js";
import { sampleItems } from "../ports/__fixtures__/skill-registry-items.js";
import { LocalSkillRegistry } from "../ports/local-skill-registry.js";
import { HttpSkillRegistry } from "../runtime/http-skill-registry.js";
import { type SkillRegistryServer, startSkillRegistryServer } from "../testing/skill-registry-server.js";
import { type SkillsHarness, caseDirs, git, openSkillsHarness, serveBytes, tempParent, writeSkill } from "./__fixtures__/skills-tool-harness.js";
import type { SkillsManagerDetails } from "./skills-manager-output.js";

const parent = tempParent("skills-manager-tool-");
afterAll(() => fs.rmSync(parent, { recursive: true, force: true }));

const open: SkillsHarness[] = [];
afterAll(async () => {
  await Promise.all(open.map((harness) => harness.close()));
});

/** A harness over a fresh workspace and skills root. */
function fresh(options: Partial<Parameters<typeof openSkillsHarness>[0]> = {}): SkillsHarness {
  const harness = openSkillsHarness({ ...caseDirs(parent), ...options });
  open.push(harness);
  return harness;
}

function skillText(harness: SkillsHarness, name: string, file = "SKILL.md"): string {
  return fs.readFileSync(path.join(harness.rootDir, name, file), "utf8");
}

function errorCode(result: { details: unknown }): string | undefined {
  return (result.details as { error?: { code: string } }).error?.code;
}

function zipOf(files: Record<string, string>): Uint8Array {
  return zipSync(Object.fromEntries(Object.entries(files).map(([name, text]) => [name, strToU8(text)])));
}

const skillMd = (name: string, description: string) => `---\nname: ${name}\ndescription: ${description}\n---\n\n# ${name}\n`;

describe("SkillsManager read", () => {
  it("reads SKILL.md and other files through every path form, pages by lines and points a missing file at Glob/Read on skill://", async () => {
    const h = fresh();
    const lines = Array.from({ length: 10 }, (_, i) => `line ${i}`).join("\n");
    writeSkill(path.join(h.workdir, "in"), "alpha", { body: "Body marker.\n", files: { "references/guide.md": `${lines}\n` } });
    expect((await h.manage({ action: "install", source: "in/alpha" })).isError).toBe(false);

    for (const form of ["skill://alpha/SKILL.md", "skill:alpha/SKILL.md", "alpha/SKILL.md", "alpha", "skill://alpha", "SKILL://alpha/./SKILL.md"]) {
      const read = await h.manage({ action: "read", path: form });
      expect(read.isError, form).toBe(false);
      expect(read.text, form).toContain("Body marker.");
      expect(read.details, form).toMatchObject({ action: "read", name: "alpha", path: "SKILL.md", offset: 0 });
    }

    const page = await h.manage({ action: "read", path: "skill://alpha/references/guide.md", offset: 2, length: 3 });
    expect(page.isError).toBe(false);
    expect(page.text).toContain("line 2\nline 3\nline 4");
    expect(page.text).not.toContain("line 5");
    expect(page.text).toContain("call read with offset 5");
    expect(page.details).toMatchObject({ path: "references/guide.md", offset: 2, lineCount: 3, nextOffset: 5 });
    const last = await h.manage({ action: "read", path: "alpha/references/guide.md", offset: 8 });
    expect(last.text).toContain("line 9");
    expect((last.details as { nextOffset?: number }).nextOffset).toBeUndefined();

    const missing = await h.manage({ action: "read", path: "skill://alpha/nope.md" });
    expect(missing.isError).toBe(true);
    expect(missing.text).toContain("List the skill's files with Glob on skill://alpha/");
    expect(errorCode(missing)).toBe("not_found");
    // The hint works: Glob on skill://alpha/ lists the skill's files.
    const glob = await h.tool("Glob", { pattern: "**/*.md", path: "skill://alpha/" });
    expect(glob.isError, glob.text).toBe(false);
    expect(glob.text).toContain("references/guide.md");

    const unknown = await h.manage({ action: "read", path: "ghost" });
    expect(unknown.isError).toBe(true);
    expect(unknown.text).toContain('No skill named "ghost"');

    for (const bad of ["/etc/passwd", "alpha/../beta/SKILL.md", "~/x", "alpha\\SKILL.md"]) {
      const refused = await h.manage({ action: "read", path: bad });
      expect(refused.isError, bad).toBe(true);
      expect(errorCode(refused), bad).toBe("invalid_arguments");
    }
  });
});

describe("SkillsManager list", () => {
  it("lists the built-ins marked as such and counts the skills a restrictive policy hides", async () => {
    const h = fresh();
    writeSkill(path.join(h.workdir, "in"), "alpha");
    writeSkill(path.join(h.workdir, "in"), "beta");
    await h.manage({ action: "install", source: "in/alpha" });
    await h.manage({ action: "install", source: "in/beta" });
    const all = await h.manage({ action: "list" });
    expect(all.text).toContain("4 enabled skills:");
    expect(all.text).toMatch(/- skills-creator \(built-in\): /);
    expect(all.text).toMatch(/- skills-installer \(built-in\): /);
    expect(all.text).toContain("- alpha: The alpha skill. -> skill://alpha/SKILL.md");
    const details = all.details as Extract<SkillsManagerDetails, { action: "list"; skills: unknown }>;
    expect(details.hidden).toBe(0);
    expect(details.skills.find((skill) => skill.name === "skills-creator")).toMatchObject({ builtIn: true, protected: true, enabled: true });
    expect(details.skills.find((skill) => skill.name === "alpha")).toMatchObject({ builtIn: false, protected: false, baseDir: path.join(h.rootDir, "alpha") });

    const restricted = fresh({ workdir: h.workdir, rootDir: h.rootDir, policy: { allowedSkillNames: ["alpha"], protectedSkillNames: ["alpha"] } });
    const some = await restricted.manage({ action: "list" });
    expect(some.text).toContain("3 enabled skills:");
    expect(some.text).toContain("- alpha (protected): ");
    expect(some.text).not.toContain("beta");
    expect(some.text).toContain("(1 more installed but not enabled in this session.)");
    expect((some.details as { hidden: number }).hidden).toBe(1);
  });
});

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
    const repository = path.join(path.dirname(h.workdir), "gitty");
    fs.mkdirSync(repository);
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

describe("SkillsManager registry actions", () => {
  let server: SkillRegistryServer;
  beforeAll(async () => {
    server = await startSkillRegistryServer(new LocalSkillRegistry(sampleItems()));
  });
  afterAll(() => server.close());

  it("searches with sort, limit and cursor paging", async () => {
    const h = fresh({ registry: new HttpSkillRegistry({ baseUrl: server.url }) });
    const slugs = (result: { details: unknown }) =>
      (result.details as { items: { slug: string; owner: string }[] }).items.map((item) => `${item.owner}/${item.slug}`);
    const first = await h.manage({ action: "registry_search", query: "pdf", limit: 2 });
    expect(first.isError, first.text).toBe(false);
    expect(slugs(first)).toEqual(["acme/pdf", "acme/pdf-tools"]);
    const cursor = (first.details as { nextCursor?: string }).nextCursor;
    expect(cursor).toBeDefined();
    expect(first.text).toContain(`call registry_search with cursor "${cursor}"`);
    expect(first.text).toContain("- pdf (owner acme, v2.0.0, 500 downloads, 5 stars, updated 2026-03-01): Fill and merge PDF forms.");
    const second = await h.manage({ action: "registry_search", query: "pdf", limit: 2, cursor });
    expect(slugs(second)).toEqual(["globex/pdf", "acme/slides"]);
    expect((second.details as { nextCursor?: string }).nextCursor).toBeUndefined();

    const byStars = await h.manage({ action: "registry_search", query: "pdf", sort: "stars" });
    expect(slugs(byStars)).toEqual(["globex/pdf", "acme/pdf-tools", "acme/pdf", "acme/slides"]);
    const newest = await h.manage({ action: "registry_search", sort: "newest", limit: 1 });
    expect(slugs(newest)).toEqual(["acme/slides"]);
    const none = await h.manage({ action: "registry_search", query: "nothing-matches-this" });
    expect(none.text).toContain('No registry skills match "nothing-matches-this".');
    const wrongCursor = await h.manage({ action: "registry_search", query: "docx", cursor });
    expect(wrongCursor.isError).toBe(true);
    const tooMany = await h.manage({ action: "registry_search", query: "pdf", limit: 21 });
    expect(tooMany.isError).toBe(true);
  });

  it("installs from the registry: owner ambiguity is a conflict, owner and version pick the archive", async () => {
    const h = fresh({ registry: new HttpSkillRegistry({ baseUrl: server.url }) });
    const ambiguous = await h.manage({ action: "registry_install", slug: "pdf" });
    expect(ambiguous.isError).toBe(true);
    expect(errorCode(ambiguous)).toBe("conflict");
    expect(ambiguous.text).toContain("acme");
    expect(ambiguous.text).toContain("globex");
    expect(fs.existsSync(path.join(h.rootDir, "pdf"))).toBe(false);

    const latest = await h.manage({ action: "registry_install", slug: "pdf", owner: "acme" });
    expect(latest.isError, latest.text).toBe(false);
    expect(latest.text).toContain("from the registry (acme/pdf v2.0.0)");
    expect(skillText(h, "pdf")).toContain("description: version 2.0.0");
    expect(h.changes.at(-1)).toEqual({ action: "installed", name: "pdf", path: path.join(h.rootDir, "pdf") });

    const older = await h.manage({ action: "registry_install", slug: "pdf", owner: "acme", version: "1.0.0", conflict: "overwrite" });
    expect(older.isError, older.text).toBe(false);
    expect(skillText(h, "pdf")).toContain("description: version 1.0.0");
    const failed = await h.manage({ action: "registry_install", slug: "pdf", owner: "acme", conflict: "fail" });
    expect(failed.text).toContain("Destination already exists");
    const unknown = await h.manage({ action: "registry_install", slug: "nope" });
    expect(errorCode(unknown)).toBe("not_found");
    const noVersion = await h.manage({ action: "registry_install", slug: "docx", version: "9.9.9" });
    expect(noVersion.isError).toBe(true);
  });

  it("answers unavailable without a registry", async () => {
    const h = fresh();
    for (const args of [
      { action: "registry_search", query: "pdf" },
      { action: "registry_install", slug: "pdf" },
    ]) {
      const result = await h.manage(args);
      expect(result.isError).toBe(true);
      expect(errorCode(result)).toBe("unavailable");
      expect(result.text).toContain("install {source}");
    }
  });
});

describe("SkillsManager required fields", () => {
  it("names the missing fields of each action before doing anything", async () => {
    const h = fresh();
    const cases: [Record<string, unknown>, string][] = [
      [{ action: "read" }, "read needs path."],
      [{ action: "install" }, "install needs source."],
      [{ action: "create" }, "create needs name, description."],
      [{ action: "create", name: "x" }, "create needs description."],
      [{ action: "validate" }, "validate needs name."],
      [{ action: "package" }, "package needs name."],
      [{ action: "delete" }, "delete needs name."],
      [{ action: "registry_install" }, "registry_install needs slug."],
    ];
    for (const [args, message] of cases) {
      const result = await h.manage(args);
      expect(result.isError, message).toBe(true);
      expect(result.text).toBe(`SkillsManager ${args.action} failed: ${message}`);
      expect(errorCode(result)).toBe("invalid_arguments");
    }
    const unknownAction = await h.manage({ action: "explode" });
    expect(unknownAction.isError).toBe(true);
    // Nothing was opened by refused calls.
    expect(fs.existsSync(h.rootDir)).toBe(false);
  });
});

describe("built-in skills", () => {
  it("exist after the first call and cannot be deleted, replaced or written, even with allowSkillMutation", async () => {
    const h = fresh({ policy: { allowSkillMutation: true } });
    await h.manage({ action: "list" });
    const creator = skillText(h, "skills-creator");
    expect(creator).toContain("name: skills-creator");
    expect(skillText(h, "skills-installer")).toContain("name: skills-installer");

    const deleted = await h.manage({ action: "delete", name: "skills-creator" });
    expect(deleted.isError).toBe(true);
    expect(errorCode(deleted)).toBe("permission_denied");

    writeSkill(path.join(h.workdir, "in"), "skills-creator", { description: "Impostor." });
    for (const conflict of ["overwrite", "backup", "fail"]) {
      const installed = await h.manage({ action: "install", source: "in/skills-creator", conflict });
      expect(installed.isError, conflict).toBe(true);
      expect(installed.text, conflict).not.toContain("Installed skill");
    }
    const created = await h.manage({ action: "create", name: "skills-installer", description: "Impostor.", conflict: "overwrite" });
    expect(created.isError).toBe(true);
    expect(errorCode(created)).toBe("permission_denied");

    const write = await h.tool("Write", { path: "skill://skills-creator/SKILL.md", content: "hacked" });
    expect(write.isError).toBe(true);
    expect(write.text).toContain("built-in skill");
    expect(write.text.trimEnd().endsWith(SKILL_DENIAL_SUFFIX)).toBe(true);
    expect(deleted.text.trimEnd().endsWith(SKILL_DENIAL_SUFFIX)).toBe(true);
    await h.tool("Read", { path: "skill://skills-installer/SKILL.md" });
    const edit = await h.tool("Edit", { path: "skill://skills-installer/SKILL.md", old_string: "name: skills-installer", new_string: "name: hacked" });
    expect(edit.isError).toBe(true);
    const removed = await h.tool("Delete", { path: "skill://skills-creator/SKILL.md" });
    expect(removed.isError).toBe(true);

    expect(skillText(h, "skills-creator")).toBe(creator);
    expect(skillText(h, "skills-installer")).toContain("name: skills-installer");
    expect(fs.existsSync(path.join(h.rootDir, ".backups"))).toBe(false);
    expect(h.changes).toEqual([]);
  });

  it("are written back when a built-in file was changed on disk, by the next session's first call", async () => {
    const h = fresh();
    await h.manage({ action: "list" });
    const original = skillText(h, "skills-creator");
    fs.writeFileSync(path.join(h.rootDir, "skills-creator", "SKILL.md"), "tampered");
    const next = fresh({ workdir: h.workdir, rootDir: h.rootDir });
    await next.manage({ action: "list" });
    expect(skillText(next, "skills-creator")).toBe(original);
  });
});
