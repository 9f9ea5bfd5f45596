/**
 * Builds a registry's permission policy from the host's factory (the
 * `policy` option of `createToolRegistry`) and the `registry.policy` view.
 */
import { SdkError, type ToolError } from "../errors.js";
import { deniedError } from "./execute-tool-call.js";
import { policyCallOf, policyRefusal } from "./policy-gate.js";
import type { PathPolicy } from "../paths/path-policy-types.js";
import type { ToolPorts } from "../ports/tool-ports.js";
import type { Logger, ToolBundle, ToolDefinition } from "../types.js";
import type { ApprovalOptions } from "./approval-policy.js";
import { approvalVocabulary } from "./approval-validation.js";
import { type RegistryPolicy, createRegistryPolicyView } from "./registry-policy-view.js";
import type { ToolCallPolicy, ToolCallPolicyFactory } from "./tool-call-policy.js";

/** What the registry hands over to build its policy. */
export interface RegistryPolicySource {
  readonly paths: PathPolicy;
  readonly workdir: string;
  readonly dataDir: string;
  readonly approval: ApprovalOptions | undefined;
  readonly bundles: readonly ToolBundle[];
  readonly knownApprovalKeys: readonly string[] | undefined;
  readonly ports: ToolPorts;
  readonly logger: Logger;
  lookup(name: string): ToolDefinition | undefined;
  refusalOf(tool: ToolDefinition): ToolError | undefined;
}

/**
 * Calls the factory once (it throws `SdkError` for an invalid rule or hook,
 * and the registry is then not created) and starts the SessionStart hooks
 * without waiting for them (their failures are logged).
 */
export function createRegistryPolicy(
  factory: ToolCallPolicyFactory | undefined,
  source: RegistryPolicySource,
): { policy: ToolCallPolicy | undefined; view: RegistryPolicy } {
  if (factory !== undefined && typeof factory !== "function") {
    throw new SdkError("invalid_options", "policy must be a factory function (e.g. from createPermissionPolicy of @agent-tools/policy).", { option: "policy" });
  }
  let policy: ToolCallPolicy | undefined;
  if (factory !== undefined) {
    policy = factory({
      paths: source.paths,
      workdir: source.workdir,
      dataDir: source.dataDir,
      vocabulary: () => approvalVocabulary(source.bundles, source.knownApprovalKeys),
      approval: source.approval,
      metadataOf: (name) => source.lookup(name)?.metadata,
      processRunner: () => {
        try {
          return source.ports.processRunner;
        } catch {
          return undefined;
        }
      },
      logger: source.logger,
    });
    if (policy === null || typeof policy !== "object" || typeof policy.beforeCall !== "function" || typeof policy.explain !== "function") {
      throw new SdkError("invalid_options", "policy's factory must return a ToolCallPolicy ({ beforeCall, explain, ... }).", { option: "policy" });
    }
    const started = policy.notify?.("SessionStart", { workdir: source.workdir });
    started?.catch((error: unknown) => source.logger.warn("a SessionStart hook failed", { error: String(error) }));
  }
  const view = createRegistryPolicyView({ policy, approval: source.approval, lookup: source.lookup, refusalOf: source.refusalOf });
  return { policy, view };
}

/** Runs the SessionEnd hooks, then closes the policy; failures are logged, never thrown. */
export async function closePolicy(policy: ToolCallPolicy, logger: Logger): Promise<void> {
  try {
    await policy.notify?.("SessionEnd", {});
  } catch (error) {
    logger.warn("a SessionEnd hook failed", { error: String(error) });
  }
  try {
    await policy.close?.();
  } catch (error) {
    logger.warn("the permission policy failed to close", { error: String(error) });
  }
}

/**
 * The refusal of a call to a tool the policy denies whatever its input: the
 * policy's own explanation (rule, layer, reason) when it gives a deny, else
 * the generic one.
 */
export async function policyDenial(policy: ToolCallPolicy, tool: ToolDefinition, callId: string): Promise<ToolError> {
  try {
    const verdict = await policy.explain(policyCallOf(tool, callId, {}), { runHooks: false });
    if (verdict.decision === "deny") return policyRefusal(tool, verdict);
  } catch {
    // The generic refusal below.
  }
  return deniedError(tool.name);
}
