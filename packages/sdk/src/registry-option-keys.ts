/**
 * The keys `buildBuiltinToolRegistry` accepts, checked before anything is
 * built: the top level and every option object the SDK owns the shape of.
 */
import { type ToolTelemetryOptions, SdkError } from "@agent-tools/core";
import type { McpHostOptions } from "@agent-tools/core/mcp";
import type { MemoryToolBundleOptions } from "@agent-tools/memory";
import { checkMemoryEmbedder } from "@agent-tools/memory/embeddings";
import type { FsToolBundleOptions } from "@agent-tools/tools-fs";
import type { ShellToolBundleOptions } from "@agent-tools/tools-shell";
import type { WebFetchOptions } from "@agent-tools/tools-web";
import type { LspPluginOptions } from "@agent-tools/lsp";
import type { SdkCheckpointOptions } from "./checkpoint-wiring.js";
import type { SdkCronOptions } from "./cron-wiring.js";
import type { SdkInteractionOptions } from "./interaction-tools/index.js";
import { type OptionKeyList, checkOptionObject, describeOptionValue, isOptionObject, rejectUnknownKeys, shapeOf } from "./option-keys.js";
import { checkSdkSandboxOptions } from "./sandbox-wiring.js";
import type { SdkSkillOptions } from "./skill-wiring.js";
import type { SdkSubagentOptions } from "./subagent-wiring.js";
import { checkSdkSshOptions } from "./ssh-options.js";
import { checkTaskOptions } from "./task-wiring.js";

/** The top-level keys of `BuiltinToolRegistryOptions` (kept exact by {@link checkBuiltinToolRegistryOptionKeys}'s signature). */
const REGISTRY_OPTION_KEYS = {
  workdir: true,
  workspace: true,
  runtimeScope: true,
  dataDir: true,
  additionalRoots: true,
  ports: true,
  approval: true,
  permissions: true,
  hooks: true,
  ledger: true,
  onEvent: true,
  logger: true,
  telemetry: true,
  maxOutputChars: true,
  fs: true,
  editSurface: true,
  modelId: true,
  editSurfaceByModel: true,
  shell: true,
  conversationId: true,
  tasks: true,
  memory: true,
  mcp: true,
  systemTools: true,
  tools: true,
  bundles: true,
  subagents: true,
  skills: true,
  cron: true,
  interaction: true,
  concurrency: true,
  sandbox: true,
  checkpoints: true,
  resources: true,
  ssh: true,
  webFetch: true,
  lsp: true,
} as const;

const FS_KEYS = {
  ripgrepPath: true,
  state: true,
  inlineHashLimitBytes: true,
  regexTimeBudgetMs: true,
  progressIntervalMs: true,
} as const satisfies OptionKeyList<FsToolBundleOptions>;

const SHELL_KEYS = {
  providerId: true,
  shell: true,
  env: true,
  commandPolicies: true,
  maxSessions: true,
  sessionRetentionMs: true,
  processLogRetention: true,
  // Checked by the shell bundle itself (its own keys, fail closed).
  durableSessions: true,
} as const satisfies OptionKeyList<ShellToolBundleOptions>;

const PROCESS_LOG_RETENTION_KEYS = { maxEntries: true, maxAgeMs: true } as const satisfies OptionKeyList<
  NonNullable<ShellToolBundleOptions["processLogRetention"]>
>;

const MEMORY_KEYS = {
  mode: true,
  service: true,
  storage: true,
  store: true,
  dataDir: true,
  root: true,
  timeZone: true,
  historySearch: true,
  entriesPerScope: true,
  now: true,
  embedder: true,
} as const satisfies OptionKeyList<MemoryToolBundleOptions>;

const MCP_KEYS = {
  getSettings: true,
  applyOps: true,
  loadFailureMode: true,
  onLoadError: true,
  sandbox: true,
  toolSearch: true,
  clientInfo: true,
  onElicitation: true,
  sampling: true,
  roots: true,
  oauth: true,
  manifestCache: true,
  idleStopMs: true,
  onResourceUpdated: true,
  onUrlElicitation: true,
  onReady: true,
} as const satisfies OptionKeyList<McpHostOptions>;

