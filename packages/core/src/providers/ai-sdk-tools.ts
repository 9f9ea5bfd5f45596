import type { RegistryPolicy } from "../registry/registry-policy-view.js";
import { SdkError } from "../errors.js";
import type { ApprovalDecision } from "../registry/approval-policy.js";
import type { ExecuteToolCallOptions } from "../registry/execute-tool-call.js";
import type { JsonSchemaObject, ToolCall, ToolResult } from "../types.js";
import { streamToolCallResults } from "./ai-sdk-preliminary.js";
import { type AiSdkMajorVersion, type AiSdkToolResultOutput, toAiSdkToolResultOutput } from "./ai-sdk-tool-output.js";
import { OPENAI_TOOL_NAME_PATTERN, type ProviderToolsOptions, type ToolSchemaSource, selectProviderTools } from "./provider-tool-rules.js";

/** The marker the AI SDK's `asSchema()` looks for (`Symbol.for("vercel.ai.schema")`). */
export const AI_SDK_SCHEMA_SYMBOL: unique symbol = Symbol.for("vercel.ai.schema") as never;

/** The shape the AI SDK's `jsonSchema()` returns, typed structurally. `validate` is absent: the registry validates. */
export interface AiSdkJsonSchema {
  readonly [AI_SDK_SCHEMA_SYMBOL]: true;
  readonly _type: unknown;
  readonly jsonSchema: JsonSchemaObject;
  readonly validate: undefined;
}

/** The options the AI SDK passes to `execute` (subset; AI SDK 7 adds `context`). */
export interface AiSdkToolExecutionOptions {
  toolCallId: string;
  abortSignal?: AbortSignal;
}

/** What `toModelOutput` receives: `{ toolCallId, input, output }` from AI SDK 6 and 7, the output itself from AI SDK 5. */
export type AiSdkModelOutputArgument = { toolCallId: string; input: unknown; output: ToolResult } | ToolResult;

/**
 * A tool object the AI SDK (5, 6 and 7) accepts in `generateText({ tools })`
 * / `streamText({ tools })`. `Execution` is what `execute` returns: a
 * promise of the result, or with `preliminaryResults` an async iterable of
 * snapshots ending with the result.
 */
export interface AiSdkTool<Schema = AiSdkJsonSchema, Execution = Promise<ToolResult>> {
  description: string;
  inputSchema: Schema;
  /** With `approval: "ai-sdk"`: true when the registry's policy says `ask` for this tool (AI SDK 6 and 7 then ask the user). */
  needsApproval?: (input: unknown, options: { toolCallId: string }) => boolean | Promise<boolean>;
  /** Runs the call through `registry.executeToolCall`; never throws for a tool failure. */
  execute(input: unknown, options: AiSdkToolExecutionOptions): Execution;
  /** Turns the registry's final result into what the model sees: its content, as `error-text` when `isError`. */
  toModelOutput(argument: AiSdkModelOutputArgument): AiSdkToolResultOutput;
}

/** What {@link toAiSdkTools} needs of a registry. */
export interface AiSdkToolSource extends ToolSchemaSource {
  executeToolCall(call: ToolCall, options?: ExecuteToolCallOptions): Promise<ToolResult>;
  /** The approval policy's decision for a tool; needed for `approval: "ai-sdk"`. */
  approvalDecision?(toolName: string): ApprovalDecision;
  /**
   * The registry's permission policy: when installed, `approval: "ai-sdk"`
   * decides per call from its arguments (`explain` without hooks), not per tool.
   */
  readonly policy?: Pick<RegistryPolicy, "installed" | "explain">;
}

