/**
 * SSHManager as a plugin: the chat scope only, never in a subagent's
 * worktree registry. Each registry gets its own connections (opened on the
 * first action that needs one) and sessions; `registry.close()` ends them.
 */
import type { ToolPlugin } from "@agent-tools/core";
import { ManagedSshHost } from "./managed-ssh-host.js";
import { SecretRedactor } from "./secret-redactor.js";
import { ShellSessions } from "./shell-sessions.js";
import { type SshHostConfig, checkSshHostConfigs } from "./ssh-host-config.js";
import { createSshManagerTool } from "./ssh-manager-tool.js";
import { ToolError } from "@agent-tools/core";
import { closestName } from "@agent-tools/core/internal";

/** Options of {@link sshManagerTools}. */
export interface SshManagerToolsOptions {
  /** The hosts (checked fail-closed when the registry is built; see `checkSshHostConfigs`). */
  readonly hosts: readonly SshHostConfig[];
}

/**
 * The SSHManager plugin. The options are checked when the registry is
 * built: a bad host throws `SdkError` (`invalid_options`) naming the field
 * as `ssh.hosts[i].<key>`.
 *
 * @example
 * const registry = await buildToolRegistry({ workdir, plugins: [sshManagerTools({ hosts: [{ id: "dev", host: "10.0.0.5", username: "dev", agent: true, hostKey: "SHA256:..." }] })] });
 */
export function sshManagerTools(options: SshManagerToolsOptions): ToolPlugin {
  return {
    id: "ssh",
    scopes: ["chat"],
    child: "omit",
    create() {
      const where = "ssh";
      if (options === null || typeof options !== "object") checkSshHostConfigs(undefined, `${where}.hosts`);
      const hosts = checkSshHostConfigs(options.hosts, `${where}.hosts`);
      const redactor = new SecretRedactor();
      for (const host of hosts) {
        redactor.addSecret(host.password);
        redactor.addSecret(host.passphrase);
        redactor.addKey(host.privateKey);
      }
      const managed = new Map(hosts.map((host) => [host.id, new ManagedSshHost(host, redactor)]));
      const sessions = new ShellSessions();
      const tool = createSshManagerTool({
        hosts,
        sessions,
        redactor,
        host(id) {
          const found = managed.get(id.trim());
          if (found) return found;
          const suggestion = closestName(id, managed.keys());
          throw new ToolError(
            "not_found",
            `No host ${JSON.stringify(id)}${suggestion === undefined ? "" : `; did you mean ${suggestion}?`} Configured hosts: ${[...managed.keys()].join(", ")} (list_hosts describes them; only the user can add hosts).`,
          );
        },
      });
      return {
        id: "ssh",
        trusted: true,
        listTools: () => [tool],
        async close() {
          await sessions.closeAll();
          await Promise.allSettled([...managed.values()].map((host) => host.close()));
        },
      };
    },
  };
}
