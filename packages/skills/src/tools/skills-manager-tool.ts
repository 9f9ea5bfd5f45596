import { existsSync } from "node:fs";
import path from "node:path";
import { type ToolContext, type ToolDefinition, ToolError, type ToolMetadata, type ToolOutput, defineTool } from "@agent-tools/core";
import type { ToolEffects } from "@agent-tools/core/durable";
import { normalizeRegistrySearch } from "../domain/registry-search-input.js";
import { parseSkillReadPath } from "../domain/skill-read-path.js";
import { parseInstallSource } from "../domain/skill-source.js";
import { SKILL_DENIAL_SUFFIX, type SkillInstallSource, type SkillsManagerAction } from "../domain/skill-types.js";
import type { SkillRegistry } from "../ports/skill-registry.js";
import type { SkillAccessController } from "../runtime/skill-access-controller.js";
import type { SkillChange, SkillLibrary } from "../runtime/skill-library.js";
import {
  type SkillsManagerDetails,
  changeOutput,
  deleteOutput,
  listOutput,
  packageOutput,
  readOutput,
  registrySearchOutput,
  skillsErrorOutput,
  validateOutput,
} from "./skills-manager-output.js";
import { SKILLS_MANAGER_DESCRIPTION, SKILLS_MANAGER_REQUIRED, type SkillsManagerInput, skillsManagerInputSchema } from "./skills-manager-schema.js";

/** What changed in the managed skills (install, create, registry install, delete). */
export interface ManagedSkillsChange {
  readonly action: "installed" | "created" | "deleted";
  readonly name: string;
  /** The skill's folder. */
  readonly path: string;
}

/** What SkillsManager works on: the session's access state, the library on disk and the registry. */
export interface SkillsManagerRuntime {
  readonly access: SkillAccessController;
  library(): Promise<SkillLibrary>;
  readonly registry?: SkillRegistry;
  /** Told after every change, once the new skill is granted (hosts refresh their system prompt here). */
  onManagedSkillsChanged?(change: ManagedSkillsChange): void | Promise<void>;
}

/** Metadata of SkillsManager: it changes files, so never read-only. */
export const SKILLS_MANAGER_METADATA: ToolMetadata = {
  groupId: "skill",
  kind: "skills",
  isReadOnly: false,
  displayCategory: "system",
  annotations: { readOnly: false, listedInPlanMode: false },
};

function missingFields(input: SkillsManagerInput): string[] {
  return SKILLS_MANAGER_REQUIRED[input.action].filter((field) => input[field as keyof SkillsManagerInput] === undefined);
}

/** The skill a call is about, when it names one. */
function targetName(input: SkillsManagerInput): string | undefined {
  if (input.action === "read" && input.path !== undefined) {
    try {
      return parseSkillReadPath(input.path).skillName;
    } catch {
      return undefined;
    }
  }
  return input.action === "create" || input.action === "validate" || input.action === "package" || input.action === "delete" ? input.name : undefined;
}

async function notify(runtime: SkillsManagerRuntime, change: ManagedSkillsChange): Promise<void> {
  await runtime.onManagedSkillsChanged?.(change);
}

async function granted(runtime: SkillsManagerRuntime, change: SkillChange): Promise<void> {
  runtime.access.grant(change.name);
  await notify(runtime, { action: change.action, name: change.name, path: change.path });
}

/**
 * Refuses replacing a protected skill, or an installed skill this session
 * may not use (an install must not become a way around the allow list);
 * built-ins are refused by the library itself.
 */
function replaceCheck(runtime: SkillsManagerRuntime, rootDir: string): (name: string) => string | undefined {
  return (name) => {
    if (runtime.access.isProtected(name))
      return `Skill "${name}" is protected by the host's skill access policy: it can be read but not replaced. Install it under another name. ${SKILL_DENIAL_SUFFIX}`;
    if (!runtime.access.isEnabled(name) && existsSync(path.join(rootDir, name)))
      return `Skill "${name}" is installed but not enabled for this session, so replacing it is refused. Install it under another name, or ask the user to enable "${name}". ${SKILL_DENIAL_SUFFIX}`;
    return undefined;
  };
}

