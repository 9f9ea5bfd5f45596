/**
 * One configured host as SSHManager uses it: its connection, opened on the
 * first action that needs it (a private key file is read then), its SFTP
 * file system and process runner, interactive shells, and the directory
 * relative paths start at. Failures to connect or log in become ToolErrors
 * that say what the user must change in the host application's settings;
 * the tool never asks for a credential.
 */
import { constants, open } from "node:fs/promises";
import { type ProcessRunner, ToolError } from "@agent-tools/core";
import { WorkspaceError, type WorkspaceFileSystem } from "@agent-tools/core/workspace";
import { SshConnection } from "../connection/ssh-connection.js";
import type { SshConnectionOptions } from "../connection/connection-options.js";
import { probeRemoteSupervisor } from "../processes/remote-supervisor-probe.js";
import { supervisedCommandLine } from "../processes/remote-supervisor.js";
import type { SecretRedactor } from "./secret-redactor.js";
import type { ShellChannel } from "./shell-sessions.js";
import type { SshHostConfig } from "./ssh-host-config.js";
import { openHostFileSystem, openHostProcessRunner } from "./host-adapters.js";

/** Largest private key file read. */
const KEY_FILE_MAX_BYTES = 1024 * 1024;

/**
 * A private key file's bytes: a regular file (a symlink to one is fine) of
 * at most 1 MB, opened without blocking, so a FIFO, `/dev/zero` or a folder
 * in its place fails at once (code `ENOTREG` / `EFBIG`) instead of hanging.
 */
async function readKeyFile(file: string): Promise<Buffer> {
  const handle = await open(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) throw Object.assign(new Error("not a regular file"), { code: "ENOTREG" });
    if (stats.size > KEY_FILE_MAX_BYTES) throw Object.assign(new Error("too large"), { code: "EFBIG" });
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}

/** The terminal interactive sessions get. */
const SESSION_PTY = Object.freeze({ term: "xterm-256color", cols: 160, rows: 48 });

/** A configured host with its lazily opened connection. */
export class ManagedSshHost {
  readonly id: string;
  readonly config: SshHostConfig;
  readonly #redactor: SecretRedactor;
  #connection: Promise<SshConnection> | undefined;
  #fs: Promise<WorkspaceFileSystem> | undefined;
  #processes: Promise<ProcessRunner> | undefined;
  #home: Promise<string> | undefined;
  /** Whether sessions run under the remote supervisor (its prctl number), asked once per host. */
  #supervisor: Promise<number | undefined> | undefined;
  #closed = false;

  constructor(config: SshHostConfig, redactor: SecretRedactor) {
    this.id = config.id;
    this.config = config;
    this.#redactor = redactor;
  }

