import { ToolError, type ToolDefinition, defineTool } from "@agent-tools/core";
import { z } from "zod";
import { callHost } from "./host-failure.js";
import type { ExitPlanModeResponse, InteractionHostOptions, PlanModeControl } from "./interaction-types.js";

/** The longest plan ExitPlanMode accepts, in characters. */
export const EXIT_PLAN_MODE_MAX_PLAN_CHARS = 50_000;

/** ExitPlanMode's input. */
export const exitPlanModeInputSchema = z.object({
  plan: z
    .string()
    .trim()
    .min(1)
    .max(EXIT_PLAN_MODE_MAX_PLAN_CHARS)
    .describe("The plan to carry out, in Markdown: the steps, the files to change, how to check the result."),
});

/** What a UI gets of an ExitPlanMode call. */
export interface ExitPlanModeDetails {
  /** True when the user approved the plan (plan mode is then off). */
  approved: boolean;
  feedback?: string;
  /** Plan mode after the call. */
  planMode: boolean;
}

const description = `Presents your plan to the user for approval and, when approved, leaves plan mode. Only while in plan mode: first explore with the read-only tools, then call this with the complete plan.
- Approved: plan mode ends and every tool is available again; carry out the plan.
- Not approved: you stay in plan mode; revise the plan with the user's feedback and call this again.
- Not for asking questions (use AskUserQuestion) and not for research tasks that need no plan.`;

/**
 * ExitPlanMode: shows the model's plan to the host's `onExitPlanMode` and,
 * when the user approves, turns the registry's plan mode off (the registry
 * then fires its `onToolsChanged` listeners). A rejection keeps plan mode
 * and returns the feedback; a call outside plan mode changes nothing.
 *
 * @example
 * const tool = createExitPlanModeTool({ onExitPlanMode: async () => ({ approved: true }) }, () => registry);
 */
export function createExitPlanModeTool(
  host: InteractionHostOptions,
  planMode: () => PlanModeControl | undefined,
): ToolDefinition<z.infer<typeof exitPlanModeInputSchema>, ExitPlanModeDetails> {
  return defineTool<typeof exitPlanModeInputSchema, ExitPlanModeDetails>({
    name: "ExitPlanMode",
    description,
    inputSchema: exitPlanModeInputSchema,
    metadata: {
      groupId: "system",
      kind: "exit_plan_mode",
      isReadOnly: false,
      displayCategory: "system",
      annotations: { readOnly: false, listedInPlanMode: true },
    },
    scopes: ["chat"],
    // It asks the user, then turns plan mode off: a second run leaves plan mode as one does.
    effects: "idempotent",
    async execute({ plan }, context) {
      const confirm = host.onExitPlanMode;
      if (typeof confirm !== "function") {
        throw new ToolError(
          "unavailable",
          "This host cannot show a plan to the user for approval, so ExitPlanMode cannot leave plan mode. Present the plan in your reply and wait for the user to switch plan mode off.",
          { recoverable: false },
        );
      }
      const control = planMode();
      if (control !== undefined && !control.planMode) {
        return {
          content: "Plan mode is already off: all tools are available. The plan was not shown to the user; go ahead with it.",
          details: { approved: true, planMode: false },
        };
      }
      const response: ExitPlanModeResponse = await callHost("ExitPlanMode", "show the plan to the user", context.signal, () =>
        confirm.call(host, { callId: context.callId, plan }, { signal: context.signal }),
      );
      if (response === null || typeof response !== "object" || typeof response.approved !== "boolean") {
        throw new ToolError(
          "other",
          "The host answered ExitPlanMode without { approved: true | false }, so it is unknown whether the user approved the plan; plan mode stays on. Present the plan in your reply and wait for the user.",
          { recoverable: false },
        );
      }
      // A late answer after the call was cancelled must not switch plan mode off.
      context.signal.throwIfAborted();
      const feedback = typeof response.feedback === "string" && response.feedback.trim() !== "" ? response.feedback.trim() : undefined;
      const withFeedback = feedback === undefined ? {} : { feedback };
      if (response.approved) {
        control?.setPlanMode(false);
        return {
          content: `The user approved the plan. Plan mode is off and every tool is available again: carry out the plan now.${feedback === undefined ? "" : `\nThe user's notes: ${feedback}`}`,
          details: { approved: true, ...withFeedback, planMode: false },
        };
      }
      return {
        content: `The user did not approve the plan, so plan mode stays on (read-only tools only). ${feedback === undefined ? "The user gave no reason: ask what to change, or revise the plan and call ExitPlanMode again." : `The user's feedback: ${feedback}\nRevise the plan accordingly and call ExitPlanMode again.`}`,
        details: { approved: false, ...withFeedback, planMode: control?.planMode ?? true },
      };
    },
  });
}
