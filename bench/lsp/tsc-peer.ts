/**
 * The peer of the language-server benchmark: `tsc --noEmit -p <project>`
 * with the repository's TypeScript (5.9.3), on the project with the
 * benchmark's edits in place, so its output must hold their errors.
 */
import { readFile, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { ExecaProcessRunner } from "@agent-tools/node";
import { type EditProbe, isProbeError } from "./edit-probes.js";

/** The tsc script of the repository's TypeScript. */
export function tscPath(): string {
  const require = createRequire(import.meta.url);
  return path.join(path.dirname(require.resolve("typescript/package.json")), "bin", "tsc");
}

/** Applies the edits, runs tsc once, restores the files; the time and whether every edit's error was in tsc's output. */
export async function runTsc(root: string, probes: readonly EditProbe[]): Promise<{ ms: number; found: boolean; errors: number }> {
  const originals = await Promise.all(probes.map((probe) => readFile(probe.file, "utf8")));
  await Promise.all(probes.map((probe, index) => writeFile(probe.file, (originals[index] as string).replace(probe.oldString, probe.newString))));
  const runner = new ExecaProcessRunner();
  try {
    const start = performance.now();
    const child = runner.spawn({ command: process.execPath, args: [tscPath(), "--noEmit", "-p", root], cwd: root });
    const output: Buffer[] = [];
    child.onOutput((chunk) => output.push(chunk.data));
    await child.exited;
    await child.outputClosed;
    const ms = performance.now() - start;
    const lines = Buffer.concat(output).toString("utf8").split("\n");
    const errorLines = lines.filter((line) => / error TS\d+:/.test(line));
    const found = probes.every((probe) => errorLines.some((line) => line.startsWith(path.relative(root, probe.file)) && isProbeError(probe, line)));
    return { ms, found, errors: errorLines.length };
  } finally {
    await Promise.all(probes.map((probe, index) => writeFile(probe.file, originals[index] as string)));
    await runner.close();
  }
}
