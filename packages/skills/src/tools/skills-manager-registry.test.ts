/**
 * SkillsManager end to end through a host-like registry: the registry actions
 * (search, install) over HTTP, and their answer without a registry.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sampleItems } from "../ports/__fixtures__/skill-registry-items.js";
import { LocalSkillRegistry } from "../ports/local-skill-registry.js";
import { HttpSkillRegistry } from "../runtime/http-skill-registry.js";
import { type SkillRegistryServer, startSkillRegistryServer } from "../testing/skill-registry-server.js";
import { errorCode, freshHarnesses, skillText } from "./__fixtures__/skills-manager-cases.js";

const fresh = freshHarnesses("skills-manager-registry-");

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
