import { lstat, mkdir, readdir, rm } from "node:fs/promises";
import path from "node:path";
import { type GitClient, ToolError } from "@agent-tools/core";
import { skillNameProblem } from "../domain/skill-name.js";
import { renderSkillTemplate, validateCreateFiles } from "../domain/skill-template.js";
import {
  BUILTIN_SKILL_NAMES,
  SKILLS_ROOT_FOLDERS,
  type SkillConflictMode,
  type SkillInstallSource,
  type SkillIssue,
  type SkillMetadata,
  type SkillValidation,
} from "../domain/skill-types.js";
import { renderSkillIssues } from "../domain/skill-validation.js";
import { BUILTIN_SKILLS } from "./builtin-skills.js";
import { extractSkillArchive, writeSkillArchive } from "./skill-archive.js";
import { checkSkillFolder } from "./skill-folder-check.js";
import { type SkillFilePage, readSkillFilePage } from "./skill-file-read.js";
import { stageInstallSource } from "./skill-sources.js";
import { holdsExactly, makeStagingFolder, withTree, writeCreatedSkill, writeStagedFiles } from "./skill-staging.js";
import { folderStamp, purgeStagingFolder, recoverInterruptedSwaps, type SkillSwapOutcome, swapSkillIntoPlace } from "./skill-swap.js";
import { SkillsWriteGuard, type SkillsWriteGuardOptions } from "./skills-write-guard.js";

/** Options of a {@link SkillLibrary}. */
export interface SkillLibraryOptions {
  /** The skills root, e.g. `<dataDir>/skills` (created when missing). */
  readonly rootDir: string;
  /** Needed to install from git repositories. */
  readonly gitClient?: GitClient;
  /** Used for downloads (default: the global `fetch`). */
  readonly fetch?: typeof fetch;
  /** The clock, in milliseconds since the epoch (default `Date.now`). */
  readonly now?: () => number;
  /** Options of the cross-process write lock. */
  readonly lock?: SkillsWriteGuardOptions;
}

/**
 * An installed skill as the library sees it. `enabled` and `protected` of a
 * listing (`SkillSummary`) depend on the host's access policy: the caller
 * adds them (built-ins are always both).
 */
export interface InstalledSkill {
  readonly name: string;
  /** From the metadata; empty when it cannot be read. */
  readonly description: string;
  readonly builtIn: boolean;
  readonly baseDir: string;
  /** The file that describes the skill (see `SKILL_METADATA_FILES`); absent when none could be read. */
  readonly metadataFile?: SkillMetadata["metadataFile"];
  readonly valid: boolean;
  readonly issues: readonly SkillIssue[];
}

/** What an install or create did, for the tool layer to render. */
export type SkillChange = {
  readonly action: "installed" | "created";
  readonly name: string;
  readonly description: string;
  /** The file that describes the skill, relative to its folder (SKILL.md, skill.md, skill.json or README.md). */
  readonly metadataFile: SkillMetadata["metadataFile"];
  /** The skill's folder. */
  readonly path: string;
  readonly conflict: SkillConflictMode;
} & SkillSwapOutcome;

/** Options of {@link SkillLibrary.install}. */
export interface SkillInstallOptions {
  /** When the skill exists (default `backup`). */
  readonly conflict?: SkillConflictMode;
  /** The name the staged skill must carry (registry installs, tools that know it). */
  readonly expectedName?: string;
  readonly signal?: AbortSignal;
  /**
   * Asked once the staged skill's name is known, under the write guard
   * right before the swap: a message refuses the install
   * (`permission_denied`; e.g. a skill the host protects, or one the
   * session may not use), undefined lets it go on.
   */
  readonly mayReplace?: (name: string) => string | undefined;
  /**
   * Called with the canonical path of a local source (folder, archive,
   * local git repository) once opened; throw to refuse it. The tool layer
   * applies the registry's read policy here; a host installing on its own
   * behalf leaves it out.
   */
  readonly checkLocalSource?: (canonicalPath: string) => void;
}

/** Options of {@link SkillLibrary.create}. */
export interface SkillCreateOptions {
  /** As {@link SkillInstallOptions.mayReplace}: asked under the write guard before the new skill is swapped in. */
  readonly mayReplace?: (name: string) => string | undefined;
}

