import type { ToolPlugin } from "@agent-tools/core";
import type { SdkSshOptions } from "../ssh-options.js";
import { loadSshPackage } from "./load-ssh-package.js";

/**
 * SSHManager (chat scope) of `@agent-tools/ssh`, imported only when `ssh`
 * is configured and the registry is built: the package is an optional peer
 * (a host without it gets an `SdkError` naming the install command, see
 * {@link loadSshPackage}). Never in a subagent's worktree registry: the
 * connections and sessions belong to the chat.
 */
export function sdkSshPlugin(options: SdkSshOptions): ToolPlugin {
  return {
    id: "ssh",
    scopes: ["chat"],
    child: "omit",
    async create(host) {
      const { sshManagerTools } = await loadSshPackage();
      return sshManagerTools(options).create(host);
    },
  };
}
