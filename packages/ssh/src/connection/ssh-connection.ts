/**
 * One SSH connection (ssh2 `Client`) to a pinned server: checked options,
 * host-key verification, login with exactly one credential (never
 * keyboard-interactive), keepalive, reconnect with bounded back-off after a
 * drop, a cap on open channels, and a lazily opened SFTP session.
 */
import { WorkspaceError } from "@agent-tools/core/workspace";
import { Client, type ClientChannel, type ConnectConfig, type ExecOptions, type SFTPWrapper } from "ssh2";
import { ChannelLimiter } from "./channel-limiter.js";
import { connectError, isPermanentConnectError, redactSecrets } from "./connection-errors.js";
import { checkSshConnectionOptions, type ResolvedSshConnectionOptions, type SshConnectionOptions } from "./connection-options.js";
import { acceptedHostKeys, checkHostKey, hostKeyRefused } from "./host-key-check.js";

/** An exec channel and its slot (see {@link SshConnection.exec}). */
export interface SshExecChannel {
  /** The channel: stdout is the channel itself, stderr `channel.stderr`; `exit` reports the code or signal. */
  readonly channel: ClientChannel;
  /** The connection generation it runs on (see {@link SshConnection.generation}). */
  readonly generation: number;
}

interface Live {
  readonly client: Client;
  readonly generation: number;
  sftp?: Promise<SFTPWrapper>;
  /** Frees the SFTP session's channel slot (idempotent). */
  sftpRelease?: () => void;
  /** The open SFTP session, once `sftp` resolved. */
  sftpSession?: SFTPWrapper;
}

const BACKOFF_START_MS = 250;
const BACKOFF_MAX_MS = 4_000;
const OPEN_RETRIES = 6;

function isChannelOpenFailure(error: unknown): boolean {
  return error instanceof Error && /Channel open failure/.test(error.message);
}

/**
 * An SSH connection. Nothing connects until the first use (`connect()`,
 * `sftp()`, `exec()`); a dropped connection is reopened on the next use,
 * `reconnectAttempts` times with back-off, and operations that were running
 * on it reject with `connection`.
 *
 * @example
 * const connection = new SshConnection({ host: "10.0.0.5", username: "dev", agent: true, hostKey: "SHA256:..." });
 * const sftp = await connection.sftp();
 * await connection.close();
 */
export class SshConnection {
  /** `ssh://user@host:port`, for messages (no credentials). */
  readonly label: string;
  readonly #options: ResolvedSshConnectionOptions;
  readonly #secrets: readonly string[];
  readonly #limiter: ChannelLimiter;
  readonly #dropListeners = new Set<(generation: number) => void>();
  #live: Live | undefined;
  #connecting: Promise<Live> | undefined;
  #generation = 0;
  #everConnected = false;
  #closed = false;

  /** Checks the options (`SdkError("invalid_options")`); does not connect. */
  constructor(options: SshConnectionOptions) {
    this.#options = checkSshConnectionOptions(options);
    this.label = `ssh://${this.#options.username}@${this.#options.host}:${this.#options.port}`;
    this.#secrets = [this.#options.password, this.#options.passphrase, secretText(this.#options.privateKey)].filter((value): value is string => !!value);
    this.#limiter = new ChannelLimiter(this.#options.maxChannels);
  }

  /** Counts connects: it grows each time a dropped connection is replaced, so work bound to an older one can tell. */
  get generation(): number {
    return this.#generation;
  }

