/**
 * The shared vocabulary of the skills package: limits, the access policy a
 * host gives, what validation reports, what a folder listing holds, and the
 * parsed forms of the SkillsManager's inputs. Pure types and constants.
 */

/** Limits and fixed names of the skill format. */
export const SKILL_LIMITS = Object.freeze({
  /** Longest skill name, in characters. */
  nameMaxLength: 64,
  /** Longest description, in characters. */
  descriptionMaxLength: 1024,
  /**
   * Largest YAML frontmatter parsed, in bytes (a name, a description of at
   * most 1024 characters and a little metadata fit many times over). The
   * YAML parser runs synchronously and grows worse than linearly with the
   * keys of a mapping (a 200 KB frontmatter held the event loop for 14 s):
   * a larger frontmatter is an issue, never parsed.
   */
  frontmatterMaxBytes: 16 * 1024,
  /** Largest single file `create` (and an install) accepts, in bytes. */
  fileMaxBytes: 10 * 1024 * 1024,
  /** Largest whole skill folder an install accepts, in bytes. */
  skillMaxBytes: 50 * 1024 * 1024,
  /** Most files in one skill folder. */
  skillMaxFiles: 2_000,
  /** Largest archive or download, in bytes. */
  downloadMaxBytes: 50 * 1024 * 1024,
  /** Largest uncompressed/compressed ratio of an archive entry past 1 MiB (zip bombs reach ~1000). */
  archiveMaxCompressionRatio: 200,
  /** Deepest folder nesting an install accepts (archive entries and source folders). */
  folderMaxDepth: 32,
  /** Staging folders older than this are purged, in milliseconds (24 h). */
  stagingMaxAgeMs: 24 * 60 * 60 * 1000,
  /** Default `length` of the read action, in lines. */
  readDefaultLength: 200,
  /** Registry search `limit` bounds and default. */
  registryLimitMin: 1,
  registryLimitMax: 20,
  registryLimitDefault: 10,
});

/** Metadata file names, in precedence order: the first one present describes the skill. */
export const SKILL_METADATA_FILES = Object.freeze(["SKILL.md", "skill.md", "skill.json", "README.md"] as const);

/** The frontmatter keys a SKILL.md may carry. */
export const SKILL_FRONTMATTER_KEYS = Object.freeze(["name", "description", "license", "allowed-tools", "metadata"] as const);

/** Extra documents a skill folder must not carry (besides the metadata file). */
export const FORBIDDEN_SKILL_DOCS = Object.freeze(["README.md", "INSTALLATION_GUIDE.md", "QUICK_REFERENCE.md", "CHANGELOG.md"] as const);

/** Names of the two built-in skills, always enabled and never changed by the model. */
export const BUILTIN_SKILL_NAMES = Object.freeze(["skills-creator", "skills-installer"] as const);

/** Hidden folders under the skills root (never skills themselves). */
export const SKILLS_ROOT_FOLDERS = Object.freeze({ staging: ".staging", backups: ".backups", packages: ".packages", lock: ".lock" });

/** The sentence every skill-policy denial ends with. */
export const SKILL_DENIAL_SUFFIX = "Do not bypass this with Bash, absolute paths, find /, or the skills folder.";

/** What to do when the target skill already exists. */
export type SkillConflictMode = "backup" | "fail" | "overwrite";

/** How an install source is fetched: `auto` decides from its form. */
export type SkillInstallMethod = "auto" | "download" | "git";

/** SkillsManager actions. */
export type SkillsManagerAction = "read" | "list" | "install" | "create" | "validate" | "package" | "delete" | "registry_search" | "registry_install";

/** Registry search order. */
export type SkillRegistrySort = "downloads" | "stars" | "installs" | "updated" | "newest";

/**
 * Which skills the model may see and change, given by the host. A list
 * field restricts only when it is an array (undefined = no restriction).
 * `protected*` skills are readable but never changed. Inventory covers
 * list and registry search; management covers install, create, validate,
 * package and delete; mutation covers Write / Edit / Delete inside skills.
 */
