/**
 * `@agent-tools/core/policy`: the contract between a registry's executor and
 * a permission policy (rules with specifiers, modes, lifecycle hooks), and
 * the `registry.policy` view (the simulator). `@agent-tools/policy`
 * implements it (`createPermissionPolicy`); a host may bring its own.
 *
 * @packageDocumentation
 */
export type {
  HookAnswer,
  PolicyAfterCall,
  PolicyCall,
  PolicyDecision,
  PolicyVerdict,
  ToolCallPolicy,
  ToolCallPolicyEnvironment,
  ToolCallPolicyFactory,
} from "../registry/tool-call-policy.js";
export type { PolicyExplainCall, PolicyExplanation, RegistryPolicy } from "../registry/registry-policy-view.js";
