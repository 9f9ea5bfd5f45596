/**
 * @agent-tools/skills: agent skills (folders with a SKILL.md) for the
 * SDK's registry. The SkillsManager tool lists, reads, installs (from a
 * folder, a `.zip` / `.skill` archive, an http(s) URL, a git repository or
 * a skill registry), creates, validates, packages and deletes skills;
 * installs are built and validated in a staging folder and swapped into
 * place by renames under a cross-process lock. A SkillAccessController
 * decides which skills the model may use and change, and is enforced in
 * `skill://` path resolution, in Bash and in SkillsManager.
 *
 * @packageDocumentation
 */
export { SKILL_DENIAL_SUFFIX } from "./domain/skill-types.js";
export type { SkillAccessPolicy } from "./domain/skill-types.js";

// Domain: the format, sources, access rules and the Bash guard (pure).

// Ports: the skill registry and its in-memory double.
export type { SkillRegistry, SkillRegistryEntry } from "./ports/skill-registry.js";
export { LocalSkillRegistry } from "./ports/local-skill-registry.js";

// Runtime: the library on disk, the access controller, the HTTP registry.
export { HttpSkillRegistry } from "./runtime/http-skill-registry.js";
export type { HttpSkillRegistryOptions } from "./runtime/http-skill-registry.js";

// Tools: SkillsManager and the bundle.
export type { ManagedSkillsChange } from "./tools/skills-manager-tool.js";
export type { SkillsManagerDetails } from "./tools/skills-manager-output.js";
export { createSkillToolBundle } from "./tools/skill-tool-bundle.js";
export type { SkillToolBundle, SkillToolBundleOptions } from "./tools/skill-tool-bundle.js";
export { skillTools } from "./tools/skill-tools-plugin.js";
export type { SkillToolsPluginOptions } from "./tools/skill-tools-plugin.js";
