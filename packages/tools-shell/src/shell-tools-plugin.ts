import { COMMAND_POLICY_SLOT, type ToolPlugin } from "@agent-tools/core";
import type { CommandPolicy } from "./command-guards.js";
import { type ShellToolBundleOptions, createShellToolBundle } from "./shell-tool-bundle.js";

/**
 * The shell tools (Bash with resumable sessions, ProcessWait, ProcessStop,
 * ManagedProcess; the synchronous Bash only in cron) as a plugin; a
 * subagent's child registry gets them too (without the command policies
 * other plugins of the parent added to `COMMAND_POLICY_SLOT`, which are
 * applied after the host's own `commandPolicies`).
 *
 * @example
 * const registry = await composeToolRegistry({ workdir, plugins: [shellTools({ providerId: "codex" })], ports: () => createNodePorts() });
 */
export function shellTools(options: ShellToolBundleOptions = {}): ToolPlugin {
  return {
    id: "shell",
    scopes: ["chat", "cron"],
    child: "inherit",
    create(host) {
      // Read when a command runs, so plugins listed after this one still apply theirs.
      const pluginPolicies: CommandPolicy = async (request) => {
        for (const policy of host.contributions(COMMAND_POLICY_SLOT)) {
          const refusal = await policy(request);
          if (refusal !== undefined) return refusal;
        }
        return undefined;
      };
      return createShellToolBundle({ ...options, commandPolicies: [...(options.commandPolicies ?? []), pluginPolicies] });
    },
  };
}
