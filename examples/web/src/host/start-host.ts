/**
 * Everything the executing host owns, in one call: the workspace (the given
 * directory, or a temporary copy of the sample project), the registry with
 * the web approval bridge, the model (the given one, or the scripted demo)
 * and the link to the gateway.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { ModelClient } from "@agent-tools/core";
import { prepareDemoProject } from "@agent-tools/example-cli/demo/sample-project";
import { buildBuiltinToolRegistry } from "@agent-tools/sdk";
import { type ExecutingHost, connectExecutingHost } from "./connect-executing-host.js";
import { DEMO_APPROVAL, REAL_MODEL_APPROVAL, type WebApprovalOptions, createWebApproval } from "./web-approval.js";
import { createWebDemoModel } from "./web-demo-model.js";
import { webTaskRun } from "./web-task-run.js";

/** Options of {@link startHost}. */
export interface StartHostOptions {
  gatewayUrl: string;
  /** The gateway's host token (the page's token cannot open `/host`). */
  hostToken: string;
  /** The workspace; default a temporary copy of the sample project, deleted on close. */
  workdir?: string;
  /** Default the scripted web demo model. */
  model?: ModelClient;
  /** Shown on the page; default "scripted demo" or the model's id. */
  modelName?: string;
  /** Approval rules; default `DEMO_APPROVAL` for the scripted model, `REAL_MODEL_APPROVAL` for a given one. */
  approval?: WebApprovalOptions;
  /** Where the SDK keeps its SQLite file and logs; default a temporary directory, deleted on close. */
  dataDir?: string;
}

/** A running executing host with its registry. */
export interface StartedHost {
  /** The workspace the tools work in. */
  readonly workdir: string;
  readonly modelName: string;
  /** Resolves once the host is connected to the gateway (after its `host-hello`). */
  readonly connected: Promise<void>;
  /** Stops the turns, disconnects, closes the registry and deletes what this call created. */
  close(): Promise<void>;
}

/**
 * Builds the registry and connects the executing host.
 *
 * @example
 * const host = await startHost({ gatewayUrl: "http://127.0.0.1:8787", hostToken });
 * await host.connected;
 */
export async function startHost(options: StartHostOptions): Promise<StartedHost> {
  const cleanups: Array<() => void | Promise<void>> = [];
  try {
    let workdir = options.workdir;
    if (workdir === undefined) {
      const project = prepareDemoProject();
      cleanups.push(() => project.remove());
      workdir = project.workdir;
    }
    let dataDir = options.dataDir;
    if (dataDir === undefined) {
      const temporary = mkdtempSync(path.join(os.tmpdir(), "agent-tools-web-data-"));
      cleanups.push(() => rmSync(temporary, { recursive: true, force: true }));
      dataDir = temporary;
    }
    const model = options.model ?? createWebDemoModel();
    const modelName = options.modelName ?? (options.model ? options.model.id : "scripted demo");
    const web = createWebApproval(options.approval ?? (options.model ? REAL_MODEL_APPROVAL : DEMO_APPROVAL));
    // One registry serves every conversation: each turn's calls carry their conversation (see web-task-run.ts).
    const registry = await buildBuiltinToolRegistry({ workdir, dataDir, approval: web.approval, tasks: { run: webTaskRun } });
    cleanups.push(() => registry.close());
    let markConnected: () => void = () => undefined;
    const connected = new Promise<void>((resolve) => (markConnected = resolve));
    const host: ExecutingHost = connectExecutingHost({
      gatewayUrl: options.gatewayUrl,
      hostToken: options.hostToken,
      registry,
      model,
      modelName,
      approval: web,
      onConnectionChange: (up) => up && markConnected(),
    });
    cleanups.push(() => host.close());
    return {
      workdir: registry.workdir,
      modelName,
      connected,
      close: () => runCleanups(cleanups),
    };
  } catch (error) {
    await runCleanups(cleanups);
    throw error;
  }
}

/** Runs cleanups newest first; each runs even when an earlier one fails. */
async function runCleanups(cleanups: Array<() => void | Promise<void>>): Promise<void> {
  for (const cleanup of cleanups.splice(0).reverse()) {
    try {
      await cleanup();
    } catch {
      // Cleanup is best effort: a half-removed temp dir must not hide the real outcome.
    }
  }
}
