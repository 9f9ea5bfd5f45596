/**
 * Promise forms of the ssh2 SFTP requests the file system uses. Each
 * rejects with ssh2's own error (its `code` is the SFTP status); mapping to
 * `WorkspaceError` is the caller's (see `sftp-errors.ts`).
 */
import type { Attributes, FileEntry, InputAttributes, OpenMode, SFTPWrapper, Stats } from "ssh2";

type Callback<T> = (error: Error | null | undefined, value?: T) => void;

/**
 * ssh2 answers the requests pending when a session closes with an error,
 * but a request made after the close is queued and never answered: refuse
 * it at once instead.
 */
function isOpen(session: SFTPWrapper): boolean {
  const channel = session as unknown as { outgoing?: { state?: string }; incoming?: { state?: string }; readable?: boolean };
  // After a dropped connection ssh2 marks only the incoming side closed.
  return channel.outgoing?.state !== "closed" && channel.outgoing?.state !== "closing" && channel.incoming?.state !== "closed" && channel.readable !== false;
}

/** A request refused before it was sent: its session was already closed (so replaying it is safe). */
export class SftpSessionClosedError extends Error {
  constructor() {
    super("No response from server: the SFTP session is closed (the connection was lost)");
    this.name = "SftpSessionClosedError";
  }
}

function closedError(): Error {
  return new SftpSessionClosedError();
}

/** True when `error` (or its cause) is a request that never left this host (see {@link SftpSessionClosedError}). */
export function wasNeverSent(error: unknown): boolean {
  for (let at = error, depth = 0; at instanceof Error && depth < 5; at = at.cause, depth += 1) {
    if (at instanceof SftpSessionClosedError) return true;
  }
  return false;
}

/** An SFTP request that got no answer within its deadline (see {@link SftpCallsOptions.timeoutMs}). */
export class SftpTimeoutError extends Error {
  /** The request: `open`, `stat`, `read`, ... */
  readonly request: string;
  readonly timeoutMs: number;
  constructor(request: string, timeoutMs: number) {
    super(
      request === "open"
        ? `the SFTP server did not answer the open within ${timeoutMs} ms (a FIFO or device blocks its open, and the server with it); the SFTP session was abandoned`
        : `the SFTP server did not answer the ${request} request within ${timeoutMs} ms; the SFTP session was abandoned`,
    );
    this.name = "SftpTimeoutError";
    this.request = request;
    this.timeoutMs = timeoutMs;
  }
}

/** Deadlines of {@link sftpCalls}. */
export interface SftpCallsOptions {
  /** How long one request may go unanswered; none when absent. */
  readonly timeoutMs?: number;
  /** Called (right after the request rejected) when a request passed its deadline: the session is stuck. */
  readonly onTimeout?: (request: string) => void;
}

function callOn<T>(session: SFTPWrapper, request: string, options: SftpCallsOptions, start: (done: Callback<T>) => void): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    if (!isOpen(session)) {
      reject(closedError());
      return;
    }
    let timer: NodeJS.Timeout | undefined;
    if (options.timeoutMs !== undefined) {
      const timeoutMs = options.timeoutMs;
      timer = setTimeout(() => {
        // Rejected first: abandoning the session fails its pending requests (this one too) with a plain "no response".
        reject(new SftpTimeoutError(request, timeoutMs));
        options.onTimeout?.(request);
      }, timeoutMs);
      timer.unref?.();
    }
    try {
      start((error, value) => {
        if (timer) clearTimeout(timer);
        if (error) reject(error);
        else resolve(value as T);
      });
    } catch (error) {
      if (timer) clearTimeout(timer);
      reject(error);
    }
  });
}

