/**
 * One run of the diagnostics-after-edit measurement through the language
 * servers' EditDiagnostics provider (what Write/Edit/ApplyPatch call around
 * their write), on a fresh manager: the first edit starts tsserver and waits
 * for the project to load (cold), the next one finds it running (warm).
 *
 * With a budget large enough, `after` itself returns the error. With the
 * default budget (1.5 s) a cold edit returns `pending`; the time then runs on
 * to the first `diagnostics` call of the manager (what the LSP tool's
 * diagnostics action calls) that holds the error.
 */
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { ExecaProcessRunner } from "@agent-tools/node";
import { createLanguageServerManager } from "../../packages/lsp/src/runtime/language-server-manager.js";
import { createLspEditDiagnostics } from "../../packages/lsp/src/runtime/lsp-edit-diagnostics.js";
import { type EditProbe, isProbeError } from "./edit-probes.js";

/** How one edit went: milliseconds from the start of the edit until the error was seen, and the status the edit's report had. */
export interface EditTiming {
  readonly ms: number;
  readonly status: string;
  /** False when the error was never seen (the run then counts as a failure, not a figure). */
  readonly found: boolean;
}

/** Options of {@link runProviderEdits}. */
export interface ProviderRunOptions {
  readonly root: string;
  readonly probes: readonly [EditProbe, EditProbe];
  /** The provider's budget; undefined = its default (1.5 s). */
  readonly budgetMs?: number;
  /** How long a follow-up diagnostics call may wait after `pending`. */
  readonly followUpWaitMs: number;
}

/** Makes the cold edit then the warm edit on a fresh manager, restores both files, and closes everything. */
export async function runProviderEdits(options: ProviderRunOptions): Promise<{ cold: EditTiming; warm: EditTiming }> {
  const runner = new ExecaProcessRunner();
  const manager = createLanguageServerManager({
    workspaceRoot: options.root,
    processes: runner,
    readFile: (file) => readFile(file),
    requestTimeoutMs: 180_000,
  });
  const provider = createLspEditDiagnostics(manager, {
    ...(options.budgetMs !== undefined ? { budgetMs: options.budgetMs } : {}),
    displayPath: (file) => path.relative(options.root, file),
  });
  const originals = await Promise.all(options.probes.map((probe) => readFile(probe.file, "utf8")));
  try {
    const edit = async (probe: EditProbe, original: string): Promise<EditTiming> => {
      const start = performance.now();
      const baseline = await provider.before([probe.file]);
      await writeFile(probe.file, original.replace(probe.oldString, probe.newString));
      const displayPath = path.relative(options.root, probe.file);
      const report = await provider.after(baseline, [{ path: probe.file, displayPath, change: "modified" }]);
      const status = report?.details.status ?? "none";
      if (report?.details.introduced.some((item) => isProbeError(probe, item.message))) return { ms: performance.now() - start, status, found: true };
      // Pending (or nothing): the model would call LSP diagnostics on the file; count until a call shows the error.
      const deadline = performance.now() + options.followUpWaitMs;
      while (performance.now() < deadline) {
        const current = await manager.diagnostics(probe.file, { waitMs: Math.max(0, deadline - performance.now()) });
        if (current.diagnostics.some((item) => isProbeError(probe, item.message))) return { ms: performance.now() - start, status, found: true };
        // Ready without it: the server has not checked the new text yet; ask again shortly.
        if (current.status === "ready") await new Promise((resolve) => setTimeout(resolve, 100));
      }
      return { ms: performance.now() - start, status, found: false };
    };
    const cold = await edit(options.probes[0], originals[0] as string);
    const warm = await edit(options.probes[1], originals[1] as string);
    return { cold, warm };
  } finally {
    await Promise.all(options.probes.map((probe, index) => writeFile(probe.file, originals[index] as string)));
    await manager.close();
    await runner.close();
  }
}
