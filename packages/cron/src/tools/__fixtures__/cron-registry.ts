// Shared setup of the CronTaskManager tests: a real temp workspace, a registry holding the tool over an
// InMemoryCronStore, a call helper. Importing it registers cleanup hooks in the importing test file.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type AdditionalRoot, type RuntimeScope, type ToolPorts, type ToolRegistry, createToolRegistry, toolResultText } from "@agent-tools/core";
import { afterAll, afterEach } from "vitest";
import { InMemoryCronStore } from "../../ports/in-memory-cron-store.js";
import type { CronStore } from "../../ports/cron-store.js";
import type { CronTaskManagerDetails } from "../cron-task-manager-output.js";
import { type CronTaskManagerToolOptions, createCronTaskManagerTool } from "../cron-task-manager-tool.js";

/** The fixed clock of the tests: 2026-01-01T10:00:00Z. */
export const NOW = Date.UTC(2026, 0, 1, 10, 0, 0);

const roots: string[] = [];
afterAll(() => {
  for (const root of roots.splice(0)) fs.rmSync(root, { recursive: true, force: true });
});

const registries: ToolRegistry[] = [];
afterEach(async () => {
  await Promise.all(registries.splice(0).map((registry) => registry.close()));
});

/** A temporary directory removed after the file's tests. */
export function temporaryDirectory(prefix = "agent-tools-cron-"): string {
  const directory = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
  roots.push(directory);
  return directory;
}

/**
 * A registry with CronTaskManager on a fresh workspace (or `workdir`), with
 * the given roots and ports; `model` is the host's current model (mutable).
 */
export function setup(
  options: Partial<CronTaskManagerToolOptions> & {
    scope?: RuntimeScope;
    workdir?: string;
    additionalRoots?: readonly AdditionalRoot[];
    ports?: Partial<ToolPorts>;
  } = {},
) {
  const workdir = options.workdir ?? temporaryDirectory();
  const store: CronStore = options.store === undefined || typeof options.store === "function" ? new InMemoryCronStore() : options.store;
  const model: { id: string | undefined } = { id: "model-a" };
  const tool = createCronTaskManagerTool({
    store: options.store ?? store,
    currentModelId: options.currentModelId ?? (() => model.id),
    now: options.now ?? (() => NOW),
    timeZone: "timeZone" in options ? options.timeZone : "UTC",
    ...(options.http === undefined ? {} : { http: options.http }),
  });
  const registry = createToolRegistry({
    workdir,
    runtimeScope: options.scope ?? "chat",
    bundles: [{ id: "cron", trusted: true, listTools: () => [tool] }],
    ...(options.additionalRoots === undefined ? {} : { additionalRoots: options.additionalRoots }),
    ...(options.ports === undefined ? {} : { ports: options.ports }),
  });
  registries.push(registry);
  let id = 0;
  const call = async (args: Record<string, unknown>) => {
    const result = await registry.executeToolCall({ id: `call_${(id += 1)}`, name: "CronTaskManager", arguments: args });
    return { ...result, text: toolResultText(result, ""), details: result.details as CronTaskManagerDetails };
  };
  return { workdir, store, model, tool, registry, call };
}
