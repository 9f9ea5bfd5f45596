/**
 * `registry.policy`: what the registry's permission policy decides for a
 * call without running it (the simulator), and lifecycle notifications.
 */
import { ToolError } from "../errors.js";
import type { ToolDefinition } from "../types.js";
import { type ApprovalOptions, resolveApproval } from "./approval-policy.js";
import { checkArgumentLimits } from "./argument-limits.js";
import { parseArguments, rejectUnknownKeys, validateArguments } from "./arguments.js";
import { policyCallOf } from "./policy-gate.js";
import type { HookAnswer, PolicyVerdict, ToolCallPolicy } from "./tool-call-policy.js";

/** A call to explain: a tool name and its arguments (an object or a JSON string), as the model would send them. */
export interface PolicyExplainCall {
  readonly name: string;
  readonly arguments?: unknown;
  /** Reported to hooks as the call's id; default `explain`. */
  readonly id?: string;
}

/** What `registry.policy.explain` answers: the decision, the rule and layer that made it, and each hook's answer. */
export interface PolicyExplanation extends PolicyVerdict {
  /** The canonical tool name the call resolved to, when it resolved. */
  readonly toolName?: string;
}

/** The permission policy of a registry, as its host sees it. */
export interface RegistryPolicy {
  /** True when the registry has a permission policy (`permissions` or `hooks`); false: `approval` alone decides. */
  readonly installed: boolean;
  /**
   * What would be decided for `call`, without running the tool: `allow`,
   * `ask`, `deny` (or `defer` from a hook), the rule and layer that decided,
   * and each hook's answer. PreToolUse hooks run unless `runHooks` is false
   * (a hook with side effects sees a call that never runs: its input has
   * `tool_use_id` "explain" unless `call.id` is given).
   *
   * @example
   * const { decision, rule } = await registry.policy.explain({ name: "Bash", arguments: { command: "rm -rf build" } });
   */
  explain(call: PolicyExplainCall, options?: { runHooks?: boolean; signal?: AbortSignal }): Promise<PolicyExplanation>;
  /** Runs the hooks of a lifecycle event that is not about one call (e.g. `SubagentStart`); resolves with their answers. */
  notify(event: "SessionStart" | "SessionEnd" | "SubagentStart" | "SubagentStop", payload?: Record<string, unknown>): Promise<readonly HookAnswer[]>;
}

/** What the view needs from its registry. */
export interface RegistryPolicyViewSource {
  readonly policy: ToolCallPolicy | undefined;
  readonly approval: ApprovalOptions | undefined;
  lookup(name: string): ToolDefinition | undefined;
  /** A refusal the registry answers before the policy (plan mode), if any. */
  refusalOf(tool: ToolDefinition): ToolError | undefined;
}

const NO_HOOKS: readonly HookAnswer[] = Object.freeze([]);

/** Builds `registry.policy` over a registry's tools, approval and policy. */
export function createRegistryPolicyView(source: RegistryPolicyViewSource): RegistryPolicy {
  return {
    installed: source.policy !== undefined,
    async explain(call, options) {
      const name = call !== null && typeof call === "object" && typeof call.name === "string" ? call.name : "";
      const tool = source.lookup(name);
      if (tool === undefined) return { decision: "deny", layer: "registry", reason: `No tool named ${JSON.stringify(name.slice(0, 200))}.`, hooks: NO_HOOKS };
      let input: unknown;
      try {
        const args = parseArguments(tool.name, call.arguments ?? {});
        checkArgumentLimits(tool.name, args);
        if (!tool.allowUnknownArguments) rejectUnknownKeys(tool.name, args, tool.jsonSchema);
        input = tool.inputSchema ? validateArguments(tool.name, args, tool.inputSchema) : args;
      } catch (error) {
        const reason = error instanceof ToolError ? error.message : String(error);
        return { decision: "deny", layer: "validation", reason, hooks: NO_HOOKS, toolName: tool.name };
      }
      // The policy first: a tool its rules deny whatever the input is refused by the registry too, and the rule says why.
      const callId = typeof call.id === "string" && call.id !== "" ? call.id : "explain";
      const verdict = await source.policy?.explain(policyCallOf(tool, callId, input), {
        runHooks: options?.runHooks !== false,
        ...(options?.signal === undefined ? {} : { signal: options.signal }),
      });
      if (verdict?.decision === "deny") return { ...verdict, toolName: tool.name };
      if (source.policy?.deniesTool?.(tool.name, tool.metadata) === true) {
        return {
          decision: "deny",
          layer: "policy",
          reason: `${tool.name} is denied by the host's permission policy.`,
          hooks: verdict?.hooks ?? NO_HOOKS,
          toolName: tool.name,
        };
      }
      const refused = source.refusalOf(tool);
      if (refused !== undefined)
        return { decision: "deny", layer: "registry", reason: refused.message, hooks: verdict?.hooks ?? NO_HOOKS, toolName: tool.name };
      if (verdict !== undefined) return { ...verdict, toolName: tool.name };
      return { decision: resolveApproval(tool.name, tool.metadata, source.approval), layer: "approval", hooks: NO_HOOKS, toolName: tool.name };
    },
    async notify(event, payload) {
      if (source.policy?.notify === undefined) return NO_HOOKS;
      return source.policy.notify(event, payload ?? {});
    },
  };
}