  /** Channels open now and waiting for a slot. */
  get channels(): { readonly open: number; readonly queued: number } {
    return { open: this.#limiter.inUse, queued: this.#limiter.queued };
  }

  /** True after `close()`. */
  get closed(): boolean {
    return this.#closed;
  }

  /** Calls `listener` with the generation that dropped, each time the connection drops; returns the unsubscribe function. */
  onDrop(listener: (generation: number) => void): () => void {
    this.#dropListeners.add(listener);
    return () => this.#dropListeners.delete(listener);
  }

  /** Connects (or reconnects) now; resolves when logged in. */
  async connect(): Promise<void> {
    await this.#ensure();
  }

  /** The SFTP session, opened on first use (one channel slot while open) and reopened after a reconnect. */
  async sftp(): Promise<SFTPWrapper> {
    const live = await this.#ensure();
    live.sftp ??= this.#openSftp(live);
    return live.sftp;
  }

  /** How long one SFTP request may go unanswered (option `sftpTimeoutMs`, default 30,000 ms). */
  get sftpTimeoutMs(): number {
    return this.#options.sftpTimeoutMs;
  }

  /**
   * Gives up on `session` (an SFTP request on it passed its deadline, so the
   * server is stuck): the channel is closed, the requests still pending on
   * it fail at once, its channel slot is freed (the server may never confirm
   * the close while its sftp-server is blocked) and the next `sftp()` opens
   * a fresh session. Does nothing for a session that is no longer current.
   */
  abandonSftp(session: SFTPWrapper): void {
    const internals = session as unknown as { destroy(): void; push(data: null): void };
    try {
      internals.destroy();
      internals.push(null);
    } catch {
      // Already closed.
    }
    const live = this.#live;
    if (!live || live.sftpSession !== session) return;
    live.sftp = undefined;
    live.sftpSession = undefined;
    live.sftpRelease?.();
    live.sftpRelease = undefined;
  }

  /**
   * Opens an exec channel running `command` (through the login shell of
   * the account); waits for a channel slot first, freed when the channel
   * closes. Aborting `signal` while waiting rejects with it.
   */
  async exec(command: string, options: ExecOptions = {}, signal?: AbortSignal): Promise<SshExecChannel> {
    const release = await this.#acquire(signal);
    try {
      const { value: channel, live } = await this.#open(
        (client) =>
          new Promise<ClientChannel>((resolve, reject) => client.exec(command, options, (error, stream) => (error ? reject(error) : resolve(stream)))),
      );
      channel.once("close", release);
      return { channel, generation: live.generation };
    } catch (error) {
      release();
      throw this.#channelError(error, "exec");
    }
  }

  /** Ends the connection; later calls reject with `closed`. Safe to call repeatedly. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#limiter.rejectAll(this.#closedError());
    const live = this.#live ?? (await this.#connecting?.catch(() => undefined));
    this.#live = undefined;
    if (!live) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        live.client.destroy();
        resolve();
      }, 2_000);
      live.client.once("close", () => {
        clearTimeout(timer);
        resolve();
      });
      live.client.end();
    });
  }

  #closedError(): WorkspaceError {
    return new WorkspaceError("closed", `${this.label} is closed.`, { endpoint: this.label });
  }

  async #acquire(signal?: AbortSignal): Promise<() => void> {
    if (this.#closed) throw this.#closedError();
    return this.#limiter.acquire(signal);
  }

  #channelError(error: unknown, what: string): WorkspaceError {
    if (error instanceof WorkspaceError) return error;
    if (this.#closed) return this.#closedError();
    const reason = redactSecrets(error instanceof Error ? error.message : String(error), this.#secrets);
    return new WorkspaceError(
      "connection",
      `${this.label}: cannot open the ${what} channel: ${reason}`,
      { endpoint: this.label, operation: what },
      { cause: error },
    );
  }

  async #openSftp(live: Live): Promise<SFTPWrapper> {
    const release = await this.#acquire();
    try {
      const { value: sftp } = await this.#open(
        (client) => new Promise<SFTPWrapper>((resolve, reject) => client.sftp((error, session) => (error ? reject(error) : resolve(session)))),
        live,
      );
      live.sftpRelease = release;
      live.sftpSession = sftp;
      sftp.once("close", () => {
        release();
        if (live.sftpSession !== sftp) return;
        live.sftpSession = undefined;
        if (live.sftp && this.#live === live) live.sftp = undefined;
      });
      return sftp;
    } catch (error) {
      release();
      live.sftp = undefined;
      throw this.#channelError(error, "sftp");
    }
  }

  /**
   * Opens a channel on the live connection (or on `live`). The server frees
   * a session a moment after its channel closed, so an open right after a
   * close may be refused (MaxSessions): a refused open is retried a few times.
   */
  async #open<T>(open: (client: Client) => Promise<T>, pinned?: Live): Promise<{ value: T; live: Live }> {
    for (let attempt = 0; ; attempt += 1) {
      const live = pinned ?? (await this.#ensure());
      try {
        return { value: await open(live.client), live };
      } catch (error) {
        if (!isChannelOpenFailure(error) || attempt >= OPEN_RETRIES || this.#closed) throw error;
        await new Promise((resolve) => setTimeout(resolve, 25 * 2 ** attempt));
      }
    }
  }

  #ensure(): Promise<Live> {
    if (this.#closed) return Promise.reject(this.#closedError());
    if (this.#live) return Promise.resolve(this.#live);
    this.#connecting ??= this.#connectWithRetry().finally(() => {
      this.#connecting = undefined;
    });
    return this.#connecting;
  }