/** The local path an install source reads, when it reads one: a folder, an archive or a local git repository. */
function localSourcePath(source: SkillInstallSource): string | undefined {
  if (source.kind === "directory" || source.kind === "archive") return source.path;
  if (source.kind === "git" && path.isAbsolute(source.url)) return source.url;
  return undefined;
}

/**
 * The registry's read policy as a check of a local install source: what
 * Read refuses (outside the workspace and granted roots, a skill not
 * enabled, a symlink leading out) SkillsManager does not install, since an
 * installed skill is readable through `skill://`. The library calls it
 * again on the canonical path of what it opened, so a path swapped after
 * this first check is caught.
 */
function readPolicyCheck(context: ToolContext): (file: string) => void {
  return (file) => {
    context.paths.resolve(file, { intent: "read", label: "SkillsManager install source" });
  };
}

async function run(runtime: SkillsManagerRuntime, input: SkillsManagerInput, context: ToolContext): Promise<ToolOutput<SkillsManagerDetails>> {
  const { action } = input;
  const library = await runtime.library();
  switch (action) {
    case "list": {
      const installed = await library.list();
      const enabled = installed.filter((skill) => runtime.access.isEnabled(skill.name));
      const skills = enabled.map((skill) => ({
        name: skill.name,
        description: skill.description,
        builtIn: skill.builtIn,
        baseDir: skill.baseDir,
        ...(skill.metadataFile === undefined ? {} : { metadataFile: skill.metadataFile }),
        enabled: true,
        protected: skill.builtIn || runtime.access.isProtected(skill.name),
      }));
      return listOutput(skills, installed.length - enabled.length);
    }
    case "read": {
      const { skillName, relativePath } = parseSkillReadPath(input.path as string);
      return readOutput(await library.readFile(skillName, relativePath, { offset: input.offset, length: input.length }));
    }
    case "install": {
      const source = parseInstallSource(input.source as string, { method: input.method ?? "auto", ref: input.ref, workdir: context.workdir });
      const checkLocalSource = readPolicyCheck(context);
      const local = localSourcePath(source);
      if (local !== undefined && runtime.access.remoteWorkspace !== undefined) throw pathSourceOnRemote(runtime.access.remoteWorkspace, local);
      if (local !== undefined) checkLocalSource(local);
      const change = await library.install(source, {
        conflict: input.conflict ?? "backup",
        signal: context.signal,
        mayReplace: replaceCheck(runtime, library.rootDir),
        checkLocalSource,
      });
      await granted(runtime, change);
      return changeOutput(action, change, input.source);
    }
    case "create": {
      const change = await library.create(
        {
          name: input.name as string,
          description: input.description as string,
          ...(input.body === undefined ? {} : { body: input.body }),
          ...(input.files === undefined ? {} : { files: input.files }),
          conflict: input.conflict ?? "fail",
        },
        { mayReplace: replaceCheck(runtime, library.rootDir) },
      );
      await granted(runtime, change);
      return changeOutput(action, change);
    }
    case "validate": {
      const { validation } = await library.validate(input.name as string);
      return validateOutput(input.name as string, validation.issues);
    }
    case "package":
      return packageOutput(input.name as string, await library.package(input.name as string));
    case "delete": {
      const deleted = await library.delete(input.name as string);
      await notify(runtime, { action: "deleted", name: deleted.name, path: deleted.path });
      return deleteOutput(deleted.name);
    }
    case "registry_search": {
      const registry = requireRegistry(runtime, action);
      const request = normalizeRegistrySearch({ query: input.query, sort: input.sort, limit: input.limit, cursor: input.cursor });
      return registrySearchOutput(request.query, await registry.search({ ...request, signal: context.signal }));
    }
    case "registry_install": {
      const registry = requireRegistry(runtime, action);
      const download = await registry.download({
        slug: input.slug as string,
        ...(input.owner === undefined ? {} : { owner: input.owner }),
        ...(input.version === undefined ? {} : { version: input.version }),
        signal: context.signal,
      });
      const denied = replaceCheck(runtime, library.rootDir)(download.entry.name);
      if (denied !== undefined) throw new ToolError("permission_denied", denied, { details: { name: download.entry.name } });
      const change = await library.installArchive(download.archive, {
        conflict: input.conflict ?? "backup",
        expectedName: download.entry.name,
        signal: context.signal,
        mayReplace: replaceCheck(runtime, library.rootDir),
      });
      await granted(runtime, change);
      return changeOutput(action, change, `the registry (${download.entry.owner}/${download.entry.slug} v${download.version})`);
    }
  }
}

