import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { toolResultText } from "@agent-tools/core";
import type { ExecuteToolCallOptions, RuntimeScope, ToolResult } from "@agent-tools/core";
import { type ShellToolBundleOptions, createShellToolBundle } from "../shell-tool-bundle.js";
import { createNodeToolRegistry } from "./node-tool-registry.js";

/** A registry with only the shell bundle, in fresh temp directories. */
export function createHarness(runtimeScope: RuntimeScope = "chat", options: ShellToolBundleOptions = {}, sharedWorkdir?: string) {
  // A second host of the same project passes the first one's workdir.
  const workdir = sharedWorkdir ?? realpathSync(mkdtempSync(path.join(os.tmpdir(), "shell-work-")));
  const dataDir = realpathSync(mkdtempSync(path.join(os.tmpdir(), "shell-data-")));
  const bundle = createShellToolBundle(options);
  const registry = createNodeToolRegistry({ workdir, runtimeScope, dataDir, bundles: [bundle], loopBreaker: false });
  let counter = 0;
  const call = (name: string, args: Record<string, unknown>, callOptions?: ExecuteToolCallOptions) =>
    registry.executeToolCall({ id: `call_${(counter += 1)}`, name, arguments: args }, callOptions);
  const cleanup = async () => {
    await registry.close();
    rmSync(workdir, { recursive: true, force: true });
    rmSync(dataDir, { recursive: true, force: true });
  };
  return { workdir, dataDir, bundle, registry, call, cleanup };
}

/** The text of a result. */
export function textOf(result: ToolResult): string {
  return toolResultText(result, "");
}

/** Details of a result, typed loosely for assertions. */
export function detailsOf(result: ToolResult): Record<string, any> {
  return result.details as Record<string, any>;
}
