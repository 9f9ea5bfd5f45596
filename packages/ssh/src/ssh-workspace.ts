/**
 * `createSshWorkspace`: a Workspace on a remote machine over SSH (files
 * over SFTP, processes over exec channels of the same connection).
 */
import { SdkError } from "@agent-tools/core";
import { WorkspaceError, type Workspace, type WorkspaceCapabilities } from "@agent-tools/core/workspace";
import { checkSshConnectionOptions, SSH_CONNECTION_OPTION_KEYS, type SshConnectionOptions } from "./connection/connection-options.js";
import { SshConnection } from "./connection/ssh-connection.js";
import { AnchoredFileSystem, boundOf } from "./anchored/anchored-file-system.js";
import { AnchoredHelper } from "./anchored/anchored-helper.js";
import { anchoredLockFiles } from "./anchored/anchored-lock-files.js";
import { createSshProcessRunner } from "./processes/ssh-process-runner.js";
import { SftpFileSystem } from "./sftp-file-system.js";

/** Options of {@link createSshWorkspace}: the connection's options and the workspace root. */
export interface SshWorkspaceOptions extends SshConnectionOptions {
  /** Absolute directory on the remote machine: the workspace root (canonicalised with the server's realpath; must exist). */
  readonly root: string;
  /**
   * Race-safe file operations through the anchored helper (a Perl program run
   * as `/usr/bin/perl` on the remote machine): `undefined` (the default)
   * uses it when the remote machine can run it, `true` requires it (the
   * workspace does not open without it: `SdkError("invalid_options")`),
   * `false` never starts it (SFTP by path only, `anchoredOpens` false).
   */
  readonly anchoredOpens?: boolean;
}

/** The keys of {@link SshWorkspaceOptions}. */
export const SSH_WORKSPACE_OPTION_KEYS = Object.freeze([...SSH_CONNECTION_OPTION_KEYS, "root", "anchoredOpens"] as const);

/** What the remote machine offers, found once with `command -v` through exec. */
async function probeTools(connection: SshConnection): Promise<{ ripgrep: boolean; git: boolean }> {
  const { channel } = await connection.exec("command -v rg >/dev/null 2>&1 && echo rg; command -v git >/dev/null 2>&1 && echo git; true");
  let out = "";
  channel.on("data", (chunk: Buffer) => {
    out += chunk.toString("utf8");
  });
  channel.stderr.resume();
  channel.end();
  await new Promise<void>((resolve) => channel.once("close", () => resolve()));
  const found = new Set(out.split(/\s+/));
  return { ripgrep: found.has("rg"), git: found.has("git") };
}

function anchoredFileSystem(connection: SshConnection, helper: AnchoredHelper, root: string): AnchoredFileSystem {
  const sftp = new SftpFileSystem(connection, { lockFiles: () => anchoredLockFiles(helper, (path) => boundOf(root, path), root) });
  return new AnchoredFileSystem(sftp, helper, root);
}

/**
 * Opens a Workspace on a remote machine over SSH: `kind` `"ssh"`, `label`
 * `ssh://user@host:port` (no credentials), `root` the server's canonical
 * form of `options.root`. Files go through SFTP ({@link SftpFileSystem}),
 * processes through exec channels (`createSshProcessRunner`), both on one
 * connection with a pinned host key. Capabilities: `localPaths` false (no
 * path of this host is a workspace path), `anchoredOpens` true when the
 * anchored helper runs on the remote machine (`/usr/bin/perl`; then reads,
 * writes, renames, removals and lock files are walked component by
 * component from `/` on the remote side, see `AnchoredFileSystem`), false
 * without it or with `options.anchoredOpens: false` (SFTP opens by path, so
 * a concurrent writer on the remote machine could swap a checked directory
 * for a symlink), `processes` true, `pty` false,
 * `ripgrep` / `git` as probed once on the remote machine.
 *
 * Options fail closed: an unknown key, a missing `hostKey`, no credential
 * or two throw `SdkError("invalid_options")`; a relative `root` too, and a
 * root that is missing or no directory throws `SdkError("invalid_root")`.
 * A host key that is not the pinned one rejects with
 * `WorkspaceError("host_key")`, a failed connect or login with
 * `WorkspaceError("connection")`.
 *
 * @example
 * const workspace = await createSshWorkspace({
 *   host: "10.0.0.5", username: "dev", agent: true,
 *   hostKey: "SHA256:nThbg6kXUpJWGl7E1IGOCspRomTxdCARLviKw6E5SY8",
 *   root: "/home/dev/project",
 * });
 * const text = (await workspace.fs.readFile(`${workspace.root}/README.md`)).toString("utf8");
 * await workspace.close();
 */
