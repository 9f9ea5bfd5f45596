import type { JsonSchemaObject, ToolDefinition } from "@agent-tools/core";
import { toToolJsonSchema } from "@agent-tools/core/internal";
import { agentInputSchema } from "../domain/agent-schemas.js";
import type { SubagentBatchDetails, SubagentCardDetails } from "../domain/subagent-protocol.js";
import type { AgentPromptTemplate } from "../domain/subagent-types.js";
import { createApplyCheckpointRecorder } from "../runtime/apply-checkpoint-recording.js";
import { runAgentBatch } from "../runtime/subagent-batch.js";
import type { SubagentEnvironment } from "../runtime/subagent-environment.js";

/** The Agent tool's description before the roster and template sections. */
export const AGENT_TOOL_DESCRIPTION = [
  "Start 1-8 subagents that work in parallel on self-contained tasks and report back; give each a stable id to resume it later (resume defaults to true; resume=false starts a fresh context with the same identity).",
  "mode=readonly (default): the child reads and searches the workspace with read-only tools. mode=worktree: the child gets its own git worktree with file and shell tools; on success its changes are applied to the workspace by apply_policy (none: report only; explicit: only paths matching allowed_output_paths; auto: everything).",
  "Write each prompt as a complete brief: the child sees only it, not this conversation. Children cannot start agents; they message each other and the parent with SendMessage.",
  "A call with any invalid entry is rejected whole (nothing starts) with every issue listed: fix them all and retry once.",
].join("\n");

/** What the Agent tool needs besides the runtime. */
export interface AgentToolOptions {
  /** Templates the host offers (only enabled ones with a prompt are used). */
  templates(): readonly AgentPromptTemplate[];
  /** Worktree children refused, an omitted mode is readonly (always so while the parent registry is in plan mode). */
  readonly forceReadonly: boolean;
  /** The roster and template sections appended to the description (kept current by the bundle). */
  descriptionSuffix(): string;
  /** Runs after every call (the bundle refreshes the roster in the description). */
  afterCall?(): Promise<void>;
}

/**
 * The Agent tool. Its arguments are not parsed by a schema first (nor are
 * unknown keys refused by the registry): the call is validated as a whole
 * so a rejection lists every issue. Each agent's
 * progress streams through `onUpdate` as a `subagent_card`; the result's
 * details are the `subagent_batch`.
 */
export function createAgentTool(environment: SubagentEnvironment, options: AgentToolOptions): ToolDefinition {
  const jsonSchema: JsonSchemaObject = toToolJsonSchema(agentInputSchema, "Agent");
  const suffix = options.descriptionSuffix();
  return {
    name: "Agent",
    description: suffix === "" ? AGENT_TOOL_DESCRIPTION : `${AGENT_TOOL_DESCRIPTION}\n\n${suffix}`,
    jsonSchema,
    metadata: { groupId: "subagent", kind: "agent", isReadOnly: false, displayCategory: "other", annotations: { readOnly: false, listedInPlanMode: true } },
    scopes: ["chat"],
    handlesAbort: true,
    // Unknown keys reach validateAgentBatch, which lists them with every other issue, the roster and the templates.
    allowUnknownArguments: true,
    async execute(input, context) {
      const outcome = await runAgentBatch(environment, {
        input,
        parentToolCallId: context.callId,
        signal: context.signal,
        paths: context.paths,
        templates: options.templates(),
        // Plan mode of the parent, read per call (setPlanMode may turn it on at any time): no worktree agents, nothing applied.
        forceReadonly: options.forceReadonly || environment.parentRegistry().planMode,
        applyRecorder: createApplyCheckpointRecorder(context),
        onAgentProgress(index, total, concurrency, agent) {
          const card: SubagentCardDetails = { kind: "subagent_card", parentToolCallId: context.callId, index, total, concurrency, agent };
          context.onUpdate({ data: card });
        },
      });
      await options.afterCall?.();
      return { content: outcome.text, details: outcome.details satisfies SubagentBatchDetails, isError: outcome.isError };
    },
  };
}
