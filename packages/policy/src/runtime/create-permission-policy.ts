/**
 * `createPermissionPolicy`: composes the permission rules and the lifecycle
 * hooks into core's `ToolCallPolicy`, as a factory a registry calls once with
 * its environment (`createToolRegistry({ policy })`).
 *
 * Hooks, in short (details in hooks/hook-settings.ts and docs/policy.md):
 * matching hooks of an event run in parallel and are merged in declaration
 * order; the timeout is 60 s by default (10 min at most), after which a
 * hanging hook is killed; a PreToolUse or PermissionRequest hook that
 * throws, exits with a code other than 0 or 2, answers something that is not
 * a JSON object of the documented shape or times out denies the call, naming
 * the hook; for the other events a failure is logged and ignored; an aborted
 * call aborts its hooks.
 */
import { homedir } from "node:os";
import { SdkError } from "@agent-tools/core";
import type { PolicyCall, PolicyVerdict, ToolCallPolicy, ToolCallPolicyEnvironment, ToolCallPolicyFactory } from "@agent-tools/core/policy";
import { closestName } from "@agent-tools/core/internal";
import { checkHookSettings } from "../hooks/check-hook-settings.js";
import type { HookSettings } from "../hooks/hook-settings.js";
import { checkLateToolNames, compilePermissions } from "../rules/compile-permissions.js";
import { type LayeredPermissionSettings, type PermissionSettings, checkPermissionSettings } from "../rules/permission-settings.js";
import { type ShellParser, loadShellParser } from "../shell/shell-parser.js";
import { checkHookMatchers, checkLateMatcherNames } from "./check-hook-matchers.js";
import { notifyHooks, requestPermission } from "./event-hooks.js";
import { decideBeforeCall } from "./decide-before-call.js";
import { deniesTool } from "./denies-tool.js";
import { type PolicyState, hookFactsOf } from "./policy-state.js";
import { settleAfterCall } from "./settle-after-call.js";

/** Options of {@link createPermissionPolicy}. */
export interface PermissionPolicyOptions {
  /** Rules and mode: Claude Code's `permissions` block, or the layers `{ managed, user, project }`. */
  readonly permissions?: PermissionSettings | LayeredPermissionSettings;
  readonly hooks?: HookSettings;
  /** Given to hooks as `session_id`. */
  readonly sessionId?: string;
}

const OPTION_KEYS = ["permissions", "hooks", "sessionId"];

function checkOptions(options: unknown): PermissionPolicyOptions {
  if (options === null || typeof options !== "object" || Array.isArray(options)) {
    throw new SdkError("invalid_options", "createPermissionPolicy needs an options object { permissions?, hooks?, sessionId? }.");
  }
  for (const key of Object.keys(options)) {
    if (OPTION_KEYS.includes(key)) continue;
    const suggestion = closestName(key, OPTION_KEYS);
    throw new SdkError(
      "invalid_options",
      `createPermissionPolicy: unknown option "${key}"${suggestion === undefined ? "" : ` (did you mean "${suggestion}"?)`}.`,
      {
        option: key,
        ...(suggestion === undefined ? {} : { suggestion }),
      },
    );
  }
  const sessionId = (options as PermissionPolicyOptions).sessionId;
  if (sessionId !== undefined && (typeof sessionId !== "string" || sessionId === "")) {
    throw new SdkError("invalid_options", "createPermissionPolicy: sessionId must be a non-empty string.", { option: "sessionId" });
  }
  return options as PermissionPolicyOptions;
}

/** Keeps the shared shell parser open while any policy built from the factory is. */
interface ParserLease {
  acquire(): ShellParser;
  release(): void;
}

function leaseOf(shell: ShellParser): ParserLease {
  let holders = 0;
  let closed = false;
  return {
    acquire() {
      if (closed) {
        throw new SdkError(
          "closed",
          "Every registry built from this permission policy was closed (and its shell parser with them); call createPermissionPolicy again.",
        );
      }
      holders += 1;
      return shell;
    },
    release() {
      holders -= 1;
      if (holders > 0) return;
      closed = true;
      shell.close();
    },
  };
}

