import { strToU8, zipSync } from "fflate";
import type { LocalSkillRegistryItem } from "../local-skill-registry.js";
import type { SkillRegistryEntry } from "../skill-registry.js";

/** A registry entry with defaults for the fields a test does not care about. */
export function registryEntry(slug: string, fields: Partial<SkillRegistryEntry> = {}): SkillRegistryEntry {
  return {
    slug,
    owner: "acme",
    name: slug,
    description: `The ${slug} skill.`,
    version: "1.0.0",
    downloads: 0,
    stars: 0,
    installs: 0,
    createdAt: "2026-01-01T00:00:00.000Z",
    updatedAt: "2026-01-01T00:00:00.000Z",
    ...fields,
  };
}

/** A zip holding `<name>/SKILL.md` that names the version. */
export function skillZip(name: string, version: string): Uint8Array {
  return zipSync({ [`${name}/SKILL.md`]: strToU8(`---\nname: ${name}\ndescription: version ${version}\n---\n`) });
}

/** An item with an archive for every given version (the entry's version is the latest). */
export function registryItem(entry: SkillRegistryEntry, versions: readonly string[] = [entry.version]): LocalSkillRegistryItem {
  return { entry, archives: Object.fromEntries(versions.map((version) => [version, skillZip(entry.name, version)])) };
}

/** Six skills: pdf twice (two owners), docx, pdf-tools, xlsx, slides. */
export function sampleItems(): LocalSkillRegistryItem[] {
  return [
    registryItem(
      registryEntry("pdf", {
        owner: "acme",
        description: "Fill and merge PDF forms.",
        downloads: 500,
        stars: 5,
        installs: 40,
        version: "2.0.0",
        createdAt: "2026-01-05T00:00:00Z",
        updatedAt: "2026-03-01T00:00:00Z",
      }),
      ["1.0.0", "2.0.0"],
    ),
    registryItem(
      registryEntry("pdf", {
        owner: "globex",
        description: "Read PDF text.",
        downloads: 20,
        stars: 50,
        installs: 1,
        createdAt: "2026-02-01T00:00:00Z",
        updatedAt: "2026-02-02T00:00:00Z",
      }),
    ),
    registryItem(
      registryEntry("docx", {
        description: "Word documents.",
        downloads: 300,
        stars: 1,
        installs: 300,
        createdAt: "2026-01-02T00:00:00Z",
        updatedAt: "2026-04-01T00:00:00Z",
      }),
    ),
    registryItem(
      registryEntry("pdf-tools", {
        name: "pdf-tools",
        description: "Split pages.",
        downloads: 100,
        stars: 30,
        installs: 5,
        createdAt: "2026-03-01T00:00:00Z",
        updatedAt: "2026-03-02T00:00:00Z",
      }),
    ),
    registryItem(
      registryEntry("xlsx", {
        description: "Spreadsheets with formulas.",
        downloads: 100,
        stars: 2,
        installs: 7,
        createdAt: "2025-12-01T00:00:00Z",
        updatedAt: "2025-12-02T00:00:00Z",
      }),
    ),
    registryItem(
      registryEntry("slides", {
        description: "Presentation decks; exports PDF.",
        downloads: 1,
        stars: 0,
        installs: 0,
        createdAt: "2026-05-01T00:00:00Z",
        updatedAt: "2026-05-01T00:00:00Z",
      }),
    ),
  ];
}