  async #connectWithRetry(): Promise<Live> {
    // The first connect fails fast (a wrong host or key is a configuration error); a reconnect retries.
    const attempts = this.#everConnected ? this.#options.reconnectAttempts + 1 : 1;
    let lastError: WorkspaceError | undefined;
    for (let attempt = 0; attempt < attempts; attempt += 1) {
      if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, Math.min(BACKOFF_MAX_MS, BACKOFF_START_MS * 2 ** (attempt - 1))));
      if (this.#closed) throw this.#closedError();
      try {
        const client = await this.#connectOnce();
        if (this.#closed) {
          client.end();
          throw this.#closedError();
        }
        this.#generation += 1;
        const live: Live = { client, generation: this.#generation };
        this.#live = live;
        this.#everConnected = true;
        client.on("close", () => this.#dropped(live));
        return live;
      } catch (error) {
        lastError = error instanceof WorkspaceError ? error : connectError(error, this.label, this.#method(), this.#secrets);
        if (isPermanentConnectError(lastError) || lastError.code === "closed") throw lastError;
      }
    }
    throw lastError ?? new WorkspaceError("connection", `Cannot connect to ${this.label}.`, { endpoint: this.label });
  }

  #dropped(live: Live): void {
    if (this.#live !== live) return;
    this.#live = undefined;
    for (const listener of this.#dropListeners) listener(live.generation);
  }

  #method(): string {
    const options = this.#options;
    return options.password !== undefined ? "password" : options.agent !== undefined ? "agent" : "publickey";
  }

  async #connectOnce(): Promise<Client> {
    const options = this.#options;
    const keys = await acceptedHostKeys(options.hostKey, options.host, options.port);
    const method = this.#method();
    const agent = options.agent === true ? process.env.SSH_AUTH_SOCK : options.agent;
    if (method === "agent" && !agent) {
      throw new WorkspaceError("connection", `${this.label}: agent is true but SSH_AUTH_SOCK is not set.`, { endpoint: this.label, stage: "options" });
    }
    let refused: WorkspaceError | undefined;
    const client = new Client();
    const config: ConnectConfig = {
      host: options.host,
      port: options.port,
      username: options.username,
      readyTimeout: options.readyTimeoutMs,
      keepaliveInterval: options.keepaliveIntervalMs,
      keepaliveCountMax: 3,
      tryKeyboard: false,
      authHandler: [method as "password" | "agent" | "publickey"],
      hostVerifier: (key: Buffer) => {
        const checked = checkHostKey(keys, key);
        if (!checked.ok) refused = hostKeyRefused(keys, options.host, options.port, checked.fingerprint);
        return checked.ok;
      },
      ...(method === "password" ? { password: options.password } : {}),
      ...(method === "agent" ? { agent } : {}),
      ...(method === "publickey"
        ? {
            privateKey: Buffer.from(options.privateKey as string | Uint8Array),
            ...(options.passphrase === undefined ? {} : { passphrase: options.passphrase }),
          }
        : {}),
    };
    return new Promise<Client>((resolve, reject) => {
      const onError = (error: Error) => {
        client.removeListener("ready", onReady);
        // ssh2 may emit a second error for the same failure (a missing agent socket: "Failed to connect
        // to agent", then "All configured authentication methods failed"); unheard, it would crash the host.
        client.on("error", () => undefined);
        client.destroy();
        reject(refused ?? connectError(error, this.label, method, this.#secrets));
      };
      const onReady = () => {
        client.removeListener("error", onError);
        // Later errors surface through the operations and the close event.
        client.on("error", () => undefined);
        resolve(client);
      };
      client.once("ready", onReady);
      client.once("error", onError);
      try {
        client.connect(config);
        // SFTP and exec traffic is small request/answer messages: Nagle's delay would add ~40 ms to each.
        client.setNoDelay(true);
      } catch (error) {
        // ssh2 throws here for options it cannot use (an unparsable key): no retry can fix that.
        client.removeListener("error", onError);
        const mapped = connectError(error, this.label, method, this.#secrets);
        reject(new WorkspaceError("connection", mapped.message, { ...mapped.details, stage: "options" }));
      }
    });
  }
}

function secretText(key: string | Uint8Array | undefined): string | undefined {
  if (key === undefined) return undefined;
  return typeof key === "string" ? key : Buffer.from(key).toString("utf8");
}