const MCP_TOOL_SEARCH_KEYS = { tokenBudget: true } as const satisfies OptionKeyList<Exclude<McpHostOptions["toolSearch"], false | undefined>>;
const MCP_CLIENT_INFO_KEYS = { name: true, version: true } as const satisfies OptionKeyList<NonNullable<McpHostOptions["clientInfo"]>>;
const MCP_SAMPLING_KEYS = { model: true, approve: true } as const satisfies OptionKeyList<NonNullable<McpHostOptions["sampling"]>>;
const MCP_OAUTH_KEYS = {
  onAuthorization: true,
  store: true,
  encryptionKey: true,
  redirectUrl: true,
  clientMetadata: true,
  clientMetadataUrl: true,
} as const satisfies OptionKeyList<NonNullable<McpHostOptions["oauth"]>>;

const SUBAGENT_KEYS = {
  model: true,
  conversationId: true,
  store: true,
  templates: true,
  forceReadonly: true,
  strictReadOnly: true,
  maxRounds: true,
  limits: true,
  sessionLabel: true,
  onReady: true,
} as const satisfies OptionKeyList<SdkSubagentOptions>;

const SUBAGENT_LIMIT_KEYS = { runs: true, bash: true } as const satisfies OptionKeyList<NonNullable<SdkSubagentOptions["limits"]>>;

const SKILL_KEYS = {
  rootDir: true,
  policy: true,
  registry: true,
  onManagedSkillsChanged: true,
  onReady: true,
} as const satisfies OptionKeyList<SdkSkillOptions>;

const SKILL_POLICY_KEYS = {
  allowedSkillNames: true,
  allowedSkillBaseDirs: true,
  protectedSkillNames: true,
  protectedSkillBaseDirs: true,
  allowSkillInventory: true,
  allowSkillManagement: true,
  allowSkillMutation: true,
} as const satisfies OptionKeyList<NonNullable<SdkSkillOptions["policy"]>>;

const CRON_KEYS = { store: true, storage: true, currentModelId: true, timeZone: true, http: true } as const satisfies OptionKeyList<SdkCronOptions>;
const INTERACTION_KEYS = { planMode: true, onAskUserQuestion: true, onExitPlanMode: true } as const satisfies OptionKeyList<SdkInteractionOptions>;
const TELEMETRY_KEYS = { tracer: true, recordArguments: true } as const satisfies OptionKeyList<ToolTelemetryOptions>;
const CHECKPOINT_KEYS = { id: true, store: true, storage: true } as const satisfies OptionKeyList<SdkCheckpointOptions>;
const WEB_FETCH_KEYS = {
  allowHosts: true,
  allowAddresses: true,
  resolve: true,
  pdfText: true,
  cache: true,
  timeoutMs: true,
} as const satisfies OptionKeyList<WebFetchOptions>;

const LSP_KEYS = {
  servers: true,
  idleStopMs: true,
  maxOpenDocuments: true,
  diagnosticsAfterEdits: true,
  maxResults: true,
  hiddenPaths: true,
} as const satisfies OptionKeyList<LspPluginOptions>;

/**
 * `true` when `List` names exactly the keys of `Options`; otherwise the keys
 * that differ, so the call passing `true` fails `tsc` and says which.
 */
export type ExactOptionKeys<Options, List> = [Exclude<keyof Options, keyof List>, Exclude<keyof List, keyof Options>] extends [never, never]
  ? true
  : { missingFromList: Exclude<keyof Options, keyof List>; staleInList: Exclude<keyof List, keyof Options> };

