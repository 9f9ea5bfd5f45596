/**
 * Builds a registry from plugins: one host object per registry, every
 * plugin created in list order, then the registry over their bundles. A
 * subagent's child registry is composed the same way from each plugin's
 * `child` policy and an explicit list of the parent's registry options.
 */
import { SdkError } from "../errors.js";
import type { SkillPathOptions } from "../paths/path-policy.js";
import { resolveDataDir } from "../paths/resolve-data-dir.js";
import type { ToolPorts } from "../ports/tool-ports.js";
import { snapshotApprovalOptions } from "../registry/approval-validation.js";
import type { ApprovalOptions } from "../registry/approval-policy.js";
import { createToolRegistry } from "../registry/create-tool-registry.js";
import type { ToolRegistry, ToolRegistryOptions } from "../registry/tool-registry.js";
import type { ToolBundle } from "../types.js";
import { checkToolPlugins, childPluginsOf } from "./plugin-checks.js";
import { createPluginContributions } from "./plugin-contributions.js";
import { type ResourceHub, createResourceHub } from "./resource-hub.js";
import { createRegistryView } from "./registry-view.js";
import { type PluginSlot, type ToolPlugin, type ToolPluginHost, definePluginSlot } from "./tool-plugin.js";

/** The slot through which a plugin gives the registry its `skill://` path rules (the first value wins). */
export const SKILL_PATHS_SLOT: PluginSlot<SkillPathOptions> = definePluginSlot<SkillPathOptions>("core.skillPaths");

/** What the ports factory of {@link ComposeToolRegistryOptions} is told. */
export interface PortsRequest {
  readonly workdir: string;
  readonly runtimeScope: "chat" | "cron";
  readonly dataDir: string;
  readonly resources: ResourceHub;
  /** The slots of the registry being built, live (e.g. sandbox mounts added by plugins). */
  contributions<T>(slot: PluginSlot<T>): readonly T[];
}

/** Ports a factory made for one registry; `close` runs when that registry closes. */
export type ComposedPorts = Partial<ToolPorts> & { close?(): Promise<void> };

/** Options of {@link composeToolRegistry}. */
export interface ComposeToolRegistryOptions extends Omit<ToolRegistryOptions, "bundles" | "ports" | "skills" | "cleanups" | "dataDir"> {
  /** The plugins, in order: their bundles and tools are listed in this order. */
  readonly plugins: readonly ToolPlugin[];
  /** Where the SDK keeps its own files; default `~/.agent-tools`. */
  readonly dataDir?: string;
  /**
   * Makes the ports of one registry (this one, and each child registry a
   * subagent asks for); their `close` runs with that registry's close.
   * Default: no ports (tools that need one say which is missing).
   */
  readonly ports?: (request: PortsRequest) => ComposedPorts | Promise<ComposedPorts>;
  /** Shared resources; absent: the registry makes its own and closes it on close. A given hub is the host's to close. */
  readonly resources?: ResourceHub;
  /** The conversation served, handed to plugins. */
  readonly conversationId?: string;
  /** Run when the registry closes, after its bundles and before its ports. */
  readonly cleanups?: ReadonlyArray<() => Promise<void> | void>;
}

/**
 * Builds a registry from plugins (the composition root `@agent-tools/sdk`
 * uses; hosts may call it with their own list).
 *
 * @example
 * const registry = await composeToolRegistry({ workdir: "/repo", plugins: [greeter] });
 * await registry.executeToolCall({ id: "1", name: "Greet", arguments: { who: "you" } });
 * await registry.close();
 */
