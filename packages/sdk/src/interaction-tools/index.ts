/**
 * AskUserQuestion and ExitPlanMode: tools that hand a question or a plan to
 * the host's user and bring the answer back to the model.
 */
export { createInteractionToolBundle } from "./interaction-tool-bundle.js";
export type { InteractionToolBundleOptions } from "./interaction-tool-bundle.js";
export {
  createAskUserQuestionTool,
  askUserQuestionInputSchema,
  ASK_USER_QUESTION_MAX_QUESTIONS,
  ASK_USER_QUESTION_MIN_OPTIONS,
  ASK_USER_QUESTION_MAX_OPTIONS,
} from "./ask-user-question-tool.js";
export type { AskUserQuestionDetails } from "./ask-user-question-tool.js";
export { createExitPlanModeTool, exitPlanModeInputSchema, EXIT_PLAN_MODE_MAX_PLAN_CHARS } from "./exit-plan-mode-tool.js";
export type { ExitPlanModeDetails } from "./exit-plan-mode-tool.js";
export type {
  AskUserQuestionItem,
  AskUserQuestionOption,
  AskUserQuestionRequest,
  AskUserQuestionResponse,
  ExitPlanModeRequest,
  ExitPlanModeResponse,
  InteractionCallbackOptions,
  InteractionHostOptions,
  SdkInteractionOptions,
  PlanModeControl,
} from "./interaction-types.js";
