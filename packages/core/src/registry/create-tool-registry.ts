import { checkDurableOption, checkLedgerOption } from "./durable-options.js";
import path from "node:path";
import { SdkError, ToolError } from "../errors.js";
import { createLexicalPathPolicy } from "../paths/lexical-path-policy.js";
import { type PathPolicy, createPathPolicy } from "../paths/path-policy.js";
import { resolveDataDir } from "../paths/resolve-data-dir.js";
import type { GitClient } from "../ports/git-client.js";
import type { ProcessRunner } from "../ports/process-runner.js";
import type { ToolPorts } from "../ports/tool-ports.js";
import { shortenForMessage } from "../quote.js";
import { isWithinWorkspacePath } from "../workspace/resolve-in-workspace.js";
import type { Logger, ToolCall, ToolDefinition, ToolMetadata, ToolResult, ToolUpdate } from "../types.js";
import { callMetadata, resolveApproval } from "./approval-policy.js";
import { approvalVocabulary, checkApprovalOptions, watchDeferredApprovalKeys } from "./approval-validation.js";
import type { ToolEvent } from "./events.js";
import { checkExecuteOptions } from "./execute-options.js";
import { type ExecuteToolCallOptions, deniedError, errorResult, executeResolvedToolCall } from "./execute-tool-call.js";
import { toolErrorOf } from "./result-error.js";
import { LoopBreaker } from "./loop-breaker.js";
import { DEFAULT_MAX_OUTPUT_CHARS } from "./output-cap.js";
import { isListedInPlanMode, planModeRefusal } from "./plan-mode.js";
import { createToolCallScheduler } from "./tool-call-scheduler.js";
import { createToolIndex } from "./tool-index.js";
import type { ToolRegistry, ToolRegistryOptions } from "./tool-registry.js";
import { closePolicy, createRegistryPolicy, policyDenial } from "./create-registry-policy.js";

export type { ToolRegistry, ToolRegistryOptions } from "./tool-registry.js";

/**
 * What a tool meets when the host gave no adapter for a port it uses: a
 * ToolError, so the model and the host both read which port is missing.
 */
function missingPort(port: string, key: string): never {
  throw new ToolError(
    "unsupported_target",
    `No ${port} was given to this registry; pass ports.${key} to createToolRegistry, or build the registry with @agent-tools/sdk (createNodePorts() gives the Node defaults).`,
    {
      details: { missingPort: key },
      recoverable: false,
    },
  );
}

/** A refusal answered before the executor runs (denied, plan mode): its code and details, and its `error`. */
function refusalResult(refusal: ToolError): ToolResult {
  return { ...errorResult(refusal.message, { code: refusal.code, ...refusal.details }), error: toolErrorOf(refusal) };
}

/**
 * The path policy of the registry: on the local disk (no workspace, or one
 * with `capabilities.localPaths`) `createPathPolicy`; on any other workspace
 * the lexical policy, which never touches the local disk but for the host's
 * own skills folder (`skill://`), whose paths it resolves there (the tools check
 * each path through the workspace; `buildBuiltinToolRegistry` checks the
 * workdir and roots through it before building).
 */
function choosePathPolicy(options: ToolRegistryOptions, uploadsDir: string): PathPolicy {
  const workspace = options.ports?.workspace;
  if (workspace === undefined || workspace === null || workspace.capabilities?.localPaths === true) {
    return createPathPolicy({ workdir: options.workdir, additionalRoots: options.additionalRoots, skills: options.skills, uploadsDir });
  }
  if (typeof workspace !== "object" || typeof workspace.fs !== "object" || workspace.fs === null || typeof workspace.capabilities !== "object") {
    throw new SdkError(
      "invalid_options",
      "ports.workspace must be a Workspace ({ kind, label, root, fs, capabilities, close }), e.g. createLocalWorkspace(...).",
    );
  }
  if (typeof options.workdir === "string" && options.workdir.startsWith("/") && !isWithinWorkspacePath(workspace.root, path.posix.resolve(options.workdir))) {
    throw new SdkError(
      "invalid_options",
      `workdir ${shortenForMessage(options.workdir)} is outside the workspace root ${workspace.root} (${workspace.label}).`,
      {
        option: "workdir",
      },
    );
  }
  return createLexicalPathPolicy({
    workdir: options.workdir,
    additionalRoots: options.additionalRoots,
    workspaceLabel: workspace.label,
    uploadsDir,
    ...(options.skills === undefined ? {} : { skills: options.skills }),
  });
}