function createPolicy(state: PolicyState, lease: ParserLease, deferredMatchers: ReturnType<typeof checkHookMatchers>): ToolCallPolicy {
  const logger = state.environment.logger;
  const reported = new Set<string>();
  let closed = false;
  return {
    beforeCall: (call, signal) => decideBeforeCall(state, call, { signal, runHooks: true }),
    onPermissionRequest: (call, verdict, signal) => requestPermission(state, { call, verdict }, signal),
    afterCall: (call, result, signal) => settleAfterCall(state, call, result, signal),
    explain: (call: PolicyCall, options?: { runHooks?: boolean; signal?: AbortSignal }): Promise<PolicyVerdict> =>
      decideBeforeCall(state, call, { signal: options?.signal ?? new AbortController().signal, runHooks: options?.runHooks ?? true }),
    notify: (event, payload, signal) => notifyHooks(state, { event, payload }, signal ?? new AbortController().signal),
    deniesTool: (toolName, metadata) => deniesTool(state.compiled, toolName, metadata),
    checkToolNames(names) {
      const warn = (message: string, data: Record<string, unknown>): void => logger.warn(message, data);
      checkLateToolNames(state.compiled, names, warn);
      checkLateMatcherNames(deferredMatchers, names, { reported, warn });
    },
    async close() {
      if (closed) return;
      closed = true;
      await Promise.all([...state.running].map((child) => child.kill()));
      lease.release();
    },
  };
}

/**
 * Loads the shell parser once and returns the factory a registry calls
 * with its environment (`createToolRegistry({ policy })`). The hooks are
 * checked now (`SdkError` for any mistake); the rules are checked and
 * compiled against each registry's tools when it calls the factory
 * (`SdkError`: the registry is not created). The shell parser is shared by
 * every policy the factory builds and freed when the last of them is closed.
 *
 * @example
 * const policy = await createPermissionPolicy({
 *   permissions: { allow: ["Bash(git status)", "Bash(npm test *)"], deny: ["Bash(rm -rf *)", "Read(~/.ssh/**)"] },
 *   hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "./hooks/check-bash.sh" }] }] },
 * });
 * const registry = createToolRegistry({ ...options, policy });
 */
export async function createPermissionPolicy(options: PermissionPolicyOptions): Promise<ToolCallPolicyFactory> {
  const checked = checkOptions(options);
  const hooks = checkHookSettings(checked.hooks);
  const permissions = checkPermissionSettings(checked.permissions);
  const lease = leaseOf(await loadShellParser());
  return (environment: ToolCallPolicyEnvironment): ToolCallPolicy => {
    const shell = lease.acquire();
    try {
      const vocabulary = environment.vocabulary();
      const rootAliases = environment.paths?.roots().map((root) => root.alias);
      const compiled = compilePermissions(permissions, { vocabulary, shell, ...(rootAliases === undefined ? {} : { rootAliases }) });
      const deferredMatchers = checkHookMatchers(hooks, vocabulary);
      const facts = hookFactsOf(hooks);
      if (facts.usesProcesses && environment.processRunner() === undefined) {
        throw new SdkError(
          "invalid_options",
          "hooks: command hooks need a process runner, and this registry has none (give the registry a processRunner port).",
          {
            option: "hooks",
          },
        );
      }
      const state: PolicyState = {
        compiled,
        hooks,
        environment,
        ruleEnvironment: {
          paths: environment.paths,
          workdir: environment.workdir,
          dataDir: environment.dataDir,
          home: homedir(),
          ...(environment.approval === undefined ? {} : { approval: environment.approval }),
          metadataOf: (name) => environment.metadataOf(name),
        },
        ...(checked.sessionId === undefined ? {} : { sessionId: checked.sessionId }),
        running: new Set(),
        ...facts,
      };
      return createPolicy(state, lease, deferredMatchers);
    } catch (error) {
      lease.release();
      throw error;
    }
  };
}