/** The SFTP requests of one session, as promises. */
export interface SftpCalls {
  readonly session: SFTPWrapper;
  open(path: string, flags: OpenMode, attributes?: InputAttributes): Promise<Buffer>;
  close(handle: Buffer): Promise<void>;
  /** Reads up to `length` bytes at `position`; 0 at the end of the file. */
  read(handle: Buffer, length: number, position: number): Promise<Buffer>;
  write(handle: Buffer, data: Buffer, position: number): Promise<void>;
  fstat(handle: Buffer): Promise<Stats>;
  fchmod(handle: Buffer, mode: number): Promise<void>;
  fsync(handle: Buffer): Promise<void>;
  stat(path: string): Promise<Stats>;
  lstat(path: string): Promise<Stats>;
  readdir(path: string): Promise<FileEntry[]>;
  mkdir(path: string, attributes?: InputAttributes): Promise<void>;
  rmdir(path: string): Promise<void>;
  unlink(path: string): Promise<void>;
  /** `posix-rename@openssh.com`: replaces `to` atomically. */
  posixRename(from: string, to: string): Promise<void>;
  /** `hardlink@openssh.com`: fails when `to` exists. */
  hardlink(from: string, to: string): Promise<void>;
  realpath(path: string): Promise<string>;
  readlink(path: string): Promise<string>;
  utimes(path: string, atime: number, mtime: number): Promise<void>;
  /** True when the server offers the OpenSSH extension `name` (e.g. `hardlink@openssh.com`). */
  hasExtension(name: string): boolean;
}

/** Wraps an ssh2 SFTP session; with `options.timeoutMs` each request has a deadline. */
export function sftpCalls(session: SFTPWrapper, options: SftpCallsOptions = {}): SftpCalls {
  const call = <T>(request: string, start: (done: Callback<T>) => void) => callOn<T>(session, request, options, start);
  return {
    session,
    open: (path, flags, attributes = {}) => call("open", (done) => session.open(path, flags, attributes, done)),
    close: (handle) => call("close", (done) => session.close(handle, done)),
    read: (handle, length, position) => {
      const buffer = Buffer.allocUnsafe(length);
      return call<number>("read", (done) => session.read(handle, buffer, 0, length, position, (error, bytesRead) => done(error, bytesRead))).then((bytesRead) =>
        buffer.subarray(0, bytesRead),
      );
    },
    write: (handle, data, position) => call("write", (done) => session.write(handle, data, 0, data.length, position, done)),
    fstat: (handle) => call("fstat", (done) => session.fstat(handle, done)),
    fchmod: (handle, mode) => call("fchmod", (done) => session.fchmod(handle, mode, done)),
    fsync: (handle) => call("fsync", (done) => session.ext_openssh_fsync(handle, done)),
    stat: (path) => call("stat", (done) => session.stat(path, done)),
    lstat: (path) => call("lstat", (done) => session.lstat(path, done)),
    readdir: (path) => call("readdir", (done) => session.readdir(path, done)),
    mkdir: (path, attributes = {}) => call("mkdir", (done) => session.mkdir(path, attributes, done)),
    rmdir: (path) => call("rmdir", (done) => session.rmdir(path, done)),
    unlink: (path) => call("unlink", (done) => session.unlink(path, done)),
    posixRename: (from, to) => call("rename", (done) => session.ext_openssh_rename(from, to, done)),
    hardlink: (from, to) => call("hardlink", (done) => session.ext_openssh_hardlink(from, to, done)),
    realpath: (path) => call("realpath", (done) => session.realpath(path, done)),
    readlink: (path) => call("readlink", (done) => session.readlink(path, done)),
    utimes: (path, atime, mtime) => call("utimes", (done) => session.utimes(path, atime, mtime, done)),
    hasExtension: (name) => {
      const extensions = (session as unknown as { _extensions?: Record<string, unknown> })._extensions;
      return extensions?.[name] !== undefined;
    },
  };
}

/** The port's entry type of SFTP attributes (`mode` carries the file-type bits). */
export function entryType(attributes: Attributes | Stats): "file" | "directory" | "symlink" | "other" {
  const type = attributes.mode & 0o170000;
  if (type === 0o100000) return "file";
  if (type === 0o040000) return "directory";
  if (type === 0o120000) return "symlink";
  return "other";
}
