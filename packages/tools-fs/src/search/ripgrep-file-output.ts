/**
 * ripgrep with its output written to an anonymous temporary file instead of
 * a pipe: for runs that print megabytes. Through a pipe ripgrep waits
 * whenever the pipe's 64 KiB are full until Node reads them; a file takes
 * its output at once (measured on the benchmark's base tree, printing
 * 4.4 MB: 145 ms against 172-182 ms through a pipe). The file is unlinked
 * as soon as it is open, so nothing is left behind, even after a crash.
 */
import { randomBytes } from "node:crypto";
import { closeSync, fstatSync, openSync, readSync, unlinkSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { ProgramExit, ProgramRun, ProgramRunner } from "@agent-tools/core";
import { collectRipgrepStderr, killRipgrepOnAbort } from "./ripgrep-child.js";
import type { RipgrepOutput, RunRipgrepOptions } from "./ripgrep-run-types.js";

/** What {@link runRipgrepToFile} gives when the file system refused ripgrep's output (full, or over a quota or size limit). */
export const OUTPUT_FILE_FULL = Symbol("output file full");

/**
 * ripgrep's report of an output write that failed for lack of room:
 * ENOSPC (28), EFBIG (27) or EDQUOT (122). It names each file whose lines
 * it could not write and goes on, so the output would silently miss them.
 */
const OUTPUT_WRITE_FAILED = /\(os error (?:27|28|122)\)/;

/** How often the file's size is checked against `maxStdoutBytes` while ripgrep runs. */
const SIZE_CHECK_MS = 10;

/** Opens an anonymous (already unlinked) read-write file in the temporary directory; undefined when that fails. */
export function openAnonymousFile(): number | undefined {
  const name = path.join(os.tmpdir(), `.agent-tools-rg-${process.pid}-${randomBytes(6).toString("hex")}`);
  let fd: number;
  try {
    fd = openSync(name, "wx+", 0o600);
  } catch {
    return undefined;
  }
  try {
    unlinkSync(name);
  } catch {
    closeSync(fd);
    return undefined;
  }
  return fd;
}

/** Reads all `size` bytes of `fd` from its start. */
function readAll(fd: number, size: number): Buffer {
  const buffer = Buffer.allocUnsafe(size);
  let offset = 0;
  while (offset < size) {
    const read = readSync(fd, buffer, offset, size - offset, offset);
    if (read === 0) break;
    offset += read;
  }
  return offset === size ? buffer : buffer.subarray(0, offset);
}

/** A ripgrep run writing into a file: the runner that starts it, the binary, its arguments and the (anonymous) output file. */
export interface RipgrepToFileRun {
  runner: ProgramRunner;
  rgPath: string;
  args: readonly string[];
  /** The anonymous file ripgrep's stdout goes to (see {@link openAnonymousFile}); closed by {@link runRipgrepToFile}. */
  fd: number;
}

/**
 * Runs ripgrep (through `runner`) with stdout in the anonymous file `fd`
 * (closed here), as `runRipgrep` runs it: the output is read once ripgrep
 * exits and handed to `onStdout` in one chunk (or returned); past
 * `maxStdoutBytes` (checked every few milliseconds) the run is stopped with
 * `exceeded`. When the file system refused part of the output, nothing is
 * handed on and {@link OUTPUT_FILE_FULL} is returned (the caller runs it
 * again through a pipe).
 */
export async function runRipgrepToFile(command: RipgrepToFileRun, options: RunRipgrepOptions): Promise<RipgrepOutput | typeof OUTPUT_FILE_FULL> {
  const { runner, rgPath, args, fd } = command;
  let closed = false;
  const closeFile = () => {
    if (!closed) closeSync(fd);
    closed = true;
  };
  const stderr = collectRipgrepStderr();
  let run: ProgramRun;
  try {
    run = runner.run({ command: rgPath, args, cwd: options.cwd, stdout: fd, stderr: stderr.onChunk });
  } catch (error) {
    closeFile();
    throw error;
  }
  let exceeded = false;
  const maxBytes = options.maxStdoutBytes;
  const sizeCheck =
    maxBytes === undefined
      ? undefined
      : setInterval(() => {
          if (!exceeded && !closed && fstatSync(fd).size > maxBytes) {
            exceeded = true;
            run.kill();
          }
        }, SIZE_CHECK_MS);
  const stopWatching = killRipgrepOnAbort(run, options.signal);
  let exit: ProgramExit;
  try {
    exit = await run.finished;
  } catch (error) {
    // Not started: the file is closed before its descriptor number can be reused.
    closeFile();
    throw error;
  } finally {
    if (sizeCheck) clearInterval(sizeCheck);
    stopWatching();
  }
  if (options.signal?.aborted) {
    closeFile();
    throw options.signal.reason ?? new Error("aborted");
  }
  let stdout: Buffer;
  try {
    const size = fstatSync(fd).size;
    exceeded ||= maxBytes !== undefined && size > maxBytes;
    stdout = exceeded ? Buffer.alloc(0) : readAll(fd, size);
  } finally {
    closeFile();
  }
  const stderrText = stderr.text();
  if (OUTPUT_WRITE_FAILED.test(stderrText)) return OUTPUT_FILE_FULL;
  const output: RipgrepOutput = { stdout, stdoutBytes: stdout.length, stderr: stderrText, exitCode: exit.exitCode ?? -1 };
  if (exceeded) {
    output.exceeded = true;
    return output;
  }
  if (exit.signal) output.endedBySignal = exit.signal;
  if (options.onStdout && stdout.length > 0) {
    options.onStdout(stdout);
    output.stdout = Buffer.alloc(0);
  }
  return output;
}