/** Input of {@link SkillLibrary.create}. */
export interface SkillCreateInput {
  readonly name: string;
  readonly description: string;
  readonly body?: string;
  readonly files?: readonly { readonly path: string; readonly content: string }[];
  /** When the skill exists (default `fail`). */
  readonly conflict?: SkillConflictMode;
}

const isBuiltin = (name: string) => (BUILTIN_SKILL_NAMES as readonly string[]).includes(name);

/**
 * The skills on disk under one root: listing, reading, validating, and
 * every change (install, create, package, delete, built-in seeding).
 *
 * Changes are built and validated in `<root>/.staging/<name>-<nanos>-<seq>`
 * first, outside the write lock (downloads and clones included); only the
 * final renames run under the {@link SkillsWriteGuard}, which also covers
 * delete, package and seeding. A swap interrupted by a crash is finished by
 * the next guarded change or {@link SkillLibrary.purgeStaging}, so a skill
 * that existed is always its old or its new version. Built-in skills are
 * never overwritten or deleted through the public methods.
 *
 * @example
 * const library = await SkillLibrary.open({ rootDir: path.join(dataDir, "skills"), gitClient });
 * await library.seedBuiltins();
 * const change = await library.install({ kind: "archive", path: "/tmp/pdf.skill" }, { conflict: "backup" });
 */
export class SkillLibrary {
  readonly rootDir: string;
  readonly #options: SkillLibraryOptions;
  readonly #guard: SkillsWriteGuard;
  readonly #now: () => number;
  #sequence = 0;

  constructor(options: SkillLibraryOptions) {
    this.rootDir = path.resolve(options.rootDir);
    this.#options = options;
    this.#guard = new SkillsWriteGuard(this.rootDir, options.lock);
    this.#now = options.now ?? Date.now;
  }

  /** Creates the root when missing (mode 0700) and purges staging (finishing interrupted swaps). */
  static async open(options: SkillLibraryOptions): Promise<SkillLibrary> {
    const library = new SkillLibrary(options);
    await mkdir(library.rootDir, { recursive: true, mode: 0o700 });
    await library.purgeStaging();
    return library;
  }

  /** Installed skills (folders at the top of the root not starting with `.`), sorted by name. */
  async list(): Promise<InstalledSkill[]> {
    const entries = await readdir(this.rootDir, { withFileTypes: true }).catch(() => []);
    const skills: InstalledSkill[] = [];
    for (const entry of entries.filter((item) => item.isDirectory() && !item.name.startsWith(".")).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const baseDir = path.join(this.rootDir, entry.name);
      const validation = await checkSkillFolder(baseDir, entry.name).catch(() => undefined);
      if (validation === undefined) continue;
      skills.push({
        name: entry.name,
        description: validation.metadata?.description ?? "",
        builtIn: isBuiltin(entry.name),
        baseDir,
        ...(validation.metadata === undefined ? {} : { metadataFile: validation.metadata.metadataFile }),
        valid: validation.ok,
        issues: validation.issues,
      });
    }
    return skills;
  }

