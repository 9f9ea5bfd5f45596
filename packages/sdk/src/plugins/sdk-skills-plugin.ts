import type { ToolPlugin } from "@agent-tools/core";
import type { SdkSkillOptions } from "../skill-wiring.js";

/**
 * `skillTools` of `@agent-tools/skills`, imported only when the host turns
 * skills on (a file-tools-only host loads no YAML or zip code).
 */
export function sdkSkillsPlugin(options: SdkSkillOptions, guardOnly = false): ToolPlugin {
  return {
    id: "skills",
    scopes: ["chat", "cron"],
    child: guardOnly ? "omit" : "readonly",
    // A worktree child: no skill tools, the skills root still guarded.
    readonlyChild: () => sdkSkillsPlugin(options, true),
    async create(host) {
      const { skillTools } = await import("@agent-tools/skills");
      const plugin = skillTools(options);
      return (guardOnly ? (plugin.readonlyChild?.() ?? plugin) : plugin).create(host);
    },
  };
}
