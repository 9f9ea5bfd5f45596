import { spawn } from "node:child_process";
import { accessSync, constants } from "node:fs";
import { createRequire } from "node:module";
import { watchRipgrepChild } from "./ripgrep-child.js";
import { OUTPUT_FILE_FULL, openAnonymousFile, runRipgrepToFile } from "./ripgrep-file-output.js";
import type { RipgrepOutput, RunRipgrepOptions } from "./ripgrep-run-types.js";

/**
 * The ripgrep binary shipped inside `@vscode/ripgrep`, or null when it is not
 * installed or not executable on this platform.
 */
export function locateRipgrep(): string | null {
  try {
    const require = createRequire(import.meta.url);
    const rgPath = (require("@vscode/ripgrep") as { rgPath?: string }).rgPath;
    if (!rgPath) return null;
    accessSync(rgPath, constants.X_OK);
    return rgPath;
  } catch {
    return null;
  }
}

/** Flags every ripgrep walk uses: the file tools' ignore rules (ignore files honoured with or without git, no global excludes), deterministic across hosts. */
export const RIPGREP_WALK_FLAGS = [
  "--no-config",
  "--hidden",
  "--no-require-git",
  "--no-ignore-global",
  "--glob",
  "!.git",
  // The file tools' in-flight temporary and lock files (see sidecar-names.ts of @agent-tools/file-io), hidden as the walker hides them.
  "--glob",
  "!.*.[0-9]*.[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f].tmp",
  "--glob",
  "!.*.agent-tools.lock",
  "--glob",
  "!.*.agent-tools.lock.stale.*",
] as const;

/**
 * Runs ripgrep to completion, collecting stdout as bytes (or handing each
 * chunk to `onStdout`; if that throws, the process is killed and the call
 * rejects with the error). Aborting the signal kills the process and
 * rejects with the signal's reason; printing more than `maxStdoutBytes`
 * kills it and resolves with `exceeded: true`; a run another signal ended
 * resolves with `endedBySignal` (its output may be partial).
 */
export async function runRipgrep(rgPath: string, args: readonly string[], options: RunRipgrepOptions): Promise<RipgrepOutput> {
  if (options.signal?.aborted) throw options.signal.reason ?? new Error("aborted");
  const fd = options.outputFile ? openAnonymousFile() : undefined;
  if (fd !== undefined) {
    const output = await runRipgrepToFile(rgPath, args, options, fd);
    // The temporary directory is full: run again through the pipe rather than answer from part of the output.
    if (output !== OUTPUT_FILE_FULL) return output;
  }
  return runRipgrepThroughPipe(rgPath, args, options);
}

/** {@link runRipgrep} with ripgrep's output read from a pipe. */
function runRipgrepThroughPipe(rgPath: string, args: readonly string[], options: RunRipgrepOptions): Promise<RipgrepOutput> {
  return new Promise((resolve, reject) => {
    const child = spawn(rgPath, args, { cwd: options.cwd, stdio: ["ignore", "pipe", "pipe"] });
    const chunks: Buffer[] = [];
    let size = 0;
    let exceeded = false;
    let failure: { error: unknown } | undefined;
    const maxBytes = options.maxStdoutBytes ?? Number.POSITIVE_INFINITY;
    const watched = watchRipgrepChild(child, options.signal);
    const onStdout = options.onStdout;
    child.stdout.on("data", (chunk: Buffer) => {
      if (exceeded || failure) return;
      size += chunk.length;
      if (size > maxBytes) {
        exceeded = true;
        child.kill("SIGKILL");
        return;
      }
      if (!onStdout) chunks.push(chunk);
      else {
        try {
          onStdout(chunk);
        } catch (error) {
          failure ??= { error };
          child.kill("SIGKILL");
        }
      }
    });
    child.on("error", (error) => {
      watched.stop();
      reject(error);
    });
    child.on("close", (code, signal) => {
      watched.stop();
      if (options.signal?.aborted) {
        reject(options.signal.reason ?? new Error("aborted"));
        return;
      }
      if (failure) {
        reject(failure.error);
        return;
      }
      const stdout = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
      const output: RipgrepOutput = { stdout, stdoutBytes: size, stderr: watched.stderr(), exitCode: code ?? -1 };
      if (exceeded) output.exceeded = true;
      else if (signal) output.endedBySignal = signal;
      resolve(output);
    });
  });
}