export interface SkillAccessPolicy {
  /** Skills the model may use (read, run scripts); undefined = every installed skill. */
  readonly allowedSkillNames?: readonly string[];
  /** Skill folders (absolute) the model may use; undefined = no restriction. */
  readonly allowedSkillBaseDirs?: readonly string[];
  /** Skills that are readable but never changed, deleted or overwritten. */
  readonly protectedSkillNames?: readonly string[];
  /** Skill folders (absolute) that are readable but never changed. */
  readonly protectedSkillBaseDirs?: readonly string[];
  /** list and registry_search; default true. */
  readonly allowSkillInventory?: boolean;
  /** install, create, validate, package, delete, registry_install; default true. */
  readonly allowSkillManagement?: boolean;
  /** Write / Edit / Delete inside a skill folder through the file tools; default false. */
  readonly allowSkillMutation?: boolean;
}

/** One entry of a skill folder listing, paths relative to the skill folder with `/`. */
export interface SkillFileEntry {
  readonly path: string;
  readonly kind: "file" | "directory" | "symlink";
  /** Size in bytes (0 for directories and symlinks). */
  readonly size: number;
  /** The first line of a file (up to 256 characters), read for the shebang rule of scripts. */
  readonly firstLine?: string;
}

/** Codes of validation issues. */
export type SkillIssueCode =
  | "metadata_missing"
  | "frontmatter_invalid"
  | "frontmatter_unexpected_keys"
  | "name_missing"
  | "name_invalid"
  | "name_mismatch"
  | "description_missing"
  | "description_invalid"
  | "symlink"
  | "forbidden_doc"
  | "shebang_missing"
  | "file_too_large"
  | "skill_too_large"
  | "too_many_files"
  | "path_invalid";

/** One problem found in a skill folder. */
export interface SkillIssue {
  readonly code: SkillIssueCode;
  /** The file concerned, relative to the skill folder, when there is one. */
  readonly path?: string;
  /** What is wrong and how to fix it, for the model. */
  readonly message: string;
}

/** Parsed metadata of a skill. */
export interface SkillMetadata {
  readonly name: string;
  readonly description: string;
  readonly license?: string;
  /** `allowed-tools`, as a list. */
  readonly allowedTools?: readonly string[];
  readonly metadata?: Readonly<Record<string, unknown>>;
  /** Which metadata file it came from. */
  readonly metadataFile: (typeof SKILL_METADATA_FILES)[number];
  /** The Markdown body after the frontmatter (empty for skill.json). */
  readonly body: string;
}

/** The outcome of validating one skill folder. */
export type SkillValidation =
  | { readonly ok: true; readonly metadata: SkillMetadata; readonly issues: readonly [] }
  | { readonly ok: false; readonly metadata?: SkillMetadata; readonly issues: readonly SkillIssue[] };

/** An installed skill as listings show it. */
export interface SkillSummary {
  readonly name: string;
  readonly description: string;
  /** One of the two built-ins. */
  readonly builtIn: boolean;
  /** Absolute folder of the skill. */
  readonly baseDir: string;
  /** Enabled for the model under the access policy. */
  readonly enabled: boolean;
  /** Readable but never changed (built-ins and protected skills). */
  readonly protected: boolean;
  /**
   * The file that describes the skill, relative to its folder (SKILL.md,
   * skill.md, skill.json or README.md); the model is pointed at it. Absent
   * means SKILL.md.
   */
  readonly metadataFile?: (typeof SKILL_METADATA_FILES)[number];
}

/** Where an install comes from, parsed from the `source` argument (see `parseInstallSource`). */
export type SkillInstallSource =
  | { readonly kind: "directory"; readonly path: string }
  | { readonly kind: "archive"; readonly path: string }
  | { readonly kind: "download"; readonly url: string }
  | {
      readonly kind: "git";
      /** Clone URL. */
      readonly url: string;
      /** Branch, tag or commit; default `main`. */
      readonly ref: string;
      /** Folder inside the repository holding the skill ("" = the repository root). */
      readonly subdirectory: string;
    };
