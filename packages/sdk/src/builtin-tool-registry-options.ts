/** The options of `buildBuiltinToolRegistry`, apart from the builder (the plugin list reads them too). */
import type { CallLedger } from "@agent-tools/core/durable";
import type {
  AdditionalRoot,
  ApprovalOptions,
  Logger,
  ResourceHub,
  RuntimeScope,
  ToolBundle,
  ToolConcurrencyOptions,
  ToolDefinition,
  ToolEvent,
  ToolPorts,
  ToolTelemetryOptions,
} from "@agent-tools/core";
import type { McpHostOptions } from "@agent-tools/core/mcp";
import type { Workspace } from "@agent-tools/core/workspace";
import type { MemoryToolBundleOptions } from "@agent-tools/memory";
import type { FsToolBundleOptions } from "@agent-tools/tools-fs";
import type { ShellToolBundleOptions } from "@agent-tools/tools-shell";
import type { TaskToolBundleOptions } from "@agent-tools/tools-tasks";
import type { WebFetchOptions } from "@agent-tools/tools-web";
import type { LspPluginOptions } from "@agent-tools/lsp";
import type { SdkCheckpointOptions } from "./checkpoint-wiring.js";
import type { SdkCronOptions } from "./cron-wiring.js";
import type { EditSurface, EditSurfaceRule } from "./edit-surface.js";
import type { SdkInteractionOptions } from "./interaction-tools/index.js";
import type { SdkPolicyOptions } from "./policy-wiring.js";
import type { SdkSandboxOptions } from "./sandbox-wiring.js";
import type { SdkSkillOptions } from "./skill-wiring.js";
import type { SdkSshOptions } from "./ssh-options.js";
import type { SdkSubagentOptions } from "./subagent-wiring.js";
import type { SystemToolId } from "./system-tools/system-tools.js";

