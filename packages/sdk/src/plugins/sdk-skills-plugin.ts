import { SKILL_PATHS_SLOT, type ToolPlugin } from "@agent-tools/core";
import { COMMAND_POLICY_SLOT } from "@agent-tools/tools-shell";
import { SANDBOX_MOUNT_SLOT } from "../sandbox-mounts.js";
import { type SdkSkillOptions, createSdkSkillBundle } from "../skill-wiring.js";

/**
 * Skills (chat and cron): SkillsManager, plus what the other plugins of the
 * registry apply: `skill://` paths for the file tools, the skill guard in
 * Bash and the skills' sandbox mounts. Worktree children run without skills.
 */
export function sdkSkillsPlugin(options: SdkSkillOptions): ToolPlugin {
  return {
    id: "skills",
    scopes: ["chat", "cron"],
    child: "omit",
    async create(host) {
      const skills = await createSdkSkillBundle({ options, dataDir: host.dataDir, workdir: host.workdir, gitClient: host.ports.gitClient });
      host.contribute(SKILL_PATHS_SLOT, skills.pathOptions());
      host.contribute(COMMAND_POLICY_SLOT, skills.commandPolicy());
      host.contribute(SANDBOX_MOUNT_SLOT, () => skills.sandboxMounts());
      return skills;
    },
  };
}