export async function composeToolRegistry(options: ComposeToolRegistryOptions): Promise<ToolRegistry> {
  checkToolPlugins(options.plugins);
  const runtimeScope = options.runtimeScope ?? "chat";
  const dataDir = resolveDataDir(options.dataDir);
  // Read once (own properties, each getter once): this registry and every child get the same rules.
  const approval = snapshotApprovalOptions(options.approval) as ApprovalOptions | undefined;
  const ownsResources = options.resources === undefined;
  const resources = options.resources ?? createResourceHub();
  const contributions = createPluginContributions();
  const view = createRegistryView();
  const bundles: ToolBundle[] = [];
  const cleanups: Array<() => Promise<void> | void> = [...(options.cleanups ?? [])];
  let ports: ComposedPorts = {};
  try {
    ports = (await options.ports?.({ workdir: options.workdir, runtimeScope, dataDir, resources, contributions: contributions.read })) ?? {};
    const host: ToolPluginHost = {
      workdir: options.workdir,
      runtimeScope,
      dataDir,
      additionalRoots: options.additionalRoots ?? [],
      ports: ports as ToolPorts,
      ...(options.logger === undefined ? {} : { logger: options.logger }),
      ...(options.telemetry === undefined ? {} : { telemetry: options.telemetry }),
      ...(options.conversationId === undefined ? {} : { conversationId: options.conversationId }),
      resources,
      registry: view.view,
      contribute: contributions.add,
      contributions: contributions.read,
      earlierTools: () => bundles.flatMap((bundle) => bundle.listTools().map((tool) => ({ name: tool.name, bundleId: bundle.id }))),
      createChildRegistry: async (request) => {
        // A plugin that is inherited and builds a child in create would build children of children without end.
        if (!view.view.built) {
          throw new SdkError(
            "invalid_options",
            "createChildRegistry is usable once the registry is built; call it when a tool runs, not in a plugin's create.",
          );
        }
        return composeToolRegistry({
          // The allow-list of what a child shares with its parent; nothing else reaches it.
          plugins: childPluginsOf(options.plugins),
          workdir: request.workdir,
          additionalRoots: request.additionalRoots,
          runtimeScope,
          dataDir,
          resources,
          ...(options.ports === undefined ? {} : { ports: options.ports }),
          ...(options.conversationId === undefined ? {} : { conversationId: options.conversationId }),
          ...(approval === undefined ? {} : { approval }),
          // A child runs under the same permission rules and hooks (its own policy, built for its tools and workdir).
          ...(options.policy === undefined ? {} : { policy: options.policy }),
          knownApprovalKeys: [...(options.knownApprovalKeys ?? []), ...Object.keys(approval?.policies ?? {})],
          ...(options.onEvent === undefined ? {} : { onEvent: options.onEvent }),
          ...(options.logger === undefined ? {} : { logger: options.logger }),
          ...(options.telemetry === undefined ? {} : { telemetry: options.telemetry }),
          ...(options.maxOutputChars === undefined ? {} : { maxOutputChars: options.maxOutputChars }),
          ...(options.loopBreaker === undefined ? {} : { loopBreaker: options.loopBreaker }),
          ...(options.concurrency === undefined ? {} : { concurrency: options.concurrency }),
        });
      },
      onClose: (cleanup) => {
        cleanups.push(cleanup);
      },
    };
    for (const plugin of options.plugins) {
      if (!plugin.scopes.includes(runtimeScope)) continue;
      const output = await plugin.create(host);
      // The bundles given are kept (and closed on failure) even when something else in the output is not one.
      const list: readonly unknown[] = Array.isArray(output) ? output : [output];
      bundles.push(...list.filter(isToolBundle));
      if (!list.every(isToolBundle)) {
        throw new SdkError("invalid_options", `Plugin ${plugin.id} created something that is not a tool bundle (id, trusted, listTools()).`, {
          plugin: plugin.id,
        });
      }
    }
    const { plugins: _plugins, ports: _ports, resources: _resources, conversationId: _conversation, cleanups: _cleanups, ...registryOptions } = options;
    const skills = contributions.read(SKILL_PATHS_SLOT)[0];
    const registry = createToolRegistry({
      ...registryOptions,
      ...(approval === undefined ? {} : { approval }),
      runtimeScope,
      dataDir,
      bundles,
      ports,
      ...(skills === undefined ? {} : { skills }),
      cleanups: [...cleanups.map((cleanup) => async () => cleanup()), async () => ports.close?.(), ...(ownsResources ? [() => resources.close()] : [])],
    });
    view.attach(registry);
    return registry;
  } catch (error) {
    // Nothing may leak when the options are invalid: close what was opened.
    await Promise.allSettled([...bundles.map((bundle) => bundle.close?.()), ...cleanups.map(async (cleanup) => cleanup())]);
    await Promise.allSettled([ports.close?.()]);
    if (ownsResources) await Promise.allSettled([resources.close()]);
    throw error;
  }
}

function isToolBundle(value: unknown): value is ToolBundle {
  return value !== null && typeof value === "object" && typeof (value as ToolBundle).listTools === "function";
}
