import { SdkError, type ToolBundle, type ToolDefinition } from "@agent-tools/core";
import { createBashSessionTool } from "./bash-session-tool.js";
import { createBashSyncTool } from "./bash-sync-tool.js";
import type { CommandPolicy } from "./command-guards.js";
import { createManagedProcessTool } from "./managed-process-tool.js";
import { ManagedProcessManager } from "./managed-process-manager.js";
import type { ProcessLogRetention } from "./process-log-pruning.js";
import { createProcessStopTool } from "./process-stop-tool.js";
import { createProcessWaitTool } from "./process-wait-tool.js";
import { resolveShellInfo } from "./shell-environment.js";
import type { ShellRuntime } from "./shell-runtime.js";
import { ShellSessionStore } from "./shell-session-store.js";
import { type DurableSessionsOptions, createDurableSessions } from "./durable/durable-sessions.js";

/** Options of {@link createShellToolBundle}. */
export interface ShellToolBundleOptions {
  /**
   * The model provider, for the synchronous timeout table: `claude_code`
   * 120 s / 600 s; `codex`, `gemini`, `xai`, `deepseek` 30 s / 30 s; others 120 s / 600 s.
   */
  providerId?: string;
  /** Shell executable; default `/bin/bash`, else `/bin/sh`. */
  shell?: string;
  /** Extra environment for every command. */
  env?: Record<string, string>;
  /**
   * Checks run before any command is spawned, in order; one returning a
   * message refuses the command with it. The skills package adds its access
   * policy here.
   */
  commandPolicies?: readonly CommandPolicy[];
  /** Sessions held at once; default 64. */
  maxSessions?: number;
  /** How long a finished session stays readable; default 10 minutes. */
  sessionRetentionMs?: number;
  /**
   * Pruning of finished ManagedProcess entries in `<dataDir>/process-logs`:
   * default at most 200 kept and none last written more than 30 days ago.
   */
  processLogRetention?: ProcessLogRetention;
  /**
   * Makes every Bash session and every ManagedProcess start durable (on
   * this machine): the command runs under a small supervisor process with
   * its output logged to `<dir>/<session_id>/`, outlives this host, and a
   * later host built with the same `dir` reattaches on ProcessWait/ProcessStop
   * with the same session_id (ManagedProcess: the same process_id and
   * dataDir). A host decision, never a model argument. Left out: sessions
   * live in this process only.
   */
  durableSessions?: DurableSessionsOptions;
}

/** The shell bundle: its tools plus what a host may need to add a policy later. */
export interface ShellToolBundle extends ToolBundle {
  /** Adds a command policy (e.g. the skills access policy); returns a function that removes it. */
  addCommandPolicy(policy: CommandPolicy): () => void;
}

/**
 * The shell tools as a bundle. Chat scope: Bash (resumable sessions),
 * ProcessWait, ProcessStop and ManagedProcess. Cron scope: the synchronous
 * Bash only. Sessions and managed processes live in this bundle's closure;
 * `close()` ends every one of them (isolated managed processes excepted).
 *
 * @example
 * const registry = createToolRegistry({ workdir, runtimeScope: "chat", bundles: [createShellToolBundle()] });
 * const result = await registry.executeToolCall({ id: "1", name: "Bash", arguments: { command: "npm test" } });
 */
export function createShellToolBundle(options: ShellToolBundleOptions = {}): ShellToolBundle {
  checkHostEnvironment(options.env);
  const policies: CommandPolicy[] = [...(options.commandPolicies ?? [])];
  const durable = options.durableSessions === undefined ? undefined : createDurableSessions(options.durableSessions, options.maxSessions);
  const runtime: ShellRuntime = {
    sessions: new ShellSessionStore({ maxSessions: options.maxSessions, retentionMs: options.sessionRetentionMs }),
    managed: new ManagedProcessManager(options.processLogRetention, durable),
    info: resolveShellInfo(options.shell),
    providerId: options.providerId,
    policies,
    env: { ...(options.env ?? {}) },
    ...(durable === undefined ? {} : { durable }),
  };
  const tools: ToolDefinition[] = [
    createBashSessionTool(runtime),
    createBashSyncTool(runtime),
    createProcessWaitTool(runtime),
    createProcessStopTool(runtime),
    createManagedProcessTool(runtime),
  ];
  let closing: Promise<void> | undefined;
  return {
    id: "shell",
    trusted: true,
    listTools: () => tools,
    addCommandPolicy(policy) {
      policies.push(policy);
      return () => {
        const index = policies.indexOf(policy);
        if (index >= 0) policies.splice(index, 1);
      };
    },
    close() {
      closing ??= Promise.allSettled([runtime.sessions.close(), runtime.managed.close()]).then(() => undefined);
      return closing;
    },
  };
}

/** Host misuse surfaces here, not as every command failing "unexpectedly" when spawn rejects the environment. */
function checkHostEnvironment(env: Record<string, string> | undefined): void {
  if (env === undefined) return;
  for (const [key, value] of Object.entries(env)) {
    if (key === "" || key.includes("=") || key.includes("\u0000")) {
      throw new SdkError("invalid_options", `Shell env names must be non-empty, without "=" or NUL bytes (got ${JSON.stringify(key.slice(0, 100))}).`);
    }
    if (typeof value !== "string" || value.includes("\u0000")) {
      throw new SdkError("invalid_options", `Shell env value of ${key} must be a string without NUL bytes: the shell cannot receive them.`);
    }
  }
}
