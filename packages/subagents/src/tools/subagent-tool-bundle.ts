import { randomUUID } from "node:crypto";
import { type AdditionalRoot, type ModelClient, type ToolBundle, type ToolRegistry, createToolRegistry } from "@agent-tools/core";
import { normalizeTemplates } from "../domain/agent-templates.js";
import { renderRosterForAgentTool } from "../domain/roster-rendering.js";
import type { AgentPromptTemplate } from "../domain/subagent-types.js";
import type { SubagentStore } from "../ports/subagent-store.js";
import type { SubagentWorktrees } from "../ports/subagent-worktrees.js";
import { ParentBusView } from "../runtime/parent-bus-view.js";
import { SubagentConversation } from "../runtime/subagent-conversation.js";
import type { SubagentEnvironment, WorktreeRegistryOptions } from "../runtime/subagent-environment.js";
import { SubagentScheduler, type SubagentSchedulerLimits } from "../runtime/subagent-scheduler.js";
import { createAgentTool } from "./agent-tool.js";
import { createSendMessageTool } from "./send-message-tool.js";

/** Default rounds a child may take before its run fails. */
export const DEFAULT_SUBAGENT_MAX_ROUNDS = 40;

/** Options of {@link createSubagentToolBundle}. */
export interface SubagentToolBundleOptions {
  /** The model children run on (usually the parent's). */
  readonly model: ModelClient;
  /**
   * The parent's registry (the one this bundle goes into): readonly children
   * use its read-only tools. Called lazily, so the registry may be created
   * after the bundle.
   */
  readonly parentRegistry: () => ToolRegistry;
  /** Where identities, runs and messages persist; needed for resume and the bus. */
  readonly store?: SubagentStore;
  /** The parent conversation; empty or absent: nothing persists and SendMessage is not offered. */
  readonly conversationId?: string;
  /** Builds a fresh registry on a worktree (file, shell, read-only memory, MCP tools); absent: mode=worktree is unavailable. */
  readonly createWorktreeRegistry?: (options: WorktreeRegistryOptions) => Promise<ToolRegistry>;
  /** Worktree provisioning (e.g. `new GitSubagentWorktrees(git)`); absent: mode=worktree is unavailable. */
  readonly worktrees?: SubagentWorktrees;
  /** Prompt templates offered to the model (a function to follow the host's settings). */
  readonly templates?: readonly AgentPromptTemplate[] | (() => readonly AgentPromptTemplate[]);
  /** The parent's additional roots; children get every one read-only. */
  readonly additionalRoots?: readonly AdditionalRoot[];
  /**
   * Worktree children always refused, an omitted mode is readonly. The
   * parent registry's plan mode does the same while it is on, without this.
   */
  readonly forceReadonly?: boolean;
  /** No MCP business tools for readonly children either. */
  readonly strictReadOnly?: boolean;
  /** Default {@link DEFAULT_SUBAGENT_MAX_ROUNDS}. */
  readonly maxRounds?: number;
  /** Runs and Bash executions at once (default 8 and 4). */
  readonly limits?: SubagentSchedulerLimits;
  /** Names worktrees, e.g. the host's session id; default `session`. */
  readonly sessionLabel?: string;
  /** Clock (tests). */
  readonly now?: () => number;
}

/** The subagent tools' bundle, with the runtime a host can inspect. */
export interface SubagentToolBundle extends ToolBundle {
  readonly environment: SubagentEnvironment;
  /** Re-reads the roster and latest runs into the Agent tool's description (done after every Agent call). */
  refreshDescription(): Promise<void>;
  /** The parent's side of the message bus, for the host's loop (snapshot per epoch, deltas after tool results). */
  readonly parentBus: ParentBusView;
}

/**
 * The Agent tool (and, with a conversation id, the parent's SendMessage),
 * with one scheduler and one conversation state per bundle: nothing lives
 * in module globals.
 *
 * @example
 * let registry: ToolRegistry;
 * const subagents = createSubagentToolBundle({ model, parentRegistry: () => registry, store, conversationId: "chat-1" });
 * registry = createToolRegistry({ workdir, bundles: [fsBundle, subagents] });
 */
export function createSubagentToolBundle(options: SubagentToolBundleOptions): SubagentToolBundle {
  const conversationId = options.conversationId ?? "";
  const conversation = new SubagentConversation(conversationId, options.store);
  // At most one template is enabled (later ones are turned off), as a host's settings keep them.
  const templates = (): readonly AgentPromptTemplate[] =>
    normalizeTemplates(typeof options.templates === "function" ? options.templates() : (options.templates ?? []));
  const openChildRegistries = new Set<ToolRegistry>();
  const environment: SubagentEnvironment = {
    model: options.model,
    scheduler: new SubagentScheduler(options.limits),
    conversation,
    parentRegistry: options.parentRegistry,
    ...(options.createWorktreeRegistry === undefined ? {} : { createWorktreeRegistry: options.createWorktreeRegistry }),
    ...(options.worktrees === undefined ? {} : { worktrees: options.worktrees }),
    ownTools(owner) {
      const parent = options.parentRegistry();
      const sendMessage = createSendMessageTool(conversation, { id: owner.agentId, name: owner.name, runId: owner.runId });
      // On the parent's workspace: a non-local one gets the lexical path policy, never this host's disk at the workdir's path.
      const workspace = parent.ports?.workspace;
      const registry: ToolRegistry = createToolRegistry({
        workdir: parent.workdir,
        dataDir: parent.dataDir,
        ...(workspace === undefined ? {} : { ports: { workspace } }),
        bundles: [{ id: "subagent-child", trusted: true, listTools: () => [sendMessage] }],
        loopBreaker: false,
        cleanups: [() => void openChildRegistries.delete(registry)], // the run closes it; the bundle closes what is left
      });
      openChildRegistries.add(registry);
      return registry;
    },
    get parentWorkdir() {
      return options.parentRegistry().workdir;
    },
    additionalRoots: options.additionalRoots ?? [],
    strictReadOnly: options.strictReadOnly === true,
    maxRounds: options.maxRounds ?? DEFAULT_SUBAGENT_MAX_ROUNDS,
    sessionLabel: options.sessionLabel ?? "session",
    now: options.now ?? Date.now,
    randomId: () => randomUUID(),
  };
  let suffix = "";
  const agentTool = () =>
    createAgentTool(environment, {
      templates,
      forceReadonly: options.forceReadonly === true,
      descriptionSuffix: () => suffix,
      afterCall: () => refreshDescription().catch(() => undefined), // the description is a convenience: a store error is not the call's
    });
  let tools = [agentTool(), ...(conversation.persistent ? [createSendMessageTool(conversation, { id: "parent", name: "Parent Agent" })] : [])];
  async function refreshDescription(): Promise<void> {
    suffix = renderRosterForAgentTool({
      roster: await conversation.roster(),
      latestRuns: [...(await conversation.latestRuns()).values()],
      templates: templates(),
    });
    tools = [agentTool(), ...tools.slice(1)];
  }
  return {
    id: "subagents",
    trusted: true,
    environment,
    refreshDescription,
    parentBus: new ParentBusView(conversation),
    listTools: () => tools,
    async close() {
      await Promise.all([...openChildRegistries].map((registry) => registry.close().catch(() => undefined)));
    },
  };
}
