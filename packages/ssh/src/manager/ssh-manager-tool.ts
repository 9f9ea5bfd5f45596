/**
 * The SSHManager tool (chat scope): interactive shell sessions, single
 * commands and SFTP file actions on the hosts the host application
 * configured. Credentials never reach the model: results, details and
 * errors pass through the {@link SecretRedactor}.
 */
import { type ToolDefinition, ToolError, type ToolMetadata, type ToolOutput, defineTool } from "@agent-tools/core";
import type { ToolEffects } from "@agent-tools/core/durable";
import { runExecAction } from "./exec-action.js";
import type { SecretRedactor } from "./secret-redactor.js";
import { closeSession, createSession, listSessions, readSession, sendInput } from "./session-actions.js";
import type { ShellSessions } from "./shell-sessions.js";
import { runSftpAction } from "./sftp-actions.js";
import type { SshHostConfig } from "./ssh-host-config.js";
import type { ManagedSshHost } from "./managed-ssh-host.js";
import { type SshManagerDetails, sshResult } from "./ssh-manager-output.js";
import { SSH_ACTION_FIELDS, SSH_MANAGER_DESCRIPTION, type SshManagerInput, sshManagerInputSchema } from "./ssh-manager-schema.js";

/** Metadata of SSHManager: one tool for reading and changing remote machines, so never read-only (approval applies). */
export const SSH_MANAGER_METADATA: ToolMetadata = Object.freeze({
  groupId: "system",
  kind: "manage",
  isReadOnly: false,
  displayCategory: "terminal",
  annotations: { readOnly: false, destructive: true, idempotent: false, openWorld: true, listedInPlanMode: false },
});

/**
 * What running an SSHManager call again would do, by action: listings,
 * stats and reads of files change nothing; writing a whole file, making a
 * directory and closing a session leave the remote as one call does; a
 * command, typed input, a session created, its output consumed by a read,
 * a rename or a delete may do something twice, so those are never run
 * again after a crash.
 */
const SSH_MANAGER_EFFECTS: Readonly<Record<SshManagerInput["action"], ToolEffects>> = Object.freeze({
  list_hosts: "none",
  list_sessions: "none",
  create_session: "unsafe",
  read_session: "unsafe",
  send_input: "unsafe",
  close_session: "idempotent",
  exec: "unsafe",
  sftp_list: "none",
  sftp_stat: "none",
  sftp_read_text: "none",
  sftp_write_text: "idempotent",
  sftp_mkdir: "idempotent",
  sftp_rename: "unsafe",
  sftp_delete: "unsafe",
});

/** What {@link createSshManagerTool} runs on: one registry's hosts, connections and sessions. */
export interface SshManagerEnvironment {
  readonly hosts: readonly SshHostConfig[];
  /** The connection of a configured host (opened lazily by its methods). */
  host(id: string): ManagedSshHost;
  readonly sessions: ShellSessions;
  readonly redactor: SecretRedactor;
}

/**
 * SSHManager on `environment`. Failures come back as `isError` results
 * whose text starts with `SSHManager <action> failed:`.
 */
export function createSshManagerTool(environment: SshManagerEnvironment): ToolDefinition<SshManagerInput, SshManagerDetails> {
  return defineTool({
    name: "SSHManager",
    description: SSH_MANAGER_DESCRIPTION,
    inputSchema: sshManagerInputSchema,
    metadata: SSH_MANAGER_METADATA,
    scopes: ["chat"],
    handlesAbort: true,
    effects: (input) => SSH_MANAGER_EFFECTS[input.action],
    async execute(input, context) {
      try {
        const output = await run(input, environment, context.signal);
        return { ...output, content: environment.redactor.text(output.content as string), details: environment.redactor.value(output.details) };
      } catch (error) {
        const failure = error instanceof ToolError ? error : new ToolError("other", error instanceof Error ? error.message : String(error));
        throw new ToolError(failure.code, environment.redactor.text(`SSHManager ${input.action} failed: ${failure.message}`), {
          recoverable: failure.recoverable,
          details: environment.redactor.value({ action: input.action, ...failure.details }),
        });
      }
    },
  });
}

async function run(input: SshManagerInput, environment: SshManagerEnvironment, signal: AbortSignal): Promise<ToolOutput<SshManagerDetails>> {
  const { action } = input;
  const allowed = SSH_ACTION_FIELDS[action];
  const extra = Object.keys(input).filter(
    (key) => key !== "action" && input[key as keyof SshManagerInput] !== undefined && !allowed.includes(key as keyof SshManagerInput),
  );
  if (extra.length > 0) {
    throw new ToolError(
      "invalid_arguments",
      `${action} does not take ${extra.join(", ")}; it takes ${allowed.length === 0 ? "no other field" : allowed.join(", ")}.`,
    );
  }
  switch (action) {
    case "list_hosts":
      return listHosts(environment.hosts);
    case "list_sessions":
      if (input.host_id !== undefined) environment.host(input.host_id);
      return listSessions(environment.sessions, input.host_id?.trim());
    case "create_session":
      return createSession(environment.sessions, environment.host(requireField(input.host_id, action, "host_id")), input.strategy);
    case "read_session":
      return readSession(environment.sessions.get(requireField(input.session_id, action, "session_id")), input, signal);
    case "send_input":
      return sendInput(environment.sessions.get(requireField(input.session_id, action, "session_id")), input);
    case "close_session":
      return closeSession(environment.sessions, requireField(input.session_id, action, "session_id"));
    case "exec":
      return runExecAction(input, environment.host(requireField(input.host_id, action, "host_id")), signal);
    default:
      return runSftpAction(action, input, environment.host(requireField(input.host_id, action, "host_id")), signal);
  }
}

function listHosts(hosts: readonly SshHostConfig[]): ToolOutput<SshManagerDetails> {
  const shown = hosts.map((host) => ({
    id: host.id,
    address: `${host.username}@${host.host}${host.port === undefined || host.port === 22 ? "" : `:${host.port}`}`,
    username: host.username,
    ...(host.description === undefined ? {} : { description: host.description }),
    ...(host.root === undefined ? {} : { root: host.root }),
  }));
  const lines = shown.map(
    (host) =>
      `${host.id}: ${host.address}${host.root === undefined ? "" : `, root ${host.root}`}${host.description === undefined ? "" : ` - ${host.description}`}`,
  );
  return sshResult(`${lines.join("\n")}\nCredentials are configured by the user; use a host by its id.`, { action: "list_hosts", hosts: shown });
}

function requireField(value: string | undefined, action: string, field: string): string {
  if (value === undefined || value.trim() === "") {
    const hint = field === "host_id" ? "list_hosts shows the host ids" : "list_sessions shows the session ids";
    throw new ToolError("invalid_arguments", `${action} needs ${field} (${hint}).`);
  }
  return value.trim();
}
