/**
 * The registry's public shape: the options of `createToolRegistry` and the
 * `ToolRegistry` it returns (kept apart from the implementation, which
 * re-exports both).
 */
import type { CallLedger } from "./call-ledger.js";
import type { RegistryPolicy } from "./registry-policy-view.js";
import type { ToolCallPolicyFactory } from "./tool-call-policy.js";
import type { AdditionalRoot } from "../paths/additional-roots.js";
import type { PathPolicy, SkillPathOptions } from "../paths/path-policy.js";
import type { ToolPorts } from "../ports/tool-ports.js";
import type { ToolTelemetryOptions } from "../telemetry/tool-call-span.js";
import type { Logger, RuntimeScope, ToolBundle, ToolCall, ToolDefinition, ToolMetadata, ToolResult, ToolSchema } from "../types.js";
import type { ApprovalDecision, ApprovalOptions } from "./approval-policy.js";
import type { ToolEvent } from "./events.js";
import type { ExecuteToolCallOptions } from "./execute-tool-call.js";
import type { ToolConcurrencyOptions } from "./tool-call-scheduler.js";

/** Options of `createToolRegistry`. */
export interface ToolRegistryOptions {
  /** Absolute project directory; must exist. */
  workdir: string;
  /** Default `chat`. */
  runtimeScope?: RuntimeScope;
  /**
   * Where the SDK keeps its files; default `~/.agent-tools`; `~/` expands
   * (see `resolveDataDir`). Its `uploads` folder is the read-only scope
   * `uploads`: the file tools read files a host put there by absolute path,
   * and refuse every write there.
   */
  dataDir?: string;
  /** Extra directories reachable as `root://alias/...` by the file tools. */
  additionalRoots?: readonly AdditionalRoot[];
  /** How `skill://` paths resolve; omitted = refused. */
  skills?: SkillPathOptions;
  /** Tool bundles, in order: earlier bundles win name lookups and listing order. */
  bundles: readonly ToolBundle[];
  /**
   * Ports, supplied by the host: core has no Node adapter. A tool that needs
   * a missing port fails with a message naming it. `createNodePorts()` of
   * `@agent-tools/sdk` gives the Node defaults (execa, the git CLI).
   */
  ports?: Partial<ToolPorts>;
  /**
   * allow / ask / deny rules, checked and copied here: a key that names no
   * tool, server or group of the bundles (exact case), or a value that is not
   * exactly `allow`, `ask` or `deny`, throws `SdkError` with the closest name.
   */
  approval?: ApprovalOptions;
  /**
   * `approval.policies` keys to accept although no bundle lists what they
   * name (e.g. tools of another registry sharing the host's rules); each is
   * taken as it is.
   */
  knownApprovalKeys?: readonly string[];
  /** Default cap of a result's text; default 240 000 characters. */
  maxOutputChars?: number;
  /** Tell the model when it repeats an identical failing call; default true. */
  loopBreaker?: boolean;
  /** Every event of every call. */
  onEvent?(event: ToolEvent): void;
  /** Default: warnings and errors to the console. */
  logger?: Logger;
  /**
   * Run by `close()` after every bundle closed, in parallel; failures are
   * logged. For what the host opened for this registry (ports, a storage).
   */
  cleanups?: ReadonlyArray<() => Promise<void> | void>;
  /**
   * OpenTelemetry for every call of this registry (one `execute_tool` span
   * per call); a call's own `telemetry` option wins. Default: the global
   * tracer of `@opentelemetry/api` when it is installed, else nothing.
   */
  telemetry?: ToolTelemetryOptions;
  /** Every call records file pre-images into this checkpoint (a call's own `checkpointId` wins); see `ports.fileCheckpoints`. */
  checkpoint?: { id: string };
  /**
   * Plan mode: `tools` lists only read-only tools plus AskUserQuestion,
   * ExitPlanMode, Agent and SendMessage, and a call to any other tool is refused (`permission_denied`).
   * Toggle later with `setPlanMode`.
   */
  planMode?: boolean;
  /**
   * Parallel calls per tool name: calls past a name's limit wait in a FIFO
   * queue (an abort while queued cancels the call). `limits` per tool name,
   * `defaultLimit` for the rest; `false` (the default of createToolRegistry)
   * runs every call at once. `@agent-tools/sdk` defaults to Agent 8, Bash 4, others 2.
   */
  concurrency?: ToolConcurrencyOptions | false;
  /**
   * A permission policy (rules with specifiers, modes, lifecycle hooks),
   * e.g. `await createPermissionPolicy({ permissions, hooks })` of
   * `@agent-tools/policy`. Called once here; it throws `SdkError` for an
   * invalid rule or hook. Absent: `approval` alone decides.
   */
  policy?: ToolCallPolicyFactory;
  /**
   * The call ledger of durable runs (`@agent-tools/durable`): calls made
   * with `executeToolCall(call, { durable: { runId } })` are recorded in it
   * before and after they run. The registry does not close it. Absent:
   * `durable` calls throw `SdkError("invalid_options")`.
   */
  ledger?: CallLedger;
}

