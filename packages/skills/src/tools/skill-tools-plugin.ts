import path from "node:path";
import { COMMAND_POLICY_SLOT, SANDBOX_MOUNT_SLOT, SKILL_PATHS_SLOT, type ToolPlugin, type ToolPluginHost } from "@agent-tools/core";
import { SkillAccessController } from "../runtime/skill-access-controller.js";
import { type SkillToolBundle, type SkillToolBundleOptions, createSkillToolBundle } from "./skill-tool-bundle.js";

/** Options of {@link skillTools}: those of the bundle, with the root, workspace and git client taken from the host unless given. */
export interface SkillToolsPluginOptions extends Omit<SkillToolBundleOptions, "rootDir" | "workdir" | "gitClient" | "remoteWorkspace"> {
  /** The skills root; default `<dataDir>/skills`. */
  readonly rootDir?: string;
  /** Called with the bundle once built (e.g. to put `renderPromptSection()` in the system prompt). */
  readonly onReady?: (bundle: SkillToolBundle) => void;
}

/**
 * Skills as a plugin (chat and cron): SkillsManager, plus what the other
 * plugins of the registry apply: the `skill://` path rules of the file tools
 * (`SKILL_PATHS_SLOT`), the skill guard of the shell (`COMMAND_POLICY_SLOT`)
 * and the skills a confined command may use (`SANDBOX_MOUNT_SLOT`). A
 * subagent's worktree registry runs without skills.
 *
 * @example
 * const registry = await buildToolRegistry({ workdir, plugins: [fsTools(), shellTools(), skillTools({ policy })] });
 */
export function skillTools(options: SkillToolsPluginOptions = {}): ToolPlugin {
  return {
    id: "skills",
    scopes: ["chat", "cron"],
    child: "readonly",
    readonlyChild: () => skillGuard(options),
    create(host) {
      const { onReady, rootDir, ...bundleOptions } = options;
      const skills = createSkillToolBundle({
        ...bundleOptions,
        rootDir: path.resolve(rootDir ?? path.join(host.dataDir, "skills")),
        workdir: host.workdir,
        // Read when a git install runs: the host's git client (found on PATH) is not looked for before.
        get gitClient() {
          return host.ports.gitClient;
        },
        ...remoteWorkspaceOf(host),
      });
      host.contribute(SKILL_PATHS_SLOT, skills.pathOptions());
      host.contribute(COMMAND_POLICY_SLOT, skills.commandPolicy());
      host.contribute(SANDBOX_MOUNT_SLOT, () => skills.sandboxMounts());
      onReady?.(skills);
      return skills;
    },
  };
}

/**
 * What a worktree child gets of skills: no tools and no skill enabled, but
 * the same guards over the skills root (found through a granted root, a
 * command line or a confined command) as if every skill were hidden, so a
 * child never reaches a skill its parent's policy hides.
 */
function skillGuard(options: SkillToolsPluginOptions): ToolPlugin {
  return {
    id: "skills",
    scopes: ["chat", "cron"],
    child: "omit",
    create(host) {
      const access = new SkillAccessController({
        skillsRoot: path.resolve(options.rootDir ?? path.join(host.dataDir, "skills")),
        policy: { allowedSkillNames: [], allowSkillInventory: false, allowSkillManagement: false, allowSkillMutation: false },
        builtInNames: [],
        workdir: host.workdir,
        ...(options.homeDir === undefined ? {} : { homeDir: options.homeDir }),
        ...remoteWorkspaceOf(host),
      });
      host.contribute(SKILL_PATHS_SLOT, access.pathOptions());
      host.contribute(COMMAND_POLICY_SLOT, access.commandPolicy());
      host.contribute(SANDBOX_MOUNT_SLOT, () => access.sandboxMounts());
      return [];
    },
  };
}

/** `{ remoteWorkspace: label }` when the registry works in a workspace that is not this disk (its skills stay on the host). */
function remoteWorkspaceOf(host: ToolPluginHost): { remoteWorkspace?: string } {
  const workspace = host.ports.workspace;
  return workspace === undefined || workspace.capabilities.localPaths ? {} : { remoteWorkspace: workspace.label };
}
