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
export {
  SKILL_LIMITS,
  SKILL_METADATA_FILES,
  SKILL_FRONTMATTER_KEYS,
  FORBIDDEN_SKILL_DOCS,
  BUILTIN_SKILL_NAMES,
  SKILLS_ROOT_FOLDERS,
  SKILL_DENIAL_SUFFIX,
} from "./domain/skill-types.js";
export type {
  SkillConflictMode,
  SkillInstallMethod,
  SkillsManagerAction,
  SkillRegistrySort,
  SkillAccessPolicy,
  SkillFileEntry,
  SkillIssueCode,
  SkillIssue,
  SkillMetadata,
  SkillValidation,
  SkillSummary,
  SkillInstallSource,
} from "./domain/skill-types.js";

// Domain: the format, sources, access rules and the Bash guard (pure).
export { skillNameProblem, suggestSkillName } from "./domain/skill-name.js";
export { parseSkillMetadata } from "./domain/skill-metadata.js";
export type { SkillMetadataFile, SkillMetadataParse } from "./domain/skill-metadata.js";
export { pickMetadataFile, validateSkillFolder, renderSkillIssues, skillPathProblem } from "./domain/skill-validation.js";
export { renderSkillTemplate, validateCreateFiles } from "./domain/skill-template.js";
export { parseInstallSource, DEFAULT_SKILL_REF } from "./domain/skill-source.js";
export type { InstallSourceOptions } from "./domain/skill-source.js";
export { parseSkillReadPath } from "./domain/skill-read-path.js";
export type { SkillReadPath } from "./domain/skill-read-path.js";
export { normalizeRegistrySearch, SKILL_REGISTRY_SORTS } from "./domain/registry-search-input.js";
export type { NormalizedRegistrySearch } from "./domain/registry-search-input.js";
export {
  isSkillEnabled,
  isSkillProtected,
  isBuiltInSkill,
  decideSkillPathAccess,
  decideManagerAction,
  SKILL_INVENTORY_ACTIONS,
  SKILL_MANAGEMENT_ACTIONS,
} from "./domain/skill-access-rules.js";
export type { SkillAccessState } from "./domain/skill-access-rules.js";
export { checkSkillCommand } from "./domain/skill-command-policy.js";
export type { SkillCommandRequest, SkillCommandFacts } from "./domain/skill-command-policy.js";
export { renderSkillsPromptSection } from "./domain/skills-prompt.js";

// Ports: the skill registry and its in-memory double.
export type {
  SkillRegistry,
  SkillRegistryEntry,
  SkillRegistrySearch,
  SkillRegistryPage,
  SkillRegistryDownloadRequest,
  SkillRegistryDownload,
} from "./ports/skill-registry.js";
export { LocalSkillRegistry } from "./ports/local-skill-registry.js";
export type { LocalSkillRegistryItem } from "./ports/local-skill-registry.js";

// Runtime: the library on disk, the access controller, the HTTP registry.
export { SkillLibrary } from "./runtime/skill-library.js";
export type { SkillLibraryOptions, InstalledSkill, SkillChange, SkillInstallOptions, SkillCreateInput } from "./runtime/skill-library.js";
export type { SkillSwapOutcome } from "./runtime/skill-swap.js";
export type { SkillFilePage } from "./runtime/skill-file-read.js";
export { SkillsWriteGuard } from "./runtime/skills-write-guard.js";
export type { SkillsWriteGuardOptions, SkillsLockHolder } from "./runtime/skills-write-guard.js";
export { extractSkillArchive, writeSkillArchive } from "./runtime/skill-archive.js";
export { SkillAccessController } from "./runtime/skill-access-controller.js";
export { skillSandboxMounts } from "./runtime/skill-sandbox-mounts.js";
export type { SkillSandboxMounts } from "./runtime/skill-sandbox-mounts.js";
export type { SkillAccessControllerOptions, SkillCommandPolicyRequest } from "./runtime/skill-access-controller.js";
export { HttpSkillRegistry } from "./runtime/http-skill-registry.js";
export type { HttpSkillRegistryOptions, SkillRegistryFetch } from "./runtime/http-skill-registry.js";
export { BUILTIN_SKILLS } from "./runtime/builtin-skills.js";
export type { BuiltinSkill } from "./runtime/builtin-skills.js";

// Tools: SkillsManager and the bundle.
export { createSkillsManagerTool, SKILLS_MANAGER_METADATA } from "./tools/skills-manager-tool.js";
export type { ManagedSkillsChange, SkillsManagerRuntime } from "./tools/skills-manager-tool.js";
export { SKILLS_MANAGER_ACTIONS, SKILLS_MANAGER_DESCRIPTION, skillsManagerInputSchema } from "./tools/skills-manager-schema.js";
export type { SkillsManagerInput } from "./tools/skills-manager-schema.js";
export type { SkillsManagerDetails } from "./tools/skills-manager-output.js";
export { createSkillToolBundle } from "./tools/skill-tool-bundle.js";
export type { SkillToolBundle, SkillToolBundleOptions } from "./tools/skill-tool-bundle.js";