const consoleLogger: Logger = {
  debug: () => undefined,
  info: () => undefined,
  warn: (message, data) => console.warn(`[agent-tools] ${message}`, data ?? ""),
  error: (message, data) => console.error(`[agent-tools] ${message}`, data ?? ""),
};

/**
 * Creates a registry from bundles.
 *
 * @example
 * const registry = createToolRegistry({ workdir: "/repo", bundles: [createTaskToolBundle({ store })] });
 * const result = await registry.executeToolCall({ id: "1", name: "TaskList", arguments: {} });
 */
export function createToolRegistry(options: ToolRegistryOptions): ToolRegistry {
  const registryTelemetry = options.telemetry;
  const runtimeScope = options.runtimeScope ?? "chat";
  if (runtimeScope !== "chat" && runtimeScope !== "cron") {
    throw new SdkError("invalid_options", `runtimeScope must be "chat" or "cron", not ${JSON.stringify(runtimeScope)}.`);
  }
  if (!Array.isArray(options.bundles)) throw new SdkError("invalid_options", "bundles must be an array of tool bundles.");
  if (
    options.knownApprovalKeys !== undefined &&
    !(Array.isArray(options.knownApprovalKeys) && options.knownApprovalKeys.every((key) => typeof key === "string"))
  ) {
    throw new SdkError("invalid_options", "knownApprovalKeys must be an array of strings.");
  }
  // Checked against what the bundles list before anything runs; the registry reads only this copy.
  const checkedApproval = checkApprovalOptions(options.approval, () => approvalVocabulary(options.bundles, options.knownApprovalKeys));
  const approval = checkedApproval.approval;
  const dataDir = resolveDataDir(options.dataDir);
  // <dataDir>/uploads: the user's uploads, a read-only scope reached by absolute path.
  const uploadsDir = path.join(dataDir, "uploads");
  const paths = choosePathPolicy(options, uploadsDir);
  const logger = options.logger ?? consoleLogger;
  if (options.cleanups !== undefined && !Array.isArray(options.cleanups)) throw new SdkError("invalid_options", "cleanups must be an array of functions.");
  const cleanups = [...(options.cleanups ?? [])];
  // Read on use, not here: a host's ports object may create its adapters lazily.
  const given = options.ports;
  const ports: ToolPorts = {
    get processRunner(): ProcessRunner {
      return given?.processRunner ?? missingPort("ProcessRunner", "processRunner");
    },
    get gitClient(): GitClient {
      return given?.gitClient ?? missingPort("GitClient", "gitClient");
    },
    get modelClient() {
      return given?.modelClient;
    },
    get fileCheckpoints() {
      return given?.fileCheckpoints;
    },
    get sandbox() {
      return given?.sandbox;
    },
    get workspace() {
      return given?.workspace;
    },
  };
  const index = createToolIndex(options.bundles, runtimeScope, logger);
  const loopBreaker = options.loopBreaker === false ? undefined : new LoopBreaker();
  let closed = false;
  // Each onToolsChanged subscription: its unsubscribe function and its listener (which setPlanMode also fires).
  const toolsChangedSubscriptions = new Map<() => void, () => void>();
  let planMode = options.planMode === true;
  // Per-name run slots (see tool-call-scheduler.ts); none without limits, so such calls never wait on one.
  const scheduler = options.concurrency === undefined || options.concurrency === false ? undefined : createToolCallScheduler(options.concurrency);

  const currentNames = () => index.current().map((entry) => entry.tool.name);
  const { policy, view: policyView } = createRegistryPolicy(options.policy, {
    paths,
    workdir: paths.workdir,
    dataDir,
    approval,
    bundles: options.bundles,
    knownApprovalKeys: options.knownApprovalKeys,
    ports,
    logger,
    lookup: (name) => index.lookup(name),
    refusalOf: (tool) =>
      isDeniedByApproval(tool)
        ? deniedError(tool.name)
        : planMode && !isListedInPlanMode(tool)
          ? planModeRefusal(
              tool.name,
              index.current().map((entry) => entry.tool),
            )
          : undefined,
  });
  // Denied whatever the input: by `approval`, or by the policy (a bare deny rule); left out of `tools` and refused.
  function isDenied(tool: ToolDefinition): boolean {
    return isDeniedByApproval(tool) || policy?.deniesTool?.(tool.name, tool.metadata) === true;
  }
  function isDeniedByApproval(tool: ToolDefinition): boolean {
    return resolveApproval(tool.name, tool.metadata, approval) === "deny";
  }
  const isPlanModeRefused = (tool: ToolDefinition) => planMode && !isListedInPlanMode(tool);
  const checkDeferredApprovalKeys = watchDeferredApprovalKeys(checkedApproval.deferredKeys, (message, data) => logger.warn(message, data));

  const ledger = checkLedgerOption(options.ledger);
  const environment = {
    approval,
    policy,
    ledger,
    ledgerScope: paths.workdir,
    loopBreaker,
    maxOutputChars: options.maxOutputChars ?? DEFAULT_MAX_OUTPUT_CHARS,
    acquireSlot: scheduler?.acquire,
    admit: (tool: ToolDefinition) => {
      if (isPlanModeRefused(tool))
        throw planModeRefusal(
          tool.name,
          index.current().map((entry) => entry.tool),
        );
    },
    emit: (event: ToolEvent) => {
      try {
        options.onEvent?.(event);
      } catch (error) {
        logger.warn("onEvent listener threw", { error: String(error) });
      }
    },
    makeContext: (
      tool: ToolDefinition,
      call: ToolCall,
      signal: AbortSignal,
      onUpdate: (u: ToolUpdate) => void,
      callOptions: Pick<ExecuteToolCallOptions, "hostContext" | "checkpointId">,
    ) => {
      const checkpointId = typeof callOptions.checkpointId === "string" && callOptions.checkpointId !== "" ? callOptions.checkpointId : options.checkpoint?.id;
      // Not frozen here: the executor adds the call's telemetry and freezes the result.
      return {
        callId: call.id,
        toolName: tool.name,
        signal,
        workdir: paths.workdir,
        runtimeScope,
        dataDir,
        paths,
        ports,
        logger,
        onUpdate,
        hostContext: callOptions.hostContext,
        maxOutputChars: tool.maxOutputChars ?? options.maxOutputChars ?? DEFAULT_MAX_OUTPUT_CHARS,
        ...(checkpointId === undefined ? {} : { checkpointId }),
      };
    },
  };

  const registry: ToolRegistry = {
    get tools() {
      return index
        .current()
        .filter((entry) => entry.exposed && !isDenied(entry.tool) && (!planMode || isListedInPlanMode(entry.tool)))
        .map((entry) => ({ name: entry.tool.name, description: entry.tool.description, inputSchema: entry.tool.jsonSchema }));
    },
    get metadataByName() {
      const out: Record<string, ToolMetadata> = {};
      for (const entry of index.current()) out[entry.tool.name] = entry.tool.metadata;
      return out;
    },
    runtimeScope,
    workdir: paths.workdir,
    dataDir,
    paths,
    ports,
    hasTool(name) {
      const tool = index.lookup(name);
      return tool !== undefined && !isDenied(tool) && !isPlanModeRefused(tool);
    },
    resolveToolName(name) {
      return index.lookup(name)?.name;
    },
    getTool(name) {
      return index.lookup(name);
    },
    approvalDecision(toolName, input) {
      const tool = typeof toolName === "string" ? index.lookup(toolName) : undefined;
      if (tool === undefined || isPlanModeRefused(tool) || isDenied(tool)) return "deny";
      if (input === undefined) return resolveApproval(tool.name, tool.metadata, approval);
      // The metadata of this very input (a server it names): a rule that denies that whatever the input denies it here too.
      const metadata = callMetadata(tool, input);
      if (policy?.deniesTool?.(tool.name, metadata) === true) return "deny";
      return resolveApproval(tool.name, metadata, approval);
    },
    async executeToolCall(call, callOptions) {
      if (closed) throw new SdkError("closed", "executeToolCall was called after registry.close().");
      if (call === null || typeof call !== "object" || typeof call.name !== "string") {
        throw new SdkError("invalid_tool_call", "executeToolCall needs { id, name, arguments } with a string name.");
      }
      const options = checkExecuteOptions(callOptions);
      // A durable call is recorded under the provider's id (a long or odd one by its digest): without one it could never be found again.
      if (checkDurableOption(options.durable, ledger) !== undefined && (typeof call.id !== "string" || call.id === "")) {
        throw new SdkError("invalid_tool_call", "A durable call needs the provider's call id (a non-empty string): the ledger records the call under it.");
      }
      const callId = typeof call.id === "string" && call.id !== "" ? call.id : `call_${Date.now().toString(36)}`;
      const normalised: ToolCall = { ...call, id: callId };
      checkDeferredApprovalKeys(currentNames);
      policy?.checkToolNames?.(currentNames());
      const tool = index.lookup(call.name);
      if (!tool) {
        const names = index
          .current()
          .filter((e) => e.exposed && !isDenied(e.tool))
          .map((e) => e.tool.name);
        return errorResult(`Unknown tool: ${shortenForMessage(call.name)}. Available tools: ${names.join(", ")}.`, {}, { code: "unknown_tool" });
      }
      if (isDeniedByApproval(tool)) return refusalResult(deniedError(tool.name));
      // Denied by the policy whatever the input: refused before validation, in the words of the rule that denies it.
      if (policy?.deniesTool?.(tool.name, tool.metadata) === true) return refusalResult(await policyDenial(policy, tool, callId));
      if (isPlanModeRefused(tool))
        return refusalResult(
          planModeRefusal(
            tool.name,
            index.current().map((entry) => entry.tool),
          ),
        );
      const withTelemetry = options.telemetry === undefined && registryTelemetry !== undefined ? { ...options, telemetry: registryTelemetry } : options;
      return executeResolvedToolCall(tool, normalised, withTelemetry, environment);
    },
    policy: policyView,
    get planMode() {
      return planMode;
    },
    setPlanMode(on) {
      if (typeof on !== "boolean") throw new SdkError("invalid_options", `setPlanMode needs true or false, not ${typeof on}.`);
      if (on === planMode) return;
      planMode = on;
      for (const listener of [...toolsChangedSubscriptions.values()]) listener();
    },
    onToolsChanged(listener) {
      if (typeof listener !== "function") throw new SdkError("invalid_options", "onToolsChanged needs a listener function.");
      if (closed) return () => undefined;
      const safeListener = () => {
        try {
          listener();
        } catch (error) {
          logger.warn("an onToolsChanged listener threw", { error: String(error) });
        }
      };
      const unsubscribers = options.bundles.flatMap((bundle) => (bundle.onToolsChanged ? [bundle.onToolsChanged(safeListener)] : []));
      const unsubscribe = () => {
        if (!toolsChangedSubscriptions.delete(unsubscribe)) return;
        for (const stop of unsubscribers) stop();
      };
      toolsChangedSubscriptions.set(unsubscribe, safeListener);
      return unsubscribe;
    },
    async close() {
      if (closed) return;
      closed = true;
      for (const unsubscribe of [...toolsChangedSubscriptions.keys()]) unsubscribe();
      const results = await Promise.allSettled(options.bundles.map((bundle) => bundle.close?.()));
      for (const result of results) if (result.status === "rejected") logger.warn("a bundle failed to close", { error: String(result.reason) });
      // The policy's SessionEnd hooks run while the ports they use are still open.
      if (policy !== undefined) await closePolicy(policy, logger);
      // Host cleanups run after the bundles, which may still use a port or a storage while closing.
      const cleaned = await Promise.allSettled(cleanups.map(async (cleanup) => cleanup()));
      for (const result of cleaned) if (result.status === "rejected") logger.warn("a cleanup failed", { error: String(result.reason) });
    },
  };
  // Validate duplicates eagerly so host misuse surfaces at construction.
  index.current();
  return registry;
}
