import { ToolError } from "@agent-tools/core";
import { strFromU8, unzipSync } from "fflate";
import { describe, expect, it } from "vitest";
import type { SkillRegistry } from "../skill-registry.js";

const slugsOf = (items: readonly { slug: string; owner: string }[]) => items.map((item) => `${item.owner}/${item.slug}`);

async function rejection(promise: Promise<unknown>): Promise<ToolError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(ToolError);
  return error as ToolError;
}

/** The search and download rules every registry must follow; also run against HttpSkillRegistry. */
export function registryContract(name: string, open: () => Promise<{ registry: SkillRegistry; close(): Promise<void> }>): void {
  describe(`${name}: search`, () => {
    it("matches every query word in slug, name or description, case-insensitively, sorted by the key", async () => {
      const { registry, close } = await open();
      try {
        expect(slugsOf((await registry.search({ query: "PDF", sort: "downloads", limit: 20 })).items)).toEqual([
          "acme/pdf",
          "acme/pdf-tools",
          "globex/pdf",
          "acme/slides",
        ]);
        expect(slugsOf((await registry.search({ query: "pdf forms", sort: "downloads", limit: 20 })).items)).toEqual(["acme/pdf"]);
        expect(slugsOf((await registry.search({ query: "pdf", sort: "stars", limit: 20 })).items)).toEqual([
          "globex/pdf",
          "acme/pdf-tools",
          "acme/pdf",
          "acme/slides",
        ]);
        expect(slugsOf((await registry.search({ query: "pdf", sort: "installs", limit: 2 })).items)).toEqual(["acme/pdf", "acme/pdf-tools"]);
        expect(slugsOf((await registry.search({ query: "", sort: "newest", limit: 3 })).items)).toEqual(["acme/slides", "acme/pdf-tools", "globex/pdf"]);
        expect(slugsOf((await registry.search({ query: "", sort: "updated", limit: 2 })).items)).toEqual(["acme/slides", "acme/docx"]);
        expect((await registry.search({ query: "nothing-like-this", sort: "downloads", limit: 5 })).items).toEqual([]);
      } finally {
        await close();
      }
    });

    it("breaks ties by slug and pages with cursors until the last page", async () => {
      const { registry, close } = await open();
      try {
        const seen: string[] = [];
        let cursor: string | undefined;
        let pages = 0;
        do {
          const page = await registry.search({ query: "", sort: "downloads", limit: 4, cursor });
          seen.push(...slugsOf(page.items));
          cursor = page.nextCursor;
          pages += 1;
        } while (cursor !== undefined);
        expect(pages).toBe(2);
        expect(seen).toEqual(["acme/pdf", "acme/docx", "acme/pdf-tools", "acme/xlsx", "globex/pdf", "acme/slides"]);
        const exact = await registry.search({ query: "", sort: "downloads", limit: 6 });
        expect(exact.nextCursor).toBeUndefined();
      } finally {
        await close();
      }
    });

    it("refuses a cursor from another query or sort, and a forged one", async () => {
      const { registry, close } = await open();
      try {
        const first = await registry.search({ query: "pdf", sort: "downloads", limit: 1 });
        expect(first.nextCursor).toEqual(expect.any(String));
        const again = await registry.search({ query: "pdf", sort: "downloads", limit: 1, cursor: first.nextCursor });
        expect(slugsOf(again.items)).toEqual(["acme/pdf-tools"]);
        for (const request of [
          { query: "docx", sort: "downloads" as const },
          { query: "pdf", sort: "stars" as const },
        ]) {
          const error = await rejection(registry.search({ ...request, limit: 1, cursor: first.nextCursor }));
          expect(error.code).toBe("invalid_arguments");
          expect(error.message).toMatch(/cursor does not belong to this search/);
        }
        expect((await rejection(registry.search({ query: "pdf", sort: "downloads", limit: 1, cursor: "not-a-cursor!" }))).code).toBe("invalid_arguments");
      } finally {
        await close();
      }
    });
  });

  describe(`${name}: download`, () => {
    it("downloads the latest or an asked version of the only or the named owner", async () => {
      const { registry, close } = await open();
      try {
        const latest = await registry.download({ slug: "docx" });
        expect(latest.version).toBe("1.0.0");
        expect(latest.entry).toMatchObject({ slug: "docx", owner: "acme", description: "Word documents." });
        expect(strFromU8(unzipSync(latest.archive)["docx/SKILL.md"] as Uint8Array)).toContain("version 1.0.0");
        const old = await registry.download({ slug: "pdf", owner: "acme", version: "1.0.0" });
        expect(old.version).toBe("1.0.0");
        expect(strFromU8(unzipSync(old.archive)["pdf/SKILL.md"] as Uint8Array)).toContain("version 1.0.0");
        expect((await registry.download({ slug: "pdf", owner: "acme" })).version).toBe("2.0.0");
        expect((await registry.download({ slug: "pdf", owner: "globex" })).entry.description).toBe("Read PDF text.");
      } finally {
        await close();
      }
    });

    it("rejects not_found for an unknown slug, owner or version, and conflict listing the owners", async () => {
      const { registry, close } = await open();
      try {
        const unknown = await rejection(registry.download({ slug: "nope" }));
        expect(unknown.code).toBe("not_found");
        expect(unknown.message).toMatch(/no skill "nope"/);
        const wrongOwner = await rejection(registry.download({ slug: "docx", owner: "globex" }));
        expect(wrongOwner.code).toBe("not_found");
        expect(wrongOwner.message).toMatch(/published by: acme/);
        const version = await rejection(registry.download({ slug: "pdf", owner: "acme", version: "9.9.9" }));
        expect(version.code).toBe("not_found");
        expect(version.message).toMatch(/no version "9\.9\.9"\. Available versions: 1\.0\.0, 2\.0\.0/);
        const conflict = await rejection(registry.download({ slug: "pdf" }));
        expect(conflict.code).toBe("conflict");
        expect(conflict.message).toMatch(/Several owners publish the skill "pdf": acme, globex/);
        expect(conflict.details).toMatchObject({ owners: ["acme", "globex"] });
      } finally {
        await close();
      }
    });

    it("honours an aborted signal", async () => {
      const { registry, close } = await open();
      try {
        const controller = new AbortController();
        controller.abort();
        await expect(registry.search({ query: "", sort: "downloads", limit: 1, signal: controller.signal })).rejects.toThrow();
        await expect(registry.download({ slug: "docx", signal: controller.signal })).rejects.toThrow();
      } finally {
        await close();
      }
    });
  });
}
