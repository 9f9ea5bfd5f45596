/**
 * One run of the diagnostics-after-edit measurement as a model meets it:
 * a registry built with `lsp: true` (default 1.5 s budget), the file Read,
 * then an Edit that introduces an error; the time runs from the Edit call
 * until its result holds the error, or, when the result says `pending`
 * (or, wrongly, `clean`), until the first LSP diagnostics call on the file
 * that shows it. The first Edit finds no server (cold: tsserver starts and
 * loads the project meanwhile), the next one the running server (warm).
 */
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { buildBuiltinToolRegistry } from "../../packages/sdk/src/index.js";
import { type EditProbe, isProbeError } from "./edit-probes.js";
import type { EditTiming } from "./provider-engine.js";

type ToolResult = Awaited<ReturnType<Awaited<ReturnType<typeof buildBuiltinToolRegistry>>["executeToolCall"]>>;

const textOf = (result: ToolResult) => result.content.map((part) => ("text" in part ? part.text : "")).join("");

/** Options of {@link runRegistryEdits}. */
export interface RegistryRunOptions {
  readonly root: string;
  readonly dataDir: string;
  readonly probes: readonly [EditProbe, EditProbe];
  /** How long to keep calling LSP diagnostics after an Edit result without the error. */
  readonly followUpWaitMs: number;
}

/** Cold then warm Edit through a fresh registry; restores the files and closes the registry. */
export async function runRegistryEdits(options: RegistryRunOptions): Promise<{ cold: EditTiming; warm: EditTiming }> {
  const originals = await Promise.all(options.probes.map((probe) => readFile(probe.file, "utf8")));
  const registry = await buildBuiltinToolRegistry({ workdir: options.root, dataDir: options.dataDir, lsp: true });
  let calls = 0;
  const call = async (name: string, input: Record<string, unknown>): Promise<ToolResult> => {
    calls += 1;
    const result = await registry.executeToolCall({ id: `bench-${calls}`, name, arguments: input });
    if (result.isError) throw new Error(`${name} failed: ${textOf(result).slice(0, 500)}`);
    return result;
  };
  try {
    const edit = async (probe: EditProbe): Promise<EditTiming> => {
      const relative = path.relative(options.root, probe.file);
      await call("Read", { path: relative });
      const start = performance.now();
      const result = await call("Edit", { path: relative, old_string: probe.oldString, new_string: probe.newString });
      const report = (result.details as { diagnostics?: { status: string; introduced: ReadonlyArray<{ message: string }> } }).diagnostics;
      const status = report?.status ?? "none";
      if (report?.introduced.some((item) => isProbeError(probe, item.message))) return { ms: performance.now() - start, status, found: true };
      const deadline = performance.now() + options.followUpWaitMs;
      while (performance.now() < deadline) {
        const answer = await call("LSP", { action: "diagnostics", path: relative });
        if (textOf(answer).includes(`'${probe.missingName}'`)) return { ms: performance.now() - start, status, found: true };
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      return { ms: performance.now() - start, status, found: false };
    };
    const cold = await edit(options.probes[0]);
    const warm = await edit(options.probes[1]);
    return { cold, warm };
  } finally {
    await registry.close();
    await Promise.all(options.probes.map((probe, index) => writeFile(probe.file, originals[index] as string)));
  }
}
