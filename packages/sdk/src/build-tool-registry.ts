import type { CallLedger } from "@agent-tools/core/durable";
import {
  type AdditionalRoot,
  type ApprovalOptions,
  type Logger,
  type ResourceHub,
  type RuntimeScope,
  SdkError,
  type ToolConcurrencyOptions,
  type ToolEvent,
  type ToolPlugin,
  type ToolPorts,
  type ToolRegistry,
  type ToolTelemetryOptions,
  composeToolRegistry,
} from "@agent-tools/core";
import { BUILTIN_TOOL_NAMES } from "./approval-wiring.js";
import { type SdkPolicyOptions, policyFactoryOf } from "./policy-wiring.js";
import type { SdkCheckpointStoreOptions } from "./checkpoint-wiring.js";
import { nodePortsFactory } from "./plugins/node-ports-factory.js";
import { type SdkSandboxOptions, resolveSandboxState } from "./sandbox-wiring.js";
import { BUILTIN_TOOL_CONCURRENCY } from "./tool-concurrency-defaults.js";

/** Options of {@link buildToolRegistry}: the registry-wide ones of `buildBuiltinToolRegistry` plus the plugin list. */
export interface ToolRegistryBuildOptions extends SdkPolicyOptions {
  /** The plugins, in order (e.g. `builtinToolPlugins(options)` plus the host's own). */
  readonly plugins: readonly ToolPlugin[];
  readonly workdir: string;
  readonly runtimeScope?: RuntimeScope;
  readonly dataDir?: string;
  readonly additionalRoots?: readonly AdditionalRoot[];
  readonly ports?: Partial<ToolPorts>;
  readonly approval?: ApprovalOptions;
  /** The call ledger of durable runs (see `BuiltinToolRegistryOptions.ledger`). */
  readonly ledger?: CallLedger;
  readonly onEvent?: (event: ToolEvent) => void;
  readonly logger?: Logger;
  readonly telemetry?: ToolTelemetryOptions;
  readonly maxOutputChars?: number;
  readonly conversationId?: string;
  readonly planMode?: boolean;
  readonly concurrency?: ToolConcurrencyOptions | false;
  readonly sandbox?: SdkSandboxOptions;
  readonly checkpoint?: { id: string };
  readonly checkpoints?: SdkCheckpointStoreOptions;
  readonly resources?: ResourceHub;
}

/**
 * Builds a registry from plugins on the Node ports: the composition root of
 * `buildBuiltinToolRegistry`, open to hosts that bring their own plugin
 * list. The sandbox is probed once here; every registry (and each worktree
 * child) gets fresh Node ports with it.
 *
 * @example
 * const registry = await buildToolRegistry({ workdir, plugins: [...builtinToolPlugins({ workdir }), greeter] });
 */
export async function buildToolRegistry(options: ToolRegistryBuildOptions): Promise<ToolRegistry> {
  const runtimeScope = options.runtimeScope ?? "chat";
  const sandbox = await resolveSandboxState(options.sandbox, options.ports?.sandbox);
  // Rules and hooks are checked when the registry is created (against its tools), before any call.
  const policy = await policyFactoryOf(options);
  return composeToolRegistry({
    plugins: options.plugins,
    workdir: options.workdir,
    runtimeScope,
    ...pick(options, [
      "dataDir",
      "additionalRoots",
      "approval",
      "ledger",
      "onEvent",
      "logger",
      "telemetry",
      "maxOutputChars",
      "conversationId",
      "planMode",
      "resources",
    ]),
    knownApprovalKeys: BUILTIN_TOOL_NAMES,
    ...(policy === undefined ? {} : { policy }),
    concurrency: options.concurrency ?? BUILTIN_TOOL_CONCURRENCY,
    // A checkpoint records the calls of a chat; the cron scope has none.
    ...(runtimeScope === "chat" && options.checkpoint !== undefined ? { checkpoint: checkCheckpoint(options.checkpoint) } : {}),
    ports: nodePortsFactory({ ports: options.ports, sandbox, checkpoints: options.checkpoints }),
  });
}

function pick<T extends object, K extends keyof T>(source: T, keys: readonly K[]): Partial<Pick<T, K>> {
  const out: Partial<Pick<T, K>> = {};
  for (const key of keys) if (source[key] !== undefined) out[key] = source[key];
  return out;
}

function checkCheckpoint(checkpoint: unknown): { id: string } {
  const id = (checkpoint as { id?: unknown } | null)?.id;
  if (typeof id !== "string" || id === "") {
    throw new SdkError("invalid_options", `checkpoint must be { id: <non-empty string> } (e.g. "<conversation>:<turn>"), not ${JSON.stringify(checkpoint)}.`);
  }
  return { id };
}
