/**
 * The client of the anchored helper (`helper-script.ts`): one long-lived
 * remote Perl process per connection over an exec channel, serving one
 * request at a time (callers queue). It is started on first use and again
 * after its channel closed (a dropped connection, a stopped helper), so it
 * follows the connection's reconnects.
 */
import { WorkspaceError } from "@agent-tools/core/workspace";
import type { SshConnection } from "../connection/ssh-connection.js";
import { HELPER_GREETING, helperCommand } from "./helper-script.js";
import { answerFields, HelperError, HelperSession, requestFrame } from "./helper-session.js";

/** Bytes per data frame of a write. */
const WRITE_FRAME_BYTES = 256 * 1024;

/** The session of one request, and the release of the helper's turn. */
interface Turn {
  readonly session: HelperSession;
  readonly release: () => void;
}

/**
 * One anchored helper of a connection. {@link AnchoredHelper.start} tells
 * whether the remote machine can run it (`/usr/bin/perl`, `/proc/self/fd`).
 */
export class AnchoredHelper {
  readonly #connection: SshConnection;
  readonly #timeoutMs: number;
  #session: Promise<HelperSession> | undefined;
  #tail: Promise<void> = Promise.resolve();
  #closed = false;

  private constructor(connection: SshConnection, timeoutMs: number) {
    this.#connection = connection;
    this.#timeoutMs = timeoutMs;
  }

  /** Starts the helper once; resolves undefined when the remote machine cannot run it (no `/usr/bin/perl`, no `/proc`). */
  static async start(connection: SshConnection, timeoutMs: number): Promise<AnchoredHelper | undefined> {
    const helper = new AnchoredHelper(connection, timeoutMs);
    try {
      const turn = await helper.#acquire();
      turn.release();
      return helper;
    } catch (error) {
      helper.close();
      if (error instanceof WorkspaceError && (error.code === "connection" || error.code === "closed") && connection.closed) throw error;
      return undefined;
    }
  }

  /** How long one answer may take (the connection's `sftpTimeoutMs`). */
  get timeoutMs(): number {
    return this.#timeoutMs;
  }

  /** Stops the helper; later requests reject with `closed`. */
  close(): void {
    this.#closed = true;
    void this.#session?.then(
      (session) => session.destroy(),
      () => undefined,
    );
    this.#session = undefined;
  }

  /** One request and its `O` answer's fields; a `E` answer rejects with {@link HelperError}. */
  async call(fields: readonly string[]): Promise<string[]> {
    const frame = await this.callRaw(fields);
    return answerFields(frame, this.#connection.label);
  }

  /** One request and its raw answer frame (`E` answers reject with {@link HelperError}). */
  async callRaw(fields: readonly string[]): Promise<Buffer> {
    const { session, release } = await this.#acquire();
    try {
      await session.send(requestFrame(fields));
      const frame = await session.next(this.#timeoutMs);
      if (frame[0] === 0x45) answerFields(frame, this.#connection.label);
      return frame;
    } finally {
      release();
    }
  }

  /**
   * A write request followed by `data` in frames: the helper answers the
   * request (ready, or a failure before anything is created), takes the
   * bytes, and answers again once the file is in place. An abort or a
   * failing source cancels the data (the helper removes its temporary file).
   */
  async write(fields: readonly string[], data: Uint8Array | AsyncIterable<Uint8Array>, signal?: AbortSignal): Promise<void> {
    const { session, release } = await this.#acquire();
    try {
      await session.send(requestFrame(fields));
      answerFields(await session.next(this.#timeoutMs), this.#connection.label);
      try {
        const chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array> = data instanceof Uint8Array ? [data] : data;
        for await (const chunk of chunks) {
          for (let offset = 0; offset < chunk.byteLength; offset += WRITE_FRAME_BYTES) {
            signal?.throwIfAborted();
            const piece = chunk.subarray(offset, offset + WRITE_FRAME_BYTES);
            await session.send(Buffer.from(piece.buffer, piece.byteOffset, piece.byteLength));
          }
        }
        signal?.throwIfAborted();
      } catch (error) {
        if (session.dead) throw error;
        await session.sendAbort();
        await session.next(this.#timeoutMs).catch(() => undefined);
        throw error;
      }
      await session.send(Buffer.alloc(0));
      answerFields(await session.next(this.#timeoutMs), this.#connection.label);
    } finally {
      release();
    }
  }

  /**
   * A read request: resolves the `O` answer's fields (the file's size at
   * open), then yields the data frames. Stopping early ends the helper's
   * session (its remaining frames are not waited for); the next request
   * starts a new one.
   */
  async *read(fields: readonly string[], signal?: AbortSignal): AsyncGenerator<Buffer, void, undefined> {
    const { session, release } = await this.#acquire();
    let streaming = false;
    try {
      await session.send(requestFrame(fields));
      answerFields(await session.next(this.#timeoutMs), this.#connection.label);
      streaming = true;
      for (;;) {
        signal?.throwIfAborted();
        const frame = await session.next(this.#timeoutMs);
        const kind = frame[0];
        if (kind === 0x44) {
          yield frame.subarray(1);
          continue;
        }
        streaming = false;
        if (kind === 0x5a) return;
        answerFields(frame, this.#connection.label);
        throw new WorkspaceError("io", `${this.#connection.label}: the anchored helper answered a read out of turn.`);
      }
    } finally {
      if (streaming) session.destroy();
      release();
    }
  }

  /** Waits for the helper's turn and a running session (started, or restarted when the last one died). */
  async #acquire(): Promise<Turn> {
    const previous = this.#tail;
    let release!: () => void;
    this.#tail = new Promise<void>((resolve) => {
      release = resolve;
    });
    await previous;
    try {
      if (this.#closed) throw new WorkspaceError("closed", `${this.#connection.label} is closed.`, { endpoint: this.#connection.label });
      let session = this.#session ? await this.#session.catch(() => undefined) : undefined;
      if (!session || session.dead) {
        this.#session = this.#open();
        session = await this.#session;
      }
      return { session, release };
    } catch (error) {
      this.#session = undefined;
      release();
      throw error;
    }
  }

  async #open(): Promise<HelperSession> {
    const { channel } = await this.#connection.exec(helperCommand());
    const session = new HelperSession(channel, this.#connection.label);
    const hello = await session.next(this.#timeoutMs).catch((error: unknown) => {
      session.destroy();
      throw error;
    });
    if (hello.subarray(2).toString("utf8") !== HELPER_GREETING || hello[0] !== 0x4f) {
      session.destroy();
      throw new WorkspaceError("unsupported", `${this.#connection.label}: the anchored helper did not start (${hello.toString("utf8").slice(0, 200)}).`);
    }
    return session;
  }
}

export { HelperError };
