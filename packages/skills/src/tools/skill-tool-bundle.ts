import type { GitClient, SkillPathOptions, ToolBundle } from "@agent-tools/core";
import { renderSkillsPromptSection } from "../domain/skills-prompt.js";
import type { SkillAccessPolicy, SkillSummary } from "../domain/skill-types.js";
import type { SkillRegistry } from "../ports/skill-registry.js";
import { SkillAccessController, type SkillCommandPolicyRequest } from "../runtime/skill-access-controller.js";
import { SkillLibrary } from "../runtime/skill-library.js";
import type { SkillSandboxMounts } from "../runtime/skill-sandbox-mounts.js";
import { type ManagedSkillsChange, createSkillsManagerTool } from "./skills-manager-tool.js";

/** Options of {@link createSkillToolBundle}. */
export interface SkillToolBundleOptions {
  /** The skills root, e.g. `<dataDir>/skills` (created when missing; the built-in skills are written there on first use). */
  readonly rootDir: string;
  /** Which skills the model may see, use and change; default every installed skill readable, management allowed, no file-tool writes. */
  readonly policy?: SkillAccessPolicy;
  /** Search and install from a registry (`registry_search`, `registry_install`); without it those actions answer `unavailable`. */
  readonly registry?: SkillRegistry;
  /** Installs from git repositories; without it git sources answer `unavailable`. Read when a git install runs (a getter is not called before). */
  readonly gitClient?: GitClient;
  /** Downloads of http(s) sources; default the global `fetch`. */
  readonly fetch?: typeof fetch;
  /** The workspace, for the Bash guard's `skills/` folder guesses. */
  readonly workdir?: string;
  /** Home directory for `~/` in the Bash guard; default the process's. */
  readonly homeDir?: string;
  /** The label of the non-local workspace the tools work in, if any (see `SkillAccessControllerOptions.remoteWorkspace`). */
  readonly remoteWorkspace?: string;
  /** Told after install, create, registry install and delete (the new skill is already enabled). */
  onManagedSkillsChanged?(change: ManagedSkillsChange): void | Promise<void>;
  /** Clock for staging ages and backup names; default `Date.now`. */
  readonly now?: () => number;
}

/** The skills bundle and what the rest of the registry needs from it. */
export interface SkillToolBundle extends ToolBundle {
  /** The session's access state (grants made by installs live here). */
  readonly access: SkillAccessController;
  /** `skill://` resolution for the path policy (`createToolRegistry({ skills })`). */
  pathOptions(): SkillPathOptions;
  /** The Bash skill guard, for the shell bundle's `commandPolicies` (best-effort; the sandbox's mounts enforce). */
  commandPolicy(): (request: SkillCommandPolicyRequest) => string | undefined;
  /** What a confined command may see of the skills root, for the sandbox's policy (read before each command). */
  sandboxMounts(): SkillSandboxMounts;
  /** The library on disk, opened (and the built-ins written) on first use. */
  library(): Promise<SkillLibrary>;
  /** The skills enabled for this session, built-ins first. */
  enabledSkills(): Promise<SkillSummary[]>;
  /** The enabled skills' names and descriptions for the host's system prompt ("" when none). */
  renderPromptSection(): Promise<string>;
}

/**
 * SkillsManager as a bundle (chat and cron scopes), with the access
 * controller that the path policy and the shell enforce and a renderer of
 * the enabled skills for the system prompt. Per-bundle state only: two
 * registries on one root share the files (and the cross-process write
 * lock), not their grants.
 *
 * @example
 * const skills = createSkillToolBundle({ rootDir: path.join(dataDir, "skills"), gitClient: new GitCliClient() });
 * const shell = createShellToolBundle({ commandPolicies: [skills.commandPolicy()] });
 * const registry = createToolRegistry({ workdir, bundles: [createFsToolBundle(), shell, skills], skills: skills.pathOptions() });
 * const systemPrompt = `${basePrompt}\n\n${await skills.renderPromptSection()}`;
 */
export function createSkillToolBundle(options: SkillToolBundleOptions): SkillToolBundle {
  const access = new SkillAccessController({
    skillsRoot: options.rootDir,
    ...(options.policy === undefined ? {} : { policy: options.policy }),
    ...(options.workdir === undefined ? {} : { workdir: options.workdir }),
    ...(options.homeDir === undefined ? {} : { homeDir: options.homeDir }),
    ...(options.remoteWorkspace === undefined ? {} : { remoteWorkspace: options.remoteWorkspace }),
  });
  let opening: Promise<SkillLibrary> | undefined;
  const library = (): Promise<SkillLibrary> => {
    opening ??= (async () => {
      const opened = await SkillLibrary.open({
        rootDir: options.rootDir,
        // A getter, never spread: read when an install runs (the library tells an undefined client from a given one).
        get gitClient(): GitClient {
          return options.gitClient as GitClient;
        },
        ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
        ...(options.now === undefined ? {} : { now: options.now }),
      });
      await opened.seedBuiltins();
      return opened;
    })().catch((error: unknown) => {
      opening = undefined;
      throw error;
    });
    return opening;
  };
  const tool = createSkillsManagerTool({
    access,
    library,
    ...(options.registry === undefined ? {} : { registry: options.registry }),
    ...(options.onManagedSkillsChanged === undefined ? {} : { onManagedSkillsChanged: (change) => options.onManagedSkillsChanged?.(change) }),
  });
  const enabledSkills = async (): Promise<SkillSummary[]> => {
    const installed = await (await library()).list();
    return installed
      .filter((skill) => skill.valid && access.isEnabled(skill.name))
      .map((skill) => ({
        name: skill.name,
        description: skill.description,
        builtIn: skill.builtIn,
        baseDir: skill.baseDir,
        ...(skill.metadataFile === undefined ? {} : { metadataFile: skill.metadataFile }),
        enabled: true,
        protected: skill.builtIn || access.isProtected(skill.name),
      }));
  };
  return {
    id: "skills",
    trusted: true,
    listTools: () => [tool],
    access,
    pathOptions: () => access.pathOptions(),
    commandPolicy: () => access.commandPolicy(),
    sandboxMounts: () => access.sandboxMounts(),
    library,
    enabledSkills,
    renderPromptSection: async () =>
      renderSkillsPromptSection(await enabledSkills(), access.remoteWorkspace === undefined ? {} : { remoteWorkspace: access.remoteWorkspace }),
  };
}