/** Options of `buildBuiltinToolRegistry`. */
export interface BuiltinToolRegistryOptions {
  /**
   * Absolute project directory. With `workspace`: a directory of the
   * workspace, inside its root (default: `workspace.root`).
   */
  workdir?: string;
  /**
   * Where the tools work: the file tools read and write through its file
   * system, the shell tools run through its processes. Default: none, the
   * local disk as before. Checked at build: the workdir and each granted
   * root must resolve through the workspace to an existing directory inside
   * its root (`SdkError` naming the option). On a workspace that is not the
   * local disk (`capabilities.localPaths` false, e.g. SSH or memory):
   * `sandbox` and `skills` are refused (they would read or
   * run on this host), and so is `mcp` unless
   * `mcp.roots` is set (MCP servers run on this host), `skill://` paths and the uploads
   * folder are refused (they live on the host), and a workspace without
   * processes refuses Bash and ManagedProcess. File checkpoints record the
   * workspace's files through it into the host's store (rewind with
   * `openFileCheckpoints(...).rewindCheckpoint(id, { workspace })`); a
   * host's own `ports.fileCheckpoints` is refused. Cron tasks record the
   * workspace's label; `startBuiltinCronScheduler({ workspaces })` runs
   * their bash scripts through it. Managed-process logs stay in
   * `<dataDir>/process-logs` on the host. `close()` does not close the
   * workspace: the host owns it and closes it after the registry.
   */
  workspace?: Workspace;
  /** `chat` (default) or `cron`. */
  runtimeScope?: RuntimeScope;
  /** Where the SDK keeps skills, memory, logs and its SQLite file; default `~/.agent-tools`; `~/` expands (`resolveDataDir`). */
  dataDir?: string;
  /** Extra directories for the file tools, as `root://alias/...`. */
  additionalRoots?: readonly AdditionalRoot[];
  /** Ports; every one left out gets its Node default (`createNodePorts`). */
  ports?: Partial<ToolPorts>;
  /**
   * allow / ask / deny rules. Each key must be a tool name this registry
   * has or any built-in tool's name (exact case), `server:<id>` of a
   * configured MCP server, or `group:<id>`; each value exactly `allow`, `ask`
   * or `deny`. Anything else throws `SdkError` naming the key and the closest
   * name, so a misspelt rule never silently fails to apply.
   */
  approval?: ApprovalOptions;
  /**
   * Permission rules with specifiers (`Bash(npm run test:*)`, `Edit(src/**)`,
   * `Read(~/.ssh/**)`, `mcp_github_*`), modes and layers, checked deny ->
   * ask -> allow before `approval` (which stays the fallback). Claude Code's
   * settings `permissions` block is accepted as it is. See docs/policy.md.
   */
  permissions?: SdkPolicyOptions["permissions"];
  /** Lifecycle hooks: PreToolUse, PermissionRequest, PostToolUse, PostToolUseFailure, SubagentStart/Stop, SessionStart/End. See docs/policy.md. */
  hooks?: SdkPolicyOptions["hooks"];
  /**
   * The call ledger of durable runs, e.g. `await KyselyCallLedger.open(storage)`
   * of `@agent-tools/durable`: calls made with
   * `executeToolCall(call, { durable: { runId } })` are recorded before and
   * after they run, so a crashed run resumes without repeating unsafe
   * effects. The registry does not close it. See docs/durable.md.
   */
  ledger?: CallLedger;
  /** Every event of every call. */
  onEvent?(event: ToolEvent): void;
  logger?: Logger;
  /**
   * OpenTelemetry for every call: one `execute_tool <name>` span per call,
   * MCP `tools/call` spans as its children; a call's own `telemetry` option
   * wins. Omitted: the global tracer of `@opentelemetry/api` when installed.
   */
  telemetry?: ToolTelemetryOptions;
  /** Default cap of a result's text in characters. */
  maxOutputChars?: number;
  /** File-tool options. */
  fs?: FsToolBundleOptions;
  /**
   * Which edit tool the file tools list: `apply_patch` (ApplyPatch, not
   * Edit), `edit` (Edit, not ApplyPatch), `both`, or `auto` (default): by
   * `modelId`, from `editSurfaceByModel` and then the documented table
   * `DEFAULT_EDIT_SURFACE_BY_MODEL` (GPT-5 and Codex models get
   * `apply_patch`; any other model, or none, `edit`). The tool left out is
   * neither listed nor callable; Write is always listed; a worktree
   * subagent gets the same surface. Anything else throws `SdkError` naming
   * the closest value. See docs/tools-fs.md, "Edit surface".
   */
  editSurface?: "auto" | EditSurface;
  /**
   * The id of the model the tools are offered to (e.g. `"gpt-5"`,
   * `"openai:gpt-5-codex"`, `"claude-sonnet-4-5"`), read by
   * `editSurface: "auto"`. Only a name: the model that subagents run on is
   * `subagents.model` (a `ModelClient`; pass its `id` here when it is the
   * same model). Anything but a string throws `SdkError`.
   */
  modelId?: string;
  /**
   * The host's own edit-surface table, checked in order before
   * `DEFAULT_EDIT_SURFACE_BY_MODEL` when `editSurface` is `auto`, e.g.
   * `[{ model: "gpt-5-mini", surface: "edit" }, { model: /^claude-/, surface: "both" }]`.
   * A string matches an id equal to it or continuing with `-`, `.`, `_`,
   * `:` or `@`, with or without a provider prefix; a RegExp is tested on
   * the whole id. An entry with another key or surface throws `SdkError`.
   */
  editSurfaceByModel?: readonly EditSurfaceRule[];
  /** Shell-tool options; `shell.providerId` (`claude_code`, `codex`, `gemini`, `xai`, `deepseek`, ...) picks the synchronous Bash timeout table. */
  shell?: ShellToolBundleOptions;
  /**
   * The conversation served: task lists are kept per workdir and this id
   * (default `subagents.conversationId`; without either, per registry), and
   * subagent runs persist under it unless `subagents.conversationId` is set.
   */
  conversationId?: string;
  /**
   * Task-tool options (chat scope only). Without `store`, lists persist in
   * the SQLite file `<dataDir>/agent-tools.sqlite`, opened on the first task
   * call through the registry's `resources` (shared only with the registries
   * the host gives the same hub). Registries
   * given the same `run: { conversationId }` share one list on purpose;
   * otherwise see `conversationId`. Bad keys or ids throw `SdkError`.
   */
  tasks?: TaskToolBundleOptions;
  /**
   * MemoryManager (long-term memory: Markdown files under `<dataDir>/memory`,
   * indexed for search), in chat and cron; `false` leaves it out. `mode`
   * defaults to `rw` in chat and `ro` in cron: a scheduled run has no user
   * watching, so by default it may consult memory but not change it (pass
   * `mode: "rw"` to let a cron job keep a journal). Without `store`,
   * `storage` or `service`, the index lives in the same SQLite file as the
   * tasks (`<dataDir>/agent-tools.sqlite`, shared, opened on the first call).
   */
  memory?: MemoryToolBundleOptions | false;
  /**
   * MCP servers as tools, McpManager and ToolSearch; registered only when
   * `getSettings` (a live getter) is given. Without `applyOps`, and always in
   * the cron scope, MCP settings are read-only. Load failures default to
   * `continue` in chat and `throw` in cron. Servers may list the workspace
   * and the granted roots (`roots/list`; read-only ones named so) unless
   * `mcp.roots` is the host's own getter or `false`.
   */
  mcp?: McpHostOptions;
  /**
   * Selectable system tools by id, e.g. `["HttpGetTest"]`; registered after
   * the built-in bundles. An unknown id throws `SdkError` listing the known ones.
   */
  systemTools?: readonly SystemToolId[];
  /**
   * The host's own tools (`defineTool`), registered after the built-ins and
   * system tools, before MCP. Each is offered in its own `scopes`. A name
   * that equals a built-in's, or differs from one only in case, throws
   * `SdkError` (`duplicate_tool`), in either scope.
   */
  tools?: readonly ToolDefinition[];
  /**
   * The host's own bundles, registered after `tools`, before MCP. A trusted
   * bundle's duplicate of an earlier name throws `SdkError`; an untrusted
   * one's is skipped with a warning.
   */
  bundles?: readonly ToolBundle[];
  /**
   * Agent and SendMessage (chat scope only): children run on `model`,
   * read-only in this workspace or in their own git worktree (a registry
   * built like this one on the worktree, memory read-only, no subagents),
   * persisted under `conversationId` in the shared SQLite file unless a
   * store is given. Off when absent. On a non-local `workspace` the
   * worktree is made, read and applied by the workspace's own git and file
   * system, inside its root (`WorkspaceSubagentWorktrees`); the store stays
   * on this host.
   */
  subagents?: SdkSubagentOptions;
  /**
   * Skills (chat and cron): SkillsManager, `skill://<name>/...` paths for the
   * file tools and the skill guard in Bash, rooted at `<dataDir>/skills`
   * unless `rootDir` is given, under the host's access `policy`. Off when
   * absent; worktree subagents run without skills.
   */
  skills?: SdkSkillOptions;
  /**
   * CronTaskManager (chat and cron): scheduled bash, http and prompt tasks in
   * the host's store, its storage, or the shared SQLite file. Off when
   * absent. Firing them is the job of a scheduler the host starts
   * (`startBuiltinCronScheduler`); worktree subagents never get it.
   */
  cron?: SdkCronOptions;
  /**
   * Plan mode and the host's dialogs. `planMode: true` starts in plan mode:
   * `tools` lists, and calls run, only read-only tools plus AskUserQuestion,
   * ExitPlanMode, Agent (read-only agents only: a worktree agent is refused)
   * and SendMessage; any other call is refused. Toggle with
   * `registry.setPlanMode`; ExitPlanMode leaves it when the user approves.
   * `onAskUserQuestion` lists AskUserQuestion (chat scope), `onExitPlanMode`
   * lists ExitPlanMode while in plan mode; without a callback its tool is not
   * listed and a call is refused.
   */
  interaction?: SdkInteractionOptions;
  /**
   * Parallel calls per tool name; calls past a limit wait in FIFO order.
   * Default `BUILTIN_TOOL_CONCURRENCY` (Agent 8, Bash 4, others 2);
   * `false` runs every call at once.
   */
  concurrency?: ToolConcurrencyOptions | false;
  /**
   * Confine Bash, Bash sessions and ManagedProcess commands with bubblewrap
   * (Linux): read-only file system except the workspace, roots granted with
   * write access, `writableRoots` and a private `/tmp`; secrets directories
   * hidden; no network unless `allowNetwork`. Probed once here. Fail closed:
   * when it cannot start, the registry still builds but every command is
   * refused with `unavailable` (never run unconfined), and MCP stdio servers
   * are not started. A host's own `ports.sandbox` wins.
   */
  sandbox?: SdkSandboxOptions;
  /**
   * Shared resources (the SQLite file of `dataDir`): give several registries
   * one hub (`createResourceHub()`) to let them share one connection per
   * file; the host closes it after them. Without it the registry opens its
   * own (shared with its worktree children) and closes it on `close()`.
   */
  resources?: ResourceHub;
  /**
   * File checkpoints (chat scope). With `id` (e.g. `"<conversation>:<turn>"`)
   * every call records what Write, Edit and Delete change into that
   * checkpoint; a call's own `checkpointId` wins. Rewind with
   * `openFileCheckpoints().rewindCheckpoint(id)`. Records live in `store`,
   * `storage`, or by default the SQLite file `<dataDir>/agent-tools.sqlite`.
   * Ignored in the cron scope.
   */
  checkpoints?: SdkCheckpointOptions;
  /**
   * SSHManager (chat scope only): interactive shells, single commands and
   * SFTP file actions on these remote hosts. Needs the optional package
   * `@agent-tools/ssh` (missing: `SdkError` naming `npm install
   * @agent-tools/ssh`). Each host pins its host key and gives exactly one
   * credential, checked fail-closed when the registry is built; credentials
   * are never shown to the model. Connections open on first use and close
   * with the registry. Off when absent; never in a worktree subagent.
   */
  ssh?: SdkSshOptions;
  /**
   * WebFetch (chat and cron; a worktree subagent gets it too): one public
   * URL as text, through an SSRF guard that refuses local, private and
   * metadata addresses unless `allowHosts` / `allowAddresses` name them.
   * `true` for the defaults. Off when absent: network egress from the host
   * is the host's choice. PDFs are read with the Read tool's PDF reader
   * (the optional pdfjs-dist) unless `pdfText` is given.
   */
  webFetch?: true | WebFetchOptions;
  /**
   * The LSP tool (definitions, references, hover, symbols, diagnostics of
   * TypeScript/JavaScript and Python through real language servers) and
   * diagnostics after edits: Write, Edit, ApplyPatch and Delete append the
   * errors their change introduced (`lsp: { diagnosticsAfterEdits: false }`
   * turns that off). `true` for the defaults. Off when absent or false: a
   * language server reads configuration the model can write in the
   * workspace (tsconfig.json, pyrightconfig.json), so it is opt-in like the
   * sandbox. Servers run on the workspace (over SSH, the remote machine's),
   * confined by the sandbox when it is on, and stop with the registry.
   */
  lsp?: boolean | LspPluginOptions;
}