/**
 * An install from a path on a non-local workspace: the path names a file of
 * the workspace, which the host's installer (on this disk) cannot read, and
 * the host's own disk is not the model's to read.
 */
function pathSourceOnRemote(workspace: string, local: string): ToolError {
  return new ToolError(
    "unsupported_target",
    `SkillsManager cannot install from a path on ${workspace} (${local}): the tools work in that workspace, while skills are installed on the host, which does not read the workspace's files (nor its own disk for the model). Install from an http(s) URL, a git repository URL or the registry, or write the skill with SkillsManager create.`,
    { details: { workspace, source: local } },
  );
}

function requireRegistry(runtime: SkillsManagerRuntime, action: SkillsManagerAction): SkillRegistry {
  if (runtime.registry !== undefined) return runtime.registry;
  throw new ToolError(
    "unavailable",
    `${action} needs a skill registry, and this host has none configured. Install from a folder, archive, URL or git repository with install {source}.`,
    {
      details: {},
    },
  );
}

/**
 * What running a SkillsManager call again would do, by action: reading,
 * listing, validating and searching the registry change nothing; install,
 * create, package, delete and registry_install change the skills folder
 * (a second run may replace or remove what changed in between), so those
 * are never run again after a crash.
 */
const SKILLS_MANAGER_EFFECTS: Readonly<Record<SkillsManagerAction, ToolEffects>> = Object.freeze({
  read: "none",
  list: "none",
  install: "unsafe",
  create: "unsafe",
  validate: "none",
  package: "unsafe",
  delete: "unsafe",
  registry_search: "none",
  registry_install: "unsafe",
});

/**
 * Builds SkillsManager over a runtime: checks the required fields and the
 * session's access policy first, then runs the action; tool errors become
 * error results that say what went wrong and what to do next.
 */
export function createSkillsManagerTool(runtime: SkillsManagerRuntime): ToolDefinition<SkillsManagerInput, SkillsManagerDetails> {
  return defineTool<typeof skillsManagerInputSchema, SkillsManagerDetails>({
    name: "SkillsManager",
    description: SKILLS_MANAGER_DESCRIPTION,
    inputSchema: skillsManagerInputSchema,
    metadata: SKILLS_MANAGER_METADATA,
    scopes: ["chat", "cron"],
    loopKey: (input) => `${input.action}:${input.name ?? input.path ?? input.source ?? input.slug ?? input.query ?? ""}`,
    effects: (input) => SKILLS_MANAGER_EFFECTS[input.action],
    async execute(input, context) {
      const missing = missingFields(input);
      if (missing.length > 0) return skillsErrorOutput(input.action, "invalid_arguments", `${input.action} needs ${missing.join(", ")}.`);
      const denied = runtime.access.checkManagerAction(input.action, targetName(input));
      if (denied !== undefined) return skillsErrorOutput(input.action, "permission_denied", denied);
      try {
        return await run(runtime, input, context);
      } catch (error) {
        if (error instanceof ToolError) return skillsErrorOutput(input.action, error.code, error.message);
        throw error;
      }
    },
  });
}