/** Options of {@link toAiSdkTools}. */
export interface AiSdkToolsOptions<Schema = AiSdkJsonSchema, Preliminary extends boolean = boolean> extends ProviderToolsOptions {
  /**
   * The AI SDK's own `jsonSchema` function (`import { jsonSchema } from "ai"`):
   * pass it to get the AI SDK's `Schema` type, so the result type-checks as a
   * `ToolSet`. Default: an equivalent structural object.
   */
  jsonSchema?: (schema: JsonSchemaObject) => Schema;
  /** Names the target provider accepts; default OpenAI's `^[a-zA-Z0-9_-]{1,64}$`, which every major provider accepts. */
  namePattern?: RegExp;
  /**
   * Most tools the target provider takes in one request. Default 128,
   * OpenAI's limit (the strictest of the major providers, which the AI SDK
   * routes to alike); pass `Infinity` for none. Past it the call throws, or
   * with `invalidTools: "skip"` the first `maxTools` are kept and the rest
   * reported through `onSkip`.
   */
  maxTools?: number;
  /** Per-call options for `executeToolCall` (updates, events, host context), given the call id. */
  executeOptions?(toolCallId: string): Omit<ExecuteToolCallOptions, "signal">;
  /**
   * Who asks the user for tools the approval policy marks `ask`:
   * - `"registry"` (default): the registry's `onAsk`, while the call runs.
   * - `"ai-sdk"`: the AI SDK's approval flow (6 and 7): each tool gets
   *   `needsApproval`, true exactly when the policy says `ask`; a call the
   *   user approved runs with `approvalGranted`, so `onAsk` is not asked
   *   again. `deny` still refuses. AI SDK 5 has no approval flow and ignores
   *   `needsApproval`: keep the default there.
   */
  approval?: "registry" | "ai-sdk";
  /**
   * Stream the tool's `onUpdate` output as AI SDK preliminary results (5 and
   * later): `execute` yields a snapshot of the output so far per update and
   * then the final result. `toModelOutput` still renders only the final one.
   */
  preliminaryResults?: Preliminary;
  /**
   * The AI SDK major version, for the shape of image parts. Default: found
   * from the calls (5 by how it calls `toModelOutput`, 7 by the `context` it
   * passes to `execute`), else 6's `file-data`, which 7 accepts with a
   * deprecation warning.
   */
  aiSdkVersion?: AiSdkMajorVersion;
}

/** Builds the AI SDK schema object for a JSON Schema (what `jsonSchema()` from `ai` returns, without validation). */
export function toAiSdkJsonSchema(schema: JsonSchemaObject): AiSdkJsonSchema {
  return { [AI_SDK_SCHEMA_SYMBOL]: true, _type: undefined, jsonSchema: schema, validate: undefined };
}

/**
 * The registry's tools as Vercel AI SDK tools (5, 6 and 7): description, the
 * JSON Schema wrapped as the AI SDK's `jsonSchema()` does, and `execute`
 * routed to `registry.executeToolCall` (abort signal passed on). Results
 * reach the model as their text (`error-text` for failures, `content` with
 * the version's file parts for images). Opt in to the AI SDK's approval flow
 * with `approval: "ai-sdk"` and to streamed output with `preliminaryResults`.
 * Name and schema rules as for OpenAI unless `namePattern` says otherwise.
 *
 * @example
 * import { generateText, jsonSchema, stepCountIs } from "ai";
 * const result = await generateText({
 *   model,
 *   prompt: "Plan the refactor as tasks.",
 *   tools: toAiSdkTools(registry, { jsonSchema }),
 *   stopWhen: stepCountIs(10),
 * });
 */
