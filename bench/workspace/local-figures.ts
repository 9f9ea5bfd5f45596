/**
 * The local adapter figures of the workspace benchmark: the same file tool
 * calls on a copy of rules-3k through two `buildBuiltinToolRegistry`
 * registries, one without a workspace (the local disk as before) and one
 * with `workspace: createLocalWorkspace({ root })`. The file tools keep
 * their local code paths when the workspace says `capabilities.localPaths`,
 * so the two should be within a few percent; the ratio is with / without.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createLocalWorkspace } from "@agent-tools/node";
import { buildBuiltinToolRegistry } from "@agent-tools/sdk";
import { type BenchSettings, format, ratio, row } from "../fs/bench-util.js";
import { copyRulesTree } from "./copy-tree.js";
import { callTool, EditToggle, grepPatterns, LARGE_FILE, SOURCE_FILE, toolEdit } from "./operations.js";
import { countingWorkspace } from "./counting-workspace.js";
import { measureSides, pairedRatio } from "./timing.js";

type Registry = Awaited<ReturnType<typeof buildBuiltinToolRegistry>>;

/** The calls timed, each made through a given registry. */
function calls(
  settings: BenchSettings,
  toggle: EditToggle,
): Array<{ label: string; run: (registry: Registry) => Promise<unknown>; prepare?: (registry: Registry) => Promise<unknown> }> {
  const list: Array<{ label: string; run: (registry: Registry) => Promise<unknown>; prepare?: (registry: Registry) => Promise<unknown> }> = [
    { label: `Read first page of ${SOURCE_FILE} (5 KB)`, run: (registry) => callTool(registry, "Read", { path: SOURCE_FILE }) },
    { label: `Read first page of ${LARGE_FILE} (0.8 MB)`, run: (registry) => callTool(registry, "Read", { path: LARGE_FILE }) },
    {
      label: "Edit one line of the 5 KB file, after a Read (untimed)",
      prepare: (registry) => callTool(registry, "Read", { path: SOURCE_FILE }),
      run: (registry) => toolEdit(registry, toggle),
    },
    { label: "Glob **/*.ts", run: (registry) => callTool(registry, "Glob", { pattern: "**/*.ts" }) },
  ];
  for (const [kind, pattern] of grepPatterns(settings.quick)) {
    for (const mode of ["content", "files"] as const) {
      list.push({ label: `Grep ${kind} ${mode}`, run: (registry) => callTool(registry, "Grep", { pattern, output_mode: mode }) });
    }
  }
  return list;
}

/** Runs and prints the local figures on a fresh copy of `source` (removed afterwards). */
export async function benchLocal(source: string, settings: BenchSettings): Promise<void> {
  const base = mkdtempSync(path.join(os.tmpdir(), "agent-tools-bench-workspace-local-"));
  const root = path.join(base, "rules-3k");
  copyRulesTree(source, root);
  const dataDir = path.join(base, "data");
  const local = await createLocalWorkspace({ root });
  const { workspace, calls: portCalls } = countingWorkspace(local);
  const without = await buildBuiltinToolRegistry({ workdir: root, dataDir, memory: false });
  const withWorkspace = await buildBuiltinToolRegistry({ workspace, workdir: root, dataDir, memory: false });
  try {
    for (const call of calls(settings, new EditToggle())) {
      portCalls.clear();
      const measured = await measureSides(settings.runs, [
        { name: "without", run: () => call.run(without), prepare: call.prepare && (() => call.prepare!(without)) },
        { name: "with", run: () => call.run(withWorkspace), prepare: call.prepare && (() => call.prepare!(withWorkspace)) },
      ]);
      const plain = measured.medians.get("without")!;
      const through = measured.medians.get("with")!;
      const ported = [...portCalls].map(([name, count]) => `${name} ${count}`).join(", ") || "none";
      row(
        "local",
        call.label,
        `no workspace ${format(plain)}`,
        `createLocalWorkspace ${format(through)} ${ratio(through, plain)}`,
        `paired ${pairedRatio(measured, "with", "without").toFixed(2)}x`,
        `workspace port calls: ${ported}`,
      );
    }
  } finally {
    await withWorkspace.close();
    await without.close();
    await local.close();
    rmSync(base, { recursive: true, force: true });
  }
}
