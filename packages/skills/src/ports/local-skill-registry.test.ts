import { unzipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { registryContract } from "./__fixtures__/skill-registry-contract.js";
import { registryEntry, registryItem, sampleItems } from "./__fixtures__/skill-registry-items.js";
import { LocalSkillRegistry } from "./local-skill-registry.js";

registryContract("LocalSkillRegistry", async () => ({ registry: new LocalSkillRegistry(sampleItems()), close: async () => undefined }));

describe("LocalSkillRegistry", () => {
  it("refuses an item without an archive for its latest version", () => {
    expect(() => new LocalSkillRegistry([registryItem(registryEntry("a", { version: "2.0.0" }), ["1.0.0"])])).toThrow(
      /no archive for its latest version 2\.0\.0/,
    );
  });

  it("hands out a copy of the archive", async () => {
    const registry = new LocalSkillRegistry(sampleItems());
    const first = await registry.download({ slug: "docx" });
    first.archive.fill(0);
    expect(unzipSync((await registry.download({ slug: "docx" })).archive)).toHaveProperty("docx/SKILL.md");
  });
});
