import type { ToolOutput } from "@agent-tools/core";
import type { SkillIssue, SkillsManagerAction, SkillSummary } from "../domain/skill-types.js";
import { renderSkillIssues } from "../domain/skill-validation.js";
import type { SkillRegistryEntry, SkillRegistryPage } from "../ports/skill-registry.js";
import type { SkillFilePage } from "../runtime/skill-file-read.js";
import type { SkillChange } from "../runtime/skill-library.js";

/** The `details` of every SkillsManager result. */
export type SkillsManagerDetails =
  | { readonly kind: "skills"; readonly action: "list"; readonly skills: readonly SkillSummary[]; readonly hidden: number }
  | {
      readonly kind: "skills";
      readonly action: "read";
      readonly name: string;
      readonly path: string;
      readonly offset: number;
      readonly lineCount: number;
      readonly totalLines: number;
      readonly nextOffset?: number;
    }
  | { readonly kind: "skills"; readonly action: "install" | "create" | "registry_install"; readonly change: SkillChange }
  | { readonly kind: "skills"; readonly action: "validate"; readonly name: string; readonly valid: boolean; readonly issues: readonly SkillIssue[] }
  | { readonly kind: "skills"; readonly action: "package"; readonly name: string; readonly archivePath: string }
  | { readonly kind: "skills"; readonly action: "delete"; readonly name: string }
  | { readonly kind: "skills"; readonly action: "registry_search"; readonly items: readonly SkillRegistryEntry[]; readonly nextCursor?: string }
  | { readonly kind: "skills"; readonly action: SkillsManagerAction; readonly error: { readonly code: string; readonly message: string } };

/** `skill://<name>/<path>`. */
export function skillUri(name: string, relativePath = ""): string {
  return `skill://${name}/${relativePath}`;
}

/** A refusal or failure, as an error result the model can act on. */
export function skillsErrorOutput(action: SkillsManagerAction, code: string, message: string): ToolOutput<SkillsManagerDetails> {
  return { content: `SkillsManager ${action} failed: ${message}`, isError: true, details: { kind: "skills", action, error: { code, message } } };
}

/** The enabled skills, one line each, and how many installed skills this session does not offer. */
export function listOutput(skills: readonly SkillSummary[], hidden: number): ToolOutput<SkillsManagerDetails> {
  const lines = skills.map((skill) => {
    const marks = [skill.builtIn ? "built-in" : undefined, skill.protected && !skill.builtIn ? "protected" : undefined].filter(Boolean);
    return `- ${skill.name}${marks.length > 0 ? ` (${marks.join(", ")})` : ""}: ${skill.description || "(no description)"} -> ${skill.metadataFile === undefined ? `${skillUri(skill.name)} (no description file)` : skillUri(skill.name, skill.metadataFile)}`;
  });
  const header = skills.length === 0 ? "No skills are enabled." : `${skills.length} enabled skill${skills.length === 1 ? "" : "s"}:`;
  const footer = hidden > 0 ? [`(${hidden} more installed but not enabled in this session.)`] : [];
  return {
    content: [
      header,
      ...lines,
      ...footer,
      "Read the file after a skill's arrow (its SKILL.md, or the README.md or skill.json that describes it) before using it.",
    ].join("\n"),
    details: { kind: "skills", action: "list", skills, hidden },
  };
}

/** A page of a skill file, with where to continue. */
export function readOutput(page: SkillFilePage): ToolOutput<SkillsManagerDetails> {
  const last = page.offset + page.lineCount;
  const range = page.lineCount === 0 ? "no lines" : `lines ${page.offset}-${last - 1} (0-based) of ${page.totalLines}`;
  const more = page.nextOffset === undefined ? "" : `\n[More: call read with offset ${page.nextOffset}.]`;
  return {
    content: `${skillUri(page.name, page.path)} (${range})\n${page.content}${more}`,
    details: {
      kind: "skills",
      action: "read",
      name: page.name,
      path: page.path,
      offset: page.offset,
      lineCount: page.lineCount,
      totalLines: page.totalLines,
      ...(page.nextOffset === undefined ? {} : { nextOffset: page.nextOffset }),
    },
  };
}

/** What an install or create did: where the skill is, and what happened to an older copy. */
export function changeOutput(action: "install" | "create" | "registry_install", change: SkillChange, source?: string): ToolOutput<SkillsManagerDetails> {
  const verb = change.action === "created" ? "Created" : "Installed";
  const previous =
    change.previous === "backed_up"
      ? ` The previous version was moved to ${change.backupPath}.`
      : change.previous === "overwritten"
        ? " The previous version was replaced."
        : "";
  return {
    content: `${verb} skill ${change.name}${source === undefined ? "" : ` from ${source}`} at ${skillUri(change.name)} (${change.path}).${previous} It is enabled for this session; read ${skillUri(change.name, change.metadataFile)} before using it.`,
    details: { kind: "skills", action, change },
  };
}

/** The result of validating an installed skill. */
export function validateOutput(name: string, issues: readonly SkillIssue[]): ToolOutput<SkillsManagerDetails> {
  const valid = issues.length === 0;
  return {
    content: valid ? `Skill ${name} is valid.` : renderSkillIssues(name, issues),
    ...(valid ? {} : { isError: true }),
    details: { kind: "skills", action: "validate", name, valid, issues },
  };
}

/** Where `package` wrote the archive. */
export function packageOutput(name: string, archivePath: string): ToolOutput<SkillsManagerDetails> {
  return { content: `Packaged skill ${name} to ${archivePath}.`, details: { kind: "skills", action: "package", name, archivePath } };
}

/** A deleted skill. */
export function deleteOutput(name: string): ToolOutput<SkillsManagerDetails> {
  return { content: `Deleted skill ${name}.`, details: { kind: "skills", action: "delete", name } };
}

/** A page of registry results, one line each, with the next cursor. */
export function registrySearchOutput(query: string, page: SkillRegistryPage): ToolOutput<SkillsManagerDetails> {
  const lines = page.items.map(
    (item) =>
      `- ${item.slug} (owner ${item.owner}, v${item.version}, ${item.downloads} downloads, ${item.stars} stars, updated ${item.updatedAt.slice(0, 10)}): ${item.description}`,
  );
  const header = page.items.length === 0 ? `No registry skills match "${query}".` : `Registry skills matching "${query}":`;
  const next = page.nextCursor === undefined ? [] : [`More results: call registry_search with cursor "${page.nextCursor}".`];
  const hint = page.items.length === 0 ? [] : ["Install one with registry_install {slug, owner?}."];
  return {
    content: [header, ...lines, ...next, ...hint].join("\n"),
    details: { kind: "skills", action: "registry_search", items: page.items, ...(page.nextCursor === undefined ? {} : { nextCursor: page.nextCursor }) },
  };
}