export function toAiSdkTools<Schema = AiSdkJsonSchema, Preliminary extends boolean = false>(
  source: AiSdkToolSource,
  options: AiSdkToolsOptions<Schema, Preliminary> = {},
): Record<string, AiSdkTool<Schema, Preliminary extends true ? AsyncIterable<ToolResult> : Promise<ToolResult>>> {
  const wrap = options.jsonSchema ?? (toAiSdkJsonSchema as unknown as (schema: JsonSchemaObject) => Schema);
  const approvalDecision = options.approval === "ai-sdk" ? approvalDecisionOf(source) : undefined;
  // With a permission policy the question depends on the call's arguments: asked per call, and only a call
  // the user was asked about runs as granted (a call answered "no need to ask" still meets the hooks' ask).
  const policy = approvalDecision !== undefined && source.policy?.installed === true ? source.policy : undefined;
  const askedCalls = new Map<string, boolean>();
  let detectedVersion: AiSdkMajorVersion | undefined;
  const tools: Record<string, AiSdkTool<Schema, Promise<ToolResult> | AsyncIterable<ToolResult>>> = {};
  for (const tool of selectProviderTools(
    source.tools,
    { provider: "AI SDK", namePattern: options.namePattern ?? OPENAI_TOOL_NAME_PATTERN, maxTools: options.maxTools ?? 128 },
    options,
  )) {
    const name = tool.name;
    const run = (input: unknown, executionOptions: AiSdkToolExecutionOptions, onUpdate?: ExecuteToolCallOptions["onUpdate"]) => {
      // Only AI SDK 7 passes `context` to execute (6 passes `experimental_context`).
      if ("context" in executionOptions) detectedVersion = 7;
      const hostOptions = options.executeOptions?.(executionOptions.toolCallId);
      const callOptions: ExecuteToolCallOptions = { ...hostOptions, signal: executionOptions.abortSignal };
      if (approvalDecision) {
        callOptions.approvalGranted = policy === undefined || (askedCalls.get(executionOptions.toolCallId) ?? true);
        askedCalls.delete(executionOptions.toolCallId);
      }
      if (onUpdate) callOptions.onUpdate = chain(hostOptions?.onUpdate, onUpdate);
      return source.executeToolCall({ id: executionOptions.toolCallId, name, arguments: input }, callOptions);
    };
    tools[name] = {
      description: tool.description,
      inputSchema: wrap(tool.inputSchema),
      ...(approvalDecision
        ? {
            needsApproval:
              policy === undefined
                ? () => approvalDecision(name) === "ask"
                : async (input: unknown, approvalOptions: { toolCallId: string }) => {
                    const verdict = await policy.explain({ name, arguments: input, id: approvalOptions.toolCallId }, { runHooks: false });
                    const ask = verdict.decision === "ask" || verdict.decision === "defer";
                    askedCalls.set(approvalOptions.toolCallId, ask);
                    return ask;
                  },
          }
        : {}),
      execute: options.preliminaryResults
        ? (input, executionOptions) => streamToolCallResults((onUpdate) => run(input, executionOptions, onUpdate))
        : (input, executionOptions) => run(input, executionOptions),
      toModelOutput: (argument) => {
        // AI SDK 6 and 7 pass { toolCallId, input, output }; AI SDK 5 passes the output itself.
        if ("output" in argument && "toolCallId" in argument) return toAiSdkToolResultOutput(argument.output, options.aiSdkVersion ?? detectedVersion ?? 6);
        return toAiSdkToolResultOutput(argument, options.aiSdkVersion ?? 5);
      },
    };
  }
  return tools as Record<string, AiSdkTool<Schema, Preliminary extends true ? AsyncIterable<ToolResult> : Promise<ToolResult>>>;
}

function approvalDecisionOf(source: AiSdkToolSource): (toolName: string) => ApprovalDecision {
  const decide = source.approvalDecision;
  if (typeof decide !== "function") {
    throw new SdkError("invalid_options", 'toAiSdkTools with approval: "ai-sdk" needs a source with approvalDecision(toolName), as a ToolRegistry has.');
  }
  return (toolName) => decide.call(source, toolName);
}

function chain<Event>(first: ((event: Event) => void) | undefined, second: (event: Event) => void): (event: Event) => void {
  if (!first) return second;
  return (event) => {
    try {
      first(event);
    } finally {
      second(event);
    }
  };
}