/**
 * Checks the keys of `buildBuiltinToolRegistry`'s options fail-closed,
 * before anything is built: the top level, then one level into every option
 * object whose shape the SDK owns (fs, shell, tasks, memory, mcp, subagents,
 * skills, cron, interaction, telemetry, checkpoint, checkpoints, sandbox)
 * and the plain objects inside them (shell.processLogRetention,
 * mcp.toolSearch / clientInfo / sampling / oauth, subagents.limits,
 * skills.policy). Host-owned values (ports, stores, loggers, models,
 * functions, MCP settings, arrays of tools, bundles or roots) are not
 * looked into; `approval`, `concurrency` and `cron.http` are checked by the
 * code that reads them. An unknown or wrongly cased key throws `SdkError`
 * (`invalid_options`) with `details.option` (its path) and, when one is
 * close, `details.suggestion`; keys whose value is `undefined` are fine.
 *
 * `keysMatch` is `true`, typed so that the call fails to compile when the
 * options type and this module's list of top-level keys differ. `where`
 * prefixes the paths in messages (e.g. `registryOptions`); default none.
 *
 * @example
 * checkBuiltinToolRegistryOptionKeys(options, true); // throws for { workdri: "/x" }: Unknown option workdri: did you mean workdir?
 */
export function checkBuiltinToolRegistryOptionKeys<Options extends object>(
  options: Options,
  keysMatch: ExactOptionKeys<Options, typeof REGISTRY_OPTION_KEYS>,
  where = "",
): void {
  void keysMatch;
  const at = (path: string) => (where === "" ? path : `${where}.${path}`);
  if (!isOptionObject(options)) {
    throw new SdkError(
      "invalid_options",
      `${where === "" ? "The options of buildBuiltinToolRegistry" : where} must be an object ({ workdir, ... }), not ${describeOptionValue(options)}.`,
    );
  }
  rejectMovedKeys(options, where);
  rejectUnknownKeys(options, REGISTRY_OPTION_KEYS, where);
  checkOptionObject(options.fs, FS_KEYS, at("fs"));
  const shell = checkOptionObject(options.shell, SHELL_KEYS, at("shell"));
  checkOptionObject(shell?.processLogRetention, PROCESS_LOG_RETENTION_KEYS, at("shell.processLogRetention"));
  checkTaskOptions(options.tasks, at("tasks"));
  if (options.memory !== false) checkMemory(options.memory, at("memory"));
  checkMcp(options.mcp, at("mcp"));
  const subagents = checkOptionObject(options.subagents, SUBAGENT_KEYS, at("subagents"));
  checkOptionObject(subagents?.limits, SUBAGENT_LIMIT_KEYS, at("subagents.limits"));
  const skills = checkOptionObject(options.skills, SKILL_KEYS, at("skills"));
  checkOptionObject(skills?.policy, SKILL_POLICY_KEYS, at("skills.policy"));
  checkOptionObject(options.cron, CRON_KEYS, at("cron"));
  checkOptionObject(options.interaction, INTERACTION_KEYS, at("interaction"));
  checkOptionObject(options.telemetry, TELEMETRY_KEYS, at("telemetry"));
  checkOptionObject(options.checkpoints, CHECKPOINT_KEYS, at("checkpoints"));
  checkSdkSshOptions(options.ssh, at("ssh"));
  // Values (allow-list entries, the cache's limits) are checked by tools-web when the plugin is created.
  if (options.webFetch !== undefined && options.webFetch !== true) {
    if (!isOptionObject(options.webFetch)) {
      throw new SdkError(
        "invalid_options",
        `${at("webFetch")} must be true or an object (${shapeOf(WEB_FETCH_KEYS)}), not ${describeOptionValue(options.webFetch)}.`,
        {
          option: at("webFetch"),
        },
      );
    }
    checkOptionObject(options.webFetch, WEB_FETCH_KEYS, at("webFetch"));
  }
  // Values (numbers, server configs, diagnosticsAfterEdits) are checked by @agent-tools/lsp when the plugin is created.
  if (options.lsp !== undefined && typeof options.lsp !== "boolean") {
    if (!isOptionObject(options.lsp)) {
      throw new SdkError("invalid_options", `${at("lsp")} must be true, false or an object (${shapeOf(LSP_KEYS)}), not ${describeOptionValue(options.lsp)}.`, {
        option: at("lsp"),
      });
    }
    checkOptionObject(options.lsp, LSP_KEYS, at("lsp"));
  }
  // The sandbox's own check (keys, types, paths, environment; its messages name sandbox.<key>).
  if (options.sandbox !== undefined) checkSdkSandboxOptions(options.sandbox as Parameters<typeof checkSdkSandboxOptions>[0]);
}