export async function createSshWorkspace(options: SshWorkspaceOptions): Promise<Workspace> {
  checkSshConnectionOptions(options, SSH_WORKSPACE_OPTION_KEYS);
  const { root: requestedRoot, anchoredOpens: anchoring, ...connectionOptions } = options;
  if (anchoring !== undefined && typeof anchoring !== "boolean") {
    throw new SdkError("invalid_options", `options.anchoredOpens must be true, false or left out (got ${JSON.stringify(anchoring)?.slice(0, 60)}).`, {
      option: "options.anchoredOpens",
      suggestion: "leave options.anchoredOpens out to use the anchored helper when the remote machine has /usr/bin/perl",
    });
  }
  if (typeof requestedRoot !== "string" || !requestedRoot.startsWith("/") || requestedRoot.includes("\0")) {
    throw new SdkError("invalid_options", "options.root must be an absolute path on the remote machine (e.g. /home/dev/project).", { option: "options.root" });
  }
  const connection = new SshConnection(connectionOptions);
  const sftp = new SftpFileSystem(connection);
  let root: string;
  let tools: { ripgrep: boolean; git: boolean };
  let helper: AnchoredHelper | undefined;
  try {
    await connection.connect();
    try {
      root = await sftp.realpath(requestedRoot);
      if ((await sftp.stat(root)).type !== "directory")
        throw new WorkspaceError("not_a_directory", `${requestedRoot} is not a directory`, { path: requestedRoot });
    } catch (error) {
      if (error instanceof WorkspaceError && (error.code === "not_found" || error.code === "not_a_directory" || error.code === "symlink_loop")) {
        throw new SdkError(
          "invalid_root",
          `The workspace root ${requestedRoot} on ${connection.label} ${error.code === "not_found" ? "does not exist" : "is not a directory"}: give an existing directory of the remote machine.`,
          { option: "options.root", root: requestedRoot, reason: error.code },
          { cause: error },
        );
      }
      throw error;
    }
    tools = await probeTools(connection);
    if (anchoring !== false) helper = await AnchoredHelper.start(connection, connection.sftpTimeoutMs);
    if (anchoring === true && helper === undefined) {
      throw new SdkError(
        "invalid_options",
        `options.anchoredOpens is true but ${connection.label} cannot run the anchored helper (it needs /usr/bin/perl and /proc/self/fd).`,
        { option: "options.anchoredOpens", suggestion: "leave options.anchoredOpens out to fall back to SFTP by path" },
      );
    }
  } catch (error) {
    helper?.close();
    await connection.close();
    throw error;
  }
  const fs = helper ? anchoredFileSystem(connection, helper, root) : sftp;
  const processes = createSshProcessRunner(connection);
  const capabilities: WorkspaceCapabilities = Object.freeze({
    localPaths: false,
    processes: true,
    ripgrep: tools.ripgrep,
    git: tools.git,
    pty: false,
    anchoredOpens: helper !== undefined,
  });
  let closing: Promise<void> | undefined;
  return Object.freeze({
    kind: "ssh",
    label: connection.label,
    root,
    fs,
    processes,
    capabilities,
    close: () => {
      closing ??= (async () => {
        await Promise.allSettled([processes.close(), fs.close()]);
        await connection.close();
      })();
      return closing;
    },
  });
}
