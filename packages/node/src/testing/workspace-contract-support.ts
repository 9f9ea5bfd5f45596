/**
 * Shared pieces of the workspace contract suite: the target a host gives,
 * the context every group of cases gets, and small helpers (error codes,
 * running a command in the workspace, reading a stream).
 */
import { expect } from "vitest";
import type { ProcessOutputChunk } from "@agent-tools/core";
import { type Workspace, WorkspaceError, type WorkspaceErrorCode } from "@agent-tools/core/workspace";

/** A fresh workspace and an empty directory inside its root for one case. */
export interface WorkspaceContractFixture {
  /** The workspace under test. */
  readonly workspace: Workspace;
  /** An empty directory inside `workspace.root` (absolute workspace path) the case may fill. */
  readonly scratch: string;
}

/**
 * What {@link runWorkspaceContract} needs to check an adapter. Only
 * `create` is required; the optional hooks enable the cases that need them.
 */
export interface WorkspaceContractTarget {
  /** A new workspace (its own client) and an empty scratch directory inside its root. Closed by the suite after each case. */
  create(): Promise<WorkspaceContractFixture>;
  /**
   * Creates a symlink `linkPath` -> `target` (target text as given, relative
   * or absolute) in the workspace; the port has no symlink call. Without
   * it, the suite runs `ln -s` through `workspace.processes`; with neither,
   * the symlink cases fail.
   */
  symlink?(workspace: Workspace, target: string, linkPath: string): Promise<void>;
  /** Another client of the same storage as `first` (another connection, another registry): the cross-client lock cases. */
  secondClient?(first: Workspace): Promise<Workspace>;
  /**
   * Starts a big `writeFileAtomic(path, bytes)` in a separate writer (a
   * child process, another connection) and kills it in the middle (SIGKILL,
   * a dropped connection); resolves once the writer is dead. `workspace`
   * stays usable for the suite's checks afterwards.
   */
  crashDuringWrite?(workspace: Workspace, path: string, bytes: Uint8Array): Promise<void>;
  /** Called once after every case of the suite ran. */
  cleanup?(): Promise<void>;
}

/** What each group of cases gets. */
export interface WorkspaceContractContext {
  readonly target: WorkspaceContractTarget;
  /** `target.create()`, closed after the case. */
  open(): Promise<WorkspaceContractFixture>;
  /** Tracks a workspace to close after the case (a second client). */
  track(workspace: Workspace): Workspace;
  /** Creates a symlink through the target's hook, else `ln -s` in the workspace. */
  symlink(workspace: Workspace, target: string, linkPath: string): Promise<void>;
}

/** Awaits `run()` and checks it rejected with a `WorkspaceError` of `code`; returns the error. */
export async function expectWorkspaceError(run: () => unknown, code: WorkspaceErrorCode): Promise<WorkspaceError> {
  let outcome: { ok: true; value: unknown } | { ok: false; error: unknown };
  try {
    outcome = { ok: true, value: await run() };
  } catch (error) {
    outcome = { ok: false, error };
  }
  if (outcome.ok) throw new Error(`expected a WorkspaceError "${code}", but the call succeeded`);
  const error = outcome.error;
  expect(error, `expected a WorkspaceError "${code}", got ${String(error)}`).toBeInstanceOf(WorkspaceError);
  expect((error as WorkspaceError).code, String((error as Error).message)).toBe(code);
  return error as WorkspaceError;
}

/** Collects a readStream into one Buffer, counting the chunks. */
export async function readAll(stream: AsyncIterable<Buffer>): Promise<{ data: Buffer; chunks: number }> {
  const parts: Buffer[] = [];
  for await (const chunk of stream) {
    expect(Buffer.isBuffer(chunk)).toBe(true);
    parts.push(chunk);
  }
  return { data: Buffer.concat(parts), chunks: parts.length };
}

/** Single-quotes a string for `/bin/sh`. */
export function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/** Runs a shell command in the workspace and returns its output and exit code. */
export async function runInWorkspace(
  workspace: Workspace,
  command: string,
  cwd: string,
): Promise<{ stdout: string; stderr: string; exitCode: number | null; chunks: ProcessOutputChunk[] }> {
  const processes = workspace.processes;
  if (processes === undefined) throw new Error(`${workspace.label} has no processes`);
  const child = processes.spawn({ command, shell: "/bin/sh", cwd });
  const chunks: ProcessOutputChunk[] = [];
  child.onOutput((chunk) => chunks.push(chunk));
  const exit = await child.exited;
  await child.outputClosed;
  const join = (stream: string) => Buffer.concat(chunks.filter((chunk) => chunk.stream === stream).map((chunk) => chunk.data)).toString("utf8");
  return { stdout: join("stdout"), stderr: join("stderr"), exitCode: exit.exitCode, chunks };
}

/** Polls `check` every 25 ms until it returns true or `timeoutMs` passes (then throws `message`). */
export async function waitUntil(check: () => Promise<boolean> | boolean, message: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(`gave up waiting: ${message}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Deterministic pseudo-random bytes (xorshift), so a failure is reproducible. */
export function patternBytes(size: number, seed = 0x9e3779b9): Buffer {
  const bytes = Buffer.allocUnsafe(size);
  let state = seed >>> 0 || 1;
  for (let index = 0; index < size; index += 1) {
    state ^= state << 13;
    state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    bytes[index] = state & 0xff;
  }
  return bytes;
}

/** Whether a leftover entry beside `fileName` is an accepted dotted sidecar of it (a crashed writer's temp file). */
export function isDottedSidecar(entryName: string, fileName: string): boolean {
  return entryName.startsWith(".") && entryName.includes(fileName);
}
