/**
 * Shared helpers of the file-tools benchmark: timing (median of N after a
 * warm-up), the `rg` peer, registries and the printed table.
 */
import { spawn } from "node:child_process";
import os from "node:os";
import path from "node:path";
import { createToolRegistry, type ToolRegistry, type ToolResult } from "@agent-tools/core";
import { createFsToolBundle } from "@agent-tools/tools-fs";
import { locateRipgrep } from "@agent-tools/tools-fs/internal";
import type { TargetLog } from "./bench-targets.js";

/** How a run of the benchmark is sized. */
export interface BenchSettings {
  /** Timed runs per figure (after one warm-up). */
  runs: number;
  /** `--quick`: fewer runs and sizes. */
  quick: boolean;
}

/** How a run of fs-bench.ts is sized, and where it records its figures against the targets. */
export interface FsBenchSettings extends BenchSettings {
  /** The sizes of the edited files, in MB (`--edit-mb=`, default 10). */
  editMegabytes: number[];
  /** The worst figure against each of the targets, printed at the end. */
  targets: TargetLog;
}

/** The `rg` binary the peers run (the one the tools use). */
export function ripgrepBinary(): string {
  const rgPath = locateRipgrep();
  if (!rgPath) throw new Error("ripgrep (@vscode/ripgrep) is required for the benchmark peers");
  return rgPath;
}

/** The median of `times` (the upper middle one for an even count). */
export function median(times: readonly number[]): number {
  const sorted = [...times].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/**
 * Median of `runs` timed runs after one warm-up. Medians, not minimums: the
 * figure a user meets on a shared machine, as the issue asks.
 */
export async function measure(runs: number, fn: () => Promise<unknown>): Promise<number> {
  await fn(); // warm-up
  const times: number[] = [];
  for (let index = 0; index < runs; index += 1) {
    const start = performance.now();
    await fn();
    times.push(performance.now() - start);
  }
  return median(times);
}

/**
 * Medians of several sides measured interleaved run by run: one warm-up
 * run of every side, then `runs` rounds in which each side runs once, the
 * order rotating from round to round, so machine load drifting during the
 * figure falls on every side alike. Resolves to each side's median, in the
 * order of `sides`.
 */
export async function interleaved(runs: number, sides: ReadonlyArray<() => Promise<unknown>>): Promise<number[]> {
  const times = sides.map((): number[] => []);
  for (let round = -1; round < runs; round += 1) {
    for (let step = 0; step < sides.length; step += 1) {
      const side = (step + Math.max(0, round)) % sides.length;
      const start = performance.now();
      await sides[side]!();
      if (round >= 0) times[side]!.push(performance.now() - start);
    }
  }
  return times.map(median);
}

/** The machine's load averages (1, 5, 15 minutes). */
export function loads(): string {
  return os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(" ");
}

/** Runs `rg` with `args` in `cwd`, draining its output; resolves to the bytes it printed. */
export function rgDirect(args: string[], cwd: string): Promise<number> {
  const rgPath = ripgrepBinary();
  return new Promise((resolve, reject) => {
    const child = spawn(rgPath, args, { cwd, stdio: ["ignore", "pipe", "ignore"] });
    let bytes = 0;
    child.stdout.on("data", (chunk: Buffer) => (bytes += chunk.length));
    child.on("error", reject);
    child.on("close", () => resolve(bytes));
  });
}

/** Runs `rg` with `args` in `cwd` and resolves to everything it printed. */
export function rgOutput(args: string[], cwd: string): Promise<Buffer> {
  const rgPath = ripgrepBinary();
  return new Promise((resolve, reject) => {
    const child = spawn(rgPath, args, { cwd, stdio: ["ignore", "pipe", "ignore"] });
    const chunks: Buffer[] = [];
    child.stdout.on("data", (chunk: Buffer) => chunks.push(chunk));
    child.on("error", reject);
    child.on("close", () => resolve(Buffer.concat(chunks)));
  });
}

/** A registry with the file tools only; `ripgrepPath: false` selects the pure TypeScript engines; `maxOutputChars` default 240,000. */
export function registryFor(workdir: string, ripgrepPath?: false, maxOutputChars?: number): ToolRegistry {
  return createToolRegistry({
    workdir,
    maxOutputChars,
    dataDir: path.join(os.tmpdir(), "agent-tools-bench-data"),
    bundles: [createFsToolBundle({ ripgrepPath })],
    loopBreaker: false,
  });
}

let callId = 0;
/** Calls a tool and throws when it answers with an error. */
export async function call(registry: ToolRegistry, name: string, args: Record<string, unknown>): Promise<ToolResult> {
  const result = await registry.executeToolCall({ id: `bench_${++callId}`, name, arguments: args });
  if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.content).slice(0, 2_000)}`);
  return result;
}

/** Milliseconds, right-aligned. */
export const format = (ms: number): string => `${ms.toFixed(1).padStart(8)} ms`;
/** tool / peer. */
export const ratio = (value: number, base: number): string => `${(value / base).toFixed(2)}x`;

/** Prints one row of the table. */
export function row(...cells: string[]): void {
  console.log(cells.join(" | "));
}