/** A set of tools the host offers to its model, and the one entry point that runs them. */
export interface ToolRegistry {
  /** Tools to hand to the model: scope-filtered, denied and hidden ones left out. */
  readonly tools: readonly ToolSchema[];
  /** Metadata of every callable tool, by canonical name. */
  readonly metadataByName: Readonly<Record<string, ToolMetadata>>;
  readonly runtimeScope: RuntimeScope;
  /** The canonical workspace directory. */
  readonly workdir: string;
  readonly dataDir: string;
  readonly paths: PathPolicy;
  readonly ports: ToolPorts;
  /** True when `name` resolves (exactly or case-insensitively) to a callable tool: not denied, and listed in plan mode while it is on. */
  hasTool(name: string): boolean;
  /** The canonical name `name` resolves to, if any. */
  resolveToolName(name: string): string | undefined;
  /** The definition behind a name, if any. */
  getTool(name: string): ToolDefinition | undefined;
  /**
   * What the approval policy decides for a tool, by name (resolved as
   * `executeToolCall` resolves it): `allow`, `ask` (the call asks the host's
   * `onAsk`, or a host that asked the user itself passes `approvalGranted`)
   * or `deny`. A name that resolves to no tool, or to one plan mode refuses
   * while it is on, answers `deny`. With `input`, for a tool whose calls act
   * on the server their input names (`callServerId`, the MCP resource
   * tools), the decision for that server: `server:<id>` rules apply.
   *
   * @example
   * const needsApproval = registry.approvalDecision("Bash") === "ask";
   */
  approvalDecision(toolName: string, input?: unknown): ApprovalDecision;
  /**
   * Runs a tool call. Never throws for a tool failure: returns `isError: true`
   * with a message for the model (bad, too deep or too large arguments
   * included). Rejects with `SdkError` only for host misuse: a call without
   * a string name, a closed registry, or options that are not an object,
   * a `signal` that is not an AbortSignal, an `onUpdate` / `onEvent` that is
   * not a function. `null` options mean none.
   */
  executeToolCall(call: ToolCall, options?: ExecuteToolCallOptions | null): Promise<ToolResult>;
  /**
   * Subscribes to changes of `tools` and `metadataByName` that bundles
   * report (every bundle with `onToolsChanged`, e.g. MCP's when a server
   * sends list_changed or ToolSearch shows a lazily loaded tool). The
   * listener runs after the change is visible; one that throws is logged.
   * Returns the unsubscribe function; `close()` unsubscribes every listener.
   *
   * @example
   * const stop = registry.onToolsChanged(() => sendTools(registry.tools));
   */
  onToolsChanged(listener: () => void): () => void;
  /** Whether plan mode is on: `tools` then lists, and calls then run, only read-only tools plus AskUserQuestion, ExitPlanMode, Agent and SendMessage. */
  readonly planMode: boolean;
  /**
   * Turns plan mode on or off (ExitPlanMode turns it off when the user
   * approves the plan). A change fires the `onToolsChanged` listeners;
   * setting the current value again fires nothing.
   *
   * @example
   * registry.setPlanMode(true); // the model now sees, and can run, read-only tools only
   */
  setPlanMode(on: boolean): void;
  /** The permission policy: `explain` a call without running it (the simulator), `notify` lifecycle hooks. */
  readonly policy: RegistryPolicy;
  /** Releases processes, connections and handles of every bundle (and the policy's, after its SessionEnd hooks). */
  close(): Promise<void>;
}