function checkMemory(memory: unknown, where: string): void {
  if (memory !== undefined && !isOptionObject(memory)) {
    throw new SdkError("invalid_options", `${where} must be false or an object (${shapeOf(MEMORY_KEYS)}), not ${describeOptionValue(memory)}.`, {
      option: where,
    });
  }
  const checked = checkOptionObject(memory, MEMORY_KEYS, where);
  // An embedder that is not an EmbeddingClient (a model name, an object without embed) fails here, before anything opens.
  checkMemoryEmbedder(checked?.embedder, `${where}.embedder`);
  if (checked?.service !== undefined && checked.embedder !== undefined) {
    throw new SdkError(
      "invalid_options",
      `${where}.embedder cannot be given with ${where}.service: pass the embedder to openMemoryService when opening the service.`,
      { option: `${where}.embedder` },
    );
  }
}

function checkMcp(value: unknown, where: string): void {
  const mcp = checkOptionObject(value, MCP_KEYS, where);
  if (mcp === undefined) return;
  if (mcp.toolSearch !== false) checkOptionObject(mcp.toolSearch, MCP_TOOL_SEARCH_KEYS, `${where}.toolSearch`);
  checkOptionObject(mcp.clientInfo, MCP_CLIENT_INFO_KEYS, `${where}.clientInfo`);
  checkOptionObject(mcp.sampling, MCP_SAMPLING_KEYS, `${where}.sampling`);
  checkOptionObject(mcp.oauth, MCP_OAUTH_KEYS, `${where}.oauth`);
  checkMcpManifestCache(mcp.manifestCache, `${where}.manifestCache`);
  checkMcpCallback(mcp.onUrlElicitation, `${where}.onUrlElicitation`);
}

/** A host callback option: a function or absent. */
function checkMcpCallback(value: unknown, where: string): void {
  if (value === undefined || typeof value === "function") return;
  throw new SdkError("invalid_options", `${where} must be a function, not ${describeOptionValue(value)}.`, { option: where });
}

/** `mcp.manifestCache`: false or an McpManifestStore (get, put, delete); anything else fails closed here, before the MCP package loads. */
function checkMcpManifestCache(value: unknown, where: string): void {
  if (value === undefined || value === false) return;
  const missing = isOptionObject(value) ? ["get", "put", "delete"].filter((method) => typeof value[method] !== "function") : undefined;
  if (missing?.length === 0) return;
  const lacking = missing === undefined ? "" : ` (it has no ${missing.join(", ")})`;
  throw new SdkError(
    "invalid_options",
    `${where} must be false or an McpManifestStore (an object with get, put and delete functions, e.g. new InMemoryMcpManifestStore()), not ${describeOptionValue(value)}${lacking}.`,
    { option: where, suggestion: value === true ? "false" : "new InMemoryMcpManifestStore()" },
  );
}

/** Top-level options that moved into their feature's own option object, and where they live now. */
const MOVED_OPTION_KEYS: Readonly<Record<string, string>> = { providerId: "shell.providerId", planMode: "interaction.planMode", checkpoint: "checkpoints.id" };

/** A moved option throws `SdkError` naming its new place (never silently ignored). */
function rejectMovedKeys(options: object, where: string): void {
  for (const [key, now] of Object.entries(MOVED_OPTION_KEYS)) {
    if (!Object.hasOwn(options, key)) continue;
    const option = where === "" ? key : `${where}.${key}`;
    const target = where === "" ? now : `${where}.${now}`;
    throw new SdkError("invalid_options", `Option ${option} moved to ${target}: each feature's options live in its own object.`, {
      option,
      suggestion: target,
    });
  }
}