  /** The connection, created on first use and logged in (a failed first login is retried on the next call). */
  connection(): Promise<SshConnection> {
    if (this.#closed) return Promise.reject(new ToolError("unavailable", "SSHManager is closed.", { recoverable: false }));
    this.#connection ??= this.#open().catch((error: unknown) => {
      this.#connection = undefined;
      throw this.#failure(error);
    });
    return this.#connection;
  }

  /** The host's SFTP file system. */
  fs(): Promise<WorkspaceFileSystem> {
    this.#fs ??= this.connection()
      .then((connection) => openHostFileSystem(connection))
      .catch((error: unknown) => {
        this.#fs = undefined;
        throw this.#failure(error);
      });
    return this.#fs;
  }

  /** The host's process runner (own process group per command, whole-tree kill). */
  processes(): Promise<ProcessRunner> {
    this.#processes ??= this.connection()
      .then((connection) => openHostProcessRunner(connection))
      .catch((error: unknown) => {
        this.#processes = undefined;
        throw this.#failure(error);
      });
    return this.#processes;
  }

  /** `root`, else the login directory (SFTP's `.`). */
  baseDirectory(): Promise<string> {
    if (this.config.root !== undefined) return Promise.resolve(this.config.root);
    this.#home ??= this.connection()
      .then((connection) => connection.sftp())
      .then((sftp) => new Promise<string>((resolve, reject) => sftp.realpath(".", (error, path) => (error ? reject(error) : resolve(path)))))
      .catch((error: unknown) => {
        this.#home = undefined;
        throw this.#failure(error);
      });
    return this.#home;
  }

  /**
   * A login shell on a PTY, started in the base directory. Where the remote
   * machine can run it (see `probeRemoteSupervisor`), the shell runs under
   * the remote supervisor in `pty` mode: when the terminal closes
   * (close_session, the registry's close) or the shell exits, everything the
   * session started ends with it, also jobs put in the background with
   * nohup, setsid or a double fork.
   */
  async openShell(): Promise<ShellChannel> {
    const connection = await this.connection();
    const cwd = await this.baseDirectory();
    const shell = `cd '${cwd.replace(/'/g, "'\\''")}' 2>/dev/null; exec "\${SHELL:-/bin/sh}" -l`;
    try {
      this.#supervisor ??= probeRemoteSupervisor(connection).catch((error: unknown) => {
        this.#supervisor = undefined;
        throw error;
      });
      const prctl = await this.#supervisor;
      const command = prctl === undefined ? shell : supervisedCommandLine({ mode: "pty", prctl, name: "session", script: shell });
      const { channel } = await connection.exec(command, { pty: SESSION_PTY });
      return channel;
    } catch (error) {
      throw this.#failure(error);
    }
  }

  /** Closes the connection (sessions on it end). */
  async close(): Promise<void> {
    this.#closed = true;
    const runner = await this.#processes?.catch(() => undefined);
    await runner?.close().catch(() => undefined);
    const connection = await this.#connection?.catch(() => undefined);
    await connection?.close();
  }

  async #open(): Promise<SshConnection> {
    const config = this.config;
    let privateKey = config.privateKey;
    if (config.privateKeyPath !== undefined) {
      try {
        privateKey = await readKeyFile(config.privateKeyPath);
      } catch (error) {
        throw new ToolError(
          "unavailable",
          `The private key file configured for ${config.id} cannot be read (${(error as NodeJS.ErrnoException).code ?? "error"}); the user must fix privateKeyPath in the host application's SSH settings.`,
          { recoverable: false, details: { hostId: config.id } },
        );
      }
      this.#redactor.addKey(privateKey);
    }
    const options: SshConnectionOptions = {
      host: config.host,
      username: config.username,
      hostKey: config.hostKey,
      ...(config.port === undefined ? {} : { port: config.port }),
      ...(privateKey === undefined ? {} : { privateKey }),
      ...(config.passphrase === undefined ? {} : { passphrase: config.passphrase }),
      ...(config.agent === undefined ? {} : { agent: config.agent }),
      ...(config.password === undefined ? {} : { password: config.password }),
    };
    const connection = new SshConnection(options);
    try {
      await connection.connect();
    } catch (error) {
      await connection.close().catch(() => undefined);
      throw error;
    }
    return connection;
  }

  /** A connection-level failure, worded for the model: what happened and what the user must do. */
  #failure(error: unknown): unknown {
    if (error instanceof ToolError) return error;
    if (!(error instanceof WorkspaceError)) return error;
    const where = `${this.config.username}@${this.config.host}${this.config.port === undefined ? "" : `:${this.config.port}`}`;
    if (error.code === "host_key") {
      const presented = typeof error.details.presentedFingerprint === "string" ? error.details.presentedFingerprint : undefined;
      return new ToolError(
        "permission_denied",
        `Refused to connect to ${this.id} (${where}): its host key${presented === undefined ? "" : ` ${presented}`} is not the one pinned for it (unknown, changed, or revoked), so the server cannot be trusted. Do not retry: tell the user to verify the server's key out of band and, if it is right, update hostKey for ${this.id} in the host application's SSH settings.`,
        { recoverable: false, details: { hostId: this.id, reason: "host_key", ...(presented === undefined ? {} : { presentedFingerprint: presented }) } },
      );
    }
    if (error.details.stage === "authentication" || error.details.stage === "options") {
      return new ToolError(
        "permission_denied",
        `Cannot log in to ${this.id} (${where}): the server refused the configured credential (${String(error.details.method ?? "login")}), and interactive logins (password prompts, keyboard-interactive) are not supported. Do not ask the user for a password here: tell them to fix the credential for ${this.id} in the host application's SSH settings (a key the server accepts, an agent, or a password).`,
        { recoverable: false, details: { hostId: this.id, reason: "authentication" } },
      );
    }
    if (error.code === "connection" || error.code === "closed") {
      return new ToolError("unavailable", `${this.id} (${where}) is unreachable: ${error.message}`, { details: { hostId: this.id, reason: "connection" } });
    }
    return error;
  }
}
