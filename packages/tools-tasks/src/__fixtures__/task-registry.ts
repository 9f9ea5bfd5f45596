// Shared setup of the task tool tests: a registry over a task bundle, a call helper and a JSON reader.
// Importing it registers cleanup hooks in the importing test file.
import { type Logger, type ToolRegistry, createToolRegistry, toolResultText } from "@agent-tools/core";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach } from "vitest";
import { InMemoryTaskStateStore } from "../in-memory-task-state-store.js";
import type { TaskListDetails } from "../task-result.js";
import type { TaskState } from "../task-state.js";
import { type TaskToolBundleOptions, createTaskToolBundle } from "../task-tool-bundle.js";

const workdir = fs.mkdtempSync(path.join(os.tmpdir(), "agent-tools-task-tools-"));
afterAll(() => fs.rmSync(workdir, { recursive: true, force: true }));

const registries: ToolRegistry[] = [];
afterEach(async () => {
  await Promise.all(registries.splice(0).map((registry) => registry.close()));
});

function warnings(): { logger: Logger; messages: string[] } {
  const messages: string[] = [];
  const ignore = () => undefined;
  return {
    messages,
    logger: { debug: ignore, info: ignore, error: ignore, warn: (message, data) => messages.push(`${message} ${JSON.stringify(data ?? {})}`) },
  };
}

export function setup(options: TaskToolBundleOptions = {}, scope: "chat" | "cron" = "chat") {
  const store = new InMemoryTaskStateStore();
  const bundle = createTaskToolBundle({ store, ...options });
  const { logger, messages } = warnings();
  const registry = createToolRegistry({ workdir, dataDir: path.join(workdir, ".data"), runtimeScope: scope, bundles: [bundle], logger });
  registries.push(registry);
  let id = 0;
  const call = async (name: string, args: unknown, hostContext?: unknown) => {
    const result = await registry.executeToolCall({ id: `call_${(id += 1)}`, name, arguments: args }, { hostContext });
    const text = toolResultText(result, "");
    return { ...result, text, details: result.details as TaskListDetails };
  };
  const stateOf = (text: string): TaskState => JSON.parse(text.slice(text.indexOf("{"))) as TaskState;
  return { store, bundle, registry, call, stateOf, warnings: messages };
}

export const create = (subject: string) => ({ subject, description: `${subject} in detail`, activeForm: `${subject}ing` });