  /** Lines of a text file of a skill (0-based `offset`, `length` default 200). */
  async readFile(name: string, relativePath: string, options: { readonly offset?: number; readonly length?: number } = {}): Promise<SkillFilePage> {
    return readSkillFilePage(name, await this.#existingSkill(name), relativePath, options);
  }

  /** Validates an installed skill. */
  async validate(name: string): Promise<{ readonly name: string; readonly baseDir: string; readonly validation: SkillValidation }> {
    const baseDir = await this.#existingSkill(name);
    return { name, baseDir, validation: await checkSkillFolder(baseDir, name) };
  }

  /** Installs a skill from a folder, archive, URL or git repository (see `stageInstallSource`). */
  async install(source: SkillInstallSource, options: SkillInstallOptions = {}): Promise<SkillChange> {
    return this.#stageAndSwap(
      options.expectedName,
      options.conflict ?? "backup",
      "installed",
      (work) =>
        stageInstallSource(source, work, {
          ...(this.#options.gitClient === undefined ? {} : { gitClient: this.#options.gitClient }),
          ...(this.#options.fetch === undefined ? {} : { fetch: this.#options.fetch }),
          ...(options.signal === undefined ? {} : { signal: options.signal }),
          ...(options.checkLocalSource === undefined ? {} : { checkLocalSource: options.checkLocalSource }),
        }),
      options.signal,
      options.mayReplace,
    );
  }

  /** Installs a skill from zip bytes (a registry download). */
  async installArchive(bytes: Uint8Array, options: SkillInstallOptions = {}): Promise<SkillChange> {
    return this.#stageAndSwap(
      options.expectedName,
      options.conflict ?? "backup",
      "installed",
      (work) => extractSkillArchive(bytes, path.join(work, "archive"), options.signal === undefined ? {} : { signal: options.signal }),
      options.signal,
      options.mayReplace,
    );
  }

  /**
   * Creates a skill from a name, description, optional body and extra files
   * (SKILL.md rendered from the template). A file whose content starts with
   * `#!` is written executable (0755), others 0644. Every file is written
   * through a contained tree held at the staging folder.
   */
  async create(input: SkillCreateInput, options: SkillCreateOptions = {}): Promise<SkillChange> {
    const nameProblem = skillNameProblem(input.name);
    if (nameProblem !== undefined) throw new ToolError("invalid_arguments", nameProblem, { details: { name: input.name } });
    const files = input.files ?? [];
    const issues = validateCreateFiles(files);
    if (issues.length > 0) throw new ToolError("invalid_arguments", renderSkillIssues(input.name, issues), { details: { name: input.name, issues } });
    return this.#stageAndSwap(
      input.name,
      input.conflict ?? "fail",
      "created",
      (work) => writeCreatedSkill(work, input.name, renderSkillTemplate(input), files),
      undefined,
      options.mayReplace,
    );
  }

