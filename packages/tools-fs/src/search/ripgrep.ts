import { accessSync, constants } from "node:fs";
import { createRequire } from "node:module";
import type { ProgramRun, ProgramRunner } from "@agent-tools/core";
import { collectRipgrepStderr, killRipgrepOnAbort } from "./ripgrep-child.js";
import { OUTPUT_FILE_FULL, openAnonymousFile, runRipgrepToFile } from "./ripgrep-file-output.js";
import type { RipgrepOutput, RunRipgrepOptions } from "./ripgrep-run-types.js";

/**
 * The ripgrep binary shipped inside `@vscode/ripgrep`, or null when it is not
 * installed or not executable on this platform, or when `@agent-tools/node`
 * (the ProgramRunner adapter that starts it, an optional peer) is not
 * installed: then Grep uses its pure TypeScript engine.
 */
export function locateRipgrep(): string | null {
  try {
    const require = createRequire(import.meta.url);
    require.resolve("@agent-tools/node");
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
 * Runs ripgrep to completion through the ProgramRunner port
 * (`options.runner`, default the Node adapter `NodeProgramRunner`),
 * collecting stdout as bytes (or handing each chunk to `onStdout`; if that
 * throws, the process is killed and the call rejects with the error).
 * Aborting the signal kills the process and rejects with the signal's
 * reason; printing more than `maxStdoutBytes` kills it and resolves with
 * `exceeded: true`; a run another signal ended resolves with
 * `endedBySignal` (its output may be partial).
 */
export async function runRipgrep(rgPath: string, args: readonly string[], options: RunRipgrepOptions): Promise<RipgrepOutput> {
  if (options.signal?.aborted) throw options.signal.reason ?? new Error("aborted");
  const runner = options.runner ?? (await defaultProgramRunner());
  const fd = options.outputFile ? openAnonymousFile() : undefined;
  if (fd !== undefined) {
    const output = await runRipgrepToFile({ runner, rgPath, args, fd }, options);
    // The temporary directory is full: run again through the pipe rather than answer from part of the output.
    if (output !== OUTPUT_FILE_FULL) return output;
  }
  return runRipgrepThroughPipe(runner, rgPath, args, options);
}

/** The Node adapter of the ProgramRunner port (an optional peer: loaded on the first run, once {@link locateRipgrep} found it). */
async function defaultProgramRunner(): Promise<ProgramRunner> {
  const { NodeProgramRunner } = await import("@agent-tools/node");
  return new NodeProgramRunner();
}

/** {@link runRipgrep} with ripgrep's output read from a pipe. */
async function runRipgrepThroughPipe(runner: ProgramRunner, rgPath: string, args: readonly string[], options: RunRipgrepOptions): Promise<RipgrepOutput> {
  const chunks: Buffer[] = [];
  let size = 0;
  let exceeded = false;
  let failure: { error: unknown } | undefined;
  const maxBytes = options.maxStdoutBytes ?? Number.POSITIVE_INFINITY;
  const onStdout = options.onStdout;
  const stderr = collectRipgrepStderr();
  // Chunks arrive only after `run` returned (on a later turn of the event loop).
  let run: ProgramRun | undefined;
  const onChunk = (chunk: Buffer) => {
    if (exceeded || failure) return;
    size += chunk.length;
    if (size > maxBytes) {
      exceeded = true;
      run?.kill();
      return;
    }
    if (!onStdout) chunks.push(chunk);
    else {
      try {
        onStdout(chunk);
      } catch (error) {
        failure ??= { error };
        run?.kill();
      }
    }
  };
  run = runner.run({ command: rgPath, args, cwd: options.cwd, stdout: onChunk, stderr: stderr.onChunk });
  const stopWatching = killRipgrepOnAbort(run, options.signal);
  let exit: Awaited<ProgramRun["finished"]>;
  try {
    exit = await run.finished;
  } finally {
    stopWatching();
  }
  if (options.signal?.aborted) throw options.signal.reason ?? new Error("aborted");
  if (failure) throw failure.error;
  const stdout = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
  const output: RipgrepOutput = { stdout, stdoutBytes: size, stderr: stderr.text(), exitCode: exit.exitCode ?? -1 };
  if (exceeded) output.exceeded = true;
  else if (exit.signal) output.endedBySignal = exit.signal;
  return output;
}
