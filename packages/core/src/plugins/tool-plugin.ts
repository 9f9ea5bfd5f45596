/**
 * The plugin contract: how a package contributes tools to a registry. A
 * plugin is a description (`id`, `scopes`, what a subagent's child registry
 * gets) plus `create(host)`, which builds its bundles from what the host
 * gives: the ports, the path policy's inputs, the data directory, the
 * logger, telemetry, a host-owned resource hub (shared storage) and a
 * narrowed view of the registry being built.
 */
import type { AdditionalRoot } from "../paths/additional-roots.js";
import type { PathPolicy } from "../paths/path-policy.js";
import type { ToolPorts } from "../ports/tool-ports.js";
import type { ApprovalDecision } from "../registry/approval-policy.js";
import type { ToolRegistry } from "../registry/tool-registry.js";
import type { ToolTelemetryOptions } from "../telemetry/tool-call-span.js";
import type { Logger, RuntimeScope, ToolBundle, ToolSchema } from "../types.js";
import type { ResourceHub } from "./resource-hub.js";

/**
 * What a subagent's child registry (built on its own git worktree) gets of a
 * plugin: `inherit` the same plugin, `readonly` the plugin's
 * {@link ToolPlugin.readonlyChild} variant, `omit` nothing. Children are built
 * from this allow-list only: a plugin that does not say `inherit` or
 * `readonly` never reaches a child.
 */
export type ToolPluginChildPolicy = "inherit" | "readonly" | "omit";

/** The values {@link ToolPluginChildPolicy} may take. */
export const TOOL_PLUGIN_CHILD_POLICIES: readonly ToolPluginChildPolicy[] = Object.freeze(["inherit", "readonly", "omit"]);

/**
 * A package's contribution to a registry.
 *
 * @example
 * const greeter: ToolPlugin = {
 *   id: "greeter",
 *   scopes: ["chat"],
 *   child: "inherit",
 *   create: () => ({ id: "greeter", trusted: true, listTools: () => [Greet] }),
 * };
 */
export interface ToolPlugin {
  /** Unique among a registry's plugins, e.g. `fs`, `shell`, `tasks`. */
  readonly id: string;
  /** The runtime scopes it is created in; in another scope it is left out. */
  readonly scopes: readonly RuntimeScope[];
  /** What a subagent's child registry gets of it (see {@link ToolPluginChildPolicy}). */
  readonly child: ToolPluginChildPolicy;
  /** The plugin a child gets when `child` is `readonly` (e.g. memory without writes). */
  readonlyChild?(): ToolPlugin;
  /**
   * Builds the plugin's bundles for one registry. Called once per registry
   * (a child registry calls it again on its own host), in the order of the
   * plugin list; the order of the bundles is the order of the tools.
   */
  create(host: ToolPluginHost): ToolPluginOutput | Promise<ToolPluginOutput>;
}

/** What `create` returns: one bundle, several, or none. */
export type ToolPluginOutput = ToolBundle | readonly ToolBundle[];

/**
 * A typed slot through which plugins of one registry hand each other values
 * (e.g. the skills plugin adds a command policy the shell plugin applies).
 * Values are read at call time, so the plugins' order does not matter.
 */
export interface PluginSlot<T> {
  readonly name: string;
  /** Phantom member carrying the value type; never set. */
  readonly __type?: T;
}

/** Makes a {@link PluginSlot}; two slots with one name are the same slot. */
export function definePluginSlot<T>(name: string): PluginSlot<T> {
  return Object.freeze({ name });
}

/**
 * The registry a plugin's tools run in, narrowed to what tools may use.
 * Usable once the registry is built (a call during `create` throws
 * `SdkError` `invalid_options`); tools normally run later.
 */
export interface RegistryView {
  /** False while the registry is being built (every other member throws then). */
  readonly built: boolean;
  readonly workdir: string;
  readonly runtimeScope: RuntimeScope;
  readonly paths: PathPolicy;
  /** The tools listed to the model now. */
  readonly tools: readonly ToolSchema[];
  readonly planMode: boolean;
  setPlanMode(on: boolean): void;
  hasTool(name: string): boolean;
  approvalDecision(toolName: string, input?: unknown): ApprovalDecision;
  /** The whole registry (subagents run their read-only children on it). */
  registry(): ToolRegistry;
}

/** A subagent worktree's registry: where it runs and which roots it may reach. */
export interface ChildRegistryRequest {
  readonly workdir: string;
  readonly additionalRoots: readonly AdditionalRoot[];
}

/** Everything a plugin's `create` may use. */
export interface ToolPluginHost {
  /** The registry's workspace as given (the registry canonicalises it). */
  readonly workdir: string;
  readonly runtimeScope: RuntimeScope;
  /** Where the SDK keeps its own files (resolved, `~/` expanded). */
  readonly dataDir: string;
  readonly additionalRoots: readonly AdditionalRoot[];
  /** The registry's ports. */
  readonly ports: ToolPorts;
  /** The host's logger, when it gave one. */
  readonly logger?: Logger;
  readonly telemetry?: ToolTelemetryOptions;
  /** The conversation served, when the host named one. */
  readonly conversationId?: string;
  /** Host-owned shared resources (the SQLite storage of `dataDir`), shared with child registries. */
  readonly resources: ResourceHub;
  /** The registry being built, narrowed (see {@link RegistryView}). */
  readonly registry: RegistryView;
  /** Adds a value to a slot of this registry (see {@link PluginSlot}). */
  contribute<T>(slot: PluginSlot<T>, value: T): void;
  /** The values given to a slot so far, live: read them when a call runs. */
  contributions<T>(slot: PluginSlot<T>): readonly T[];
  /** The tools of the plugins created before this one, with their bundle ids. */
  earlierTools(): ReadonlyArray<{ readonly name: string; readonly bundleId: string }>;
  /** A child registry on a subagent's worktree, built from every plugin's `child` policy; once the registry is built (in `create` it throws `SdkError` `invalid_options`). */
  createChildRegistry(request: ChildRegistryRequest): Promise<ToolRegistry>;
  /** Run when the registry closes, after its bundles. */
  onClose(cleanup: () => Promise<void> | void): void;
}
