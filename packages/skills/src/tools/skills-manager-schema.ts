import { z } from "zod";
import { SKILL_LIMITS } from "../domain/skill-types.js";

/** Every SkillsManager action. */
export const SKILLS_MANAGER_ACTIONS = ["read", "list", "install", "create", "validate", "package", "delete", "registry_search", "registry_install"] as const;

/** The fields each action cannot do without. */
export const SKILLS_MANAGER_REQUIRED: Readonly<Record<(typeof SKILLS_MANAGER_ACTIONS)[number], readonly string[]>> = Object.freeze({
  read: ["path"],
  list: [],
  install: ["source"],
  create: ["name", "description"],
  validate: ["name"],
  package: ["name"],
  delete: ["name"],
  registry_search: [],
  registry_install: ["slug"],
});

/** The input of SkillsManager: one flat object, the fields each action uses. */
export const skillsManagerInputSchema = z.object({
  action: z.enum(SKILLS_MANAGER_ACTIONS),
  path: z.string().min(1).optional(),
  offset: z.number().int().min(0).optional(),
  length: z.number().int().min(1).max(2_000).optional(),
  source: z.string().min(1).optional(),
  method: z.enum(["auto", "download", "git"]).optional(),
  ref: z.string().min(1).optional(),
  query: z.string().optional(),
  sort: z.enum(["downloads", "stars", "installs", "updated", "newest"]).optional(),
  limit: z.number().int().min(SKILL_LIMITS.registryLimitMin).max(SKILL_LIMITS.registryLimitMax).optional(),
  cursor: z.string().min(1).optional(),
  slug: z.string().min(1).optional(),
  owner: z.string().min(1).optional(),
  version: z.string().min(1).optional(),
  name: z.string().min(1).optional(),
  description: z.string().min(1).optional(),
  body: z.string().optional(),
  files: z
    .array(z.object({ path: z.string().min(1), content: z.string() }).strict())
    .max(SKILL_LIMITS.skillMaxFiles)
    .optional(),
  conflict: z.enum(["backup", "fail", "overwrite"]).optional(),
});

/** The parsed input of SkillsManager. */
export type SkillsManagerInput = z.infer<typeof skillsManagerInputSchema>;

/** The tool description the model reads. */
export const SKILLS_MANAGER_DESCRIPTION = [
  "Manage agent skills (folders with a SKILL.md: YAML frontmatter `name` and `description`, then instructions; optional scripts/, references/, assets/).",
  "Actions: read {path: skill://<name>/SKILL.md, offset (0-based line), length (default 200 lines)}; list; install {source: local folder or .zip/.skill file (in the workspace or a granted root, as Read allows), http(s) URL or git repository URL (tree/blob URLs work), method auto|download|git, ref (default main), conflict backup (default)|fail|overwrite};",
  "create {name, description, body?, files?: [{path, content}] (not SKILL.md), conflict fail (default)|backup|overwrite}; validate {name}; package {name} (writes <name>.skill); delete {name};",
  "registry_search {query, sort downloads|stars|installs|updated|newest, limit 1-20 (10), cursor}; registry_install {slug, owner?, version?, conflict}.",
  "Names: lowercase letters, digits and single hyphens, at most 64, equal to the folder name. Read a skill's files with Read/Glob on skill://<name>/...; run its scripts by their absolute path.",
].join(" ");