  /** Validates and zips a skill to `<root>/.packages/<name>.skill`; returns that path. */
  async package(name: string): Promise<string> {
    const baseDir = await this.#existingSkill(name);
    return this.#guard.run(async () => {
      await recoverInterruptedSwaps(this.rootDir);
      const validation = await checkSkillFolder(baseDir, name);
      if (!validation.ok)
        throw new ToolError("invalid_arguments", renderSkillIssues(name, validation.issues), { details: { name, issues: validation.issues } });
      const bytes = await writeSkillArchive(baseDir, name);
      const relative = `${SKILLS_ROOT_FOLDERS.packages}/${name}.skill`;
      await withTree(this.rootDir, (tree) => tree.writeFile(relative, bytes, { mode: 0o644 }));
      return path.join(this.rootDir, SKILLS_ROOT_FOLDERS.packages, `${name}.skill`);
    });
  }

  /** Deletes an installed skill (never a built-in). */
  async delete(name: string): Promise<{ readonly name: string; readonly path: string }> {
    this.#refuseBuiltin(name, "deleted");
    const baseDir = await this.#existingSkill(name);
    await this.#guard.run(async () => {
      await recoverInterruptedSwaps(this.rootDir);
      const trash = `${SKILLS_ROOT_FOLDERS.staging}/trash-${name}-${folderStamp(this.#now())}-${this.#sequence++}`;
      try {
        await withTree(this.rootDir, (tree) => tree.rename(name, trash));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") throw this.#notFound(name);
        throw error;
      }
      await rm(path.join(this.rootDir, trash), { recursive: true, force: true });
    });
    return { name, path: baseDir };
  }

  /** Writes the built-in skills that are missing or differ from this version; returns their names. */
  async seedBuiltins(): Promise<string[]> {
    const written: string[] = [];
    for (const skill of BUILTIN_SKILLS) {
      if (await holdsExactly(path.join(this.rootDir, skill.name), skill.files)) continue;
      const work = await this.#makeStagingDir(skill.name);
      try {
        const folder = await writeStagedFiles(work, `staged/${skill.name}`, skill.files);
        await this.#guard.run(async () => {
          await recoverInterruptedSwaps(this.rootDir);
          await swapSkillIntoPlace(this.rootDir, { name: skill.name, staged: folder, conflict: "overwrite", now: this.#now() });
        });
        written.push(skill.name);
      } finally {
        await rm(work, { recursive: true, force: true });
      }
    }
    return written;
  }

  /** Finishes interrupted swaps and removes trash and staging older than 24 h; returns how many entries it removed. */
  async purgeStaging(): Promise<number> {
    return this.#guard.run(() => purgeStagingFolder(this.rootDir, this.#now()));
  }

  async #stageAndSwap(
    expectedName: string | undefined,
    conflict: SkillConflictMode,
    action: SkillChange["action"],
    stage: (work: string) => Promise<string>,
    signal?: AbortSignal,
    mayReplace?: (name: string) => string | undefined,
  ): Promise<SkillChange> {
    if (expectedName !== undefined) this.#refuseBuiltin(expectedName, "replaced");
    const work = await this.#makeStagingDir(expectedName ?? "install");
    try {
      const folder = await stage(work);
      // The metadata names the skill; a README without frontmatter takes the folder's name.
      const first = await checkSkillFolder(folder, expectedName ?? path.basename(folder));
      const name = first.metadata?.name ?? expectedName ?? path.basename(folder);
      if (expectedName !== undefined && name !== expectedName) {
        throw new ToolError("invalid_arguments", `The staged skill is named "${name}", not "${expectedName}"; nothing was installed.`, {
          details: { name, expectedName },
        });
      }
      const nameProblem = skillNameProblem(name);
      if (nameProblem !== undefined || first.metadata === undefined) {
        throw new ToolError("invalid_arguments", renderSkillIssues(name, first.issues), { details: { name, issues: first.issues } });
      }
      this.#refuseBuiltin(name, "replaced");
      const staged = path.join(work, "staged", name);
      const from = path.relative(work, folder).split(path.sep).join("/");
      await withTree(work, (tree) => tree.rename(from, `staged/${name}`));
      const validation = await checkSkillFolder(staged, name);
      if (!validation.ok)
        throw new ToolError("invalid_arguments", renderSkillIssues(name, validation.issues), { details: { name, issues: validation.issues } });
      signal?.throwIfAborted();
      const outcome = await this.#guard.run(async () => {
        await recoverInterruptedSwaps(this.rootDir);
        // Asked under the guard, so what it sees (e.g. whether the skill exists) holds until the swap.
        const refusal = mayReplace?.(name);
        if (refusal !== undefined) throw new ToolError("permission_denied", refusal, { details: { name } });
        return swapSkillIntoPlace(this.rootDir, { name, staged, conflict, now: this.#now() });
      });
      const { description, metadataFile } = validation.metadata;
      return { action, name, description, metadataFile, path: path.join(this.rootDir, name), conflict, ...outcome };
    } finally {
      await rm(work, { recursive: true, force: true });
      await this.purgeStaging().catch(() => undefined);
    }
  }

  /** A new folder `.staging/<label>-<nanos>-<seq>` (see {@link makeStagingFolder}). */
  async #makeStagingDir(label: string): Promise<string> {
    return makeStagingFolder(this.rootDir, label, () => {
      const nanos = BigInt(this.#now()) * 1_000_000n + (process.hrtime.bigint() % 1_000_000n);
      return `${nanos}-${this.#sequence++}`;
    });
  }

  #refuseBuiltin(name: string, verb: string): void {
    if (isBuiltin(name)) {
      throw new ToolError("permission_denied", `"${name}" is a built-in skill and cannot be ${verb}. Use another name for your own skill.`, {
        details: { name },
      });
    }
  }

  #notFound(name: string): ToolError {
    return new ToolError("not_found", `No skill named "${name}" is installed. Use SkillsManager action "list" to see the installed skills.`, {
      details: { name },
    });
  }

  /** The folder of an installed skill; `not_found` when missing, `invalid_arguments` for a name that is not a skill name. */
  async #existingSkill(name: string): Promise<string> {
    if (name === "" || name.startsWith(".") || name.includes("/") || name.includes("\\") || name.includes("\0")) {
      throw new ToolError("invalid_arguments", `"${name}" is not a skill name. Use SkillsManager action "list" to see the installed skills.`, {
        details: { name },
      });
    }
    const baseDir = path.join(this.rootDir, name);
    const stats = await lstat(baseDir).catch(() => undefined);
    if (stats === undefined || !stats.isDirectory()) throw this.#notFound(name);
    return baseDir;
  }
}
