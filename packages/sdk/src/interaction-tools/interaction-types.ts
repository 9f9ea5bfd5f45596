/**
 * What the interaction tools (AskUserQuestion, ExitPlanMode) exchange with
 * the host: the requests a host shows to its user and the answers it gives
 * back. A leaf file: types only.
 */

/** One choice of a question. */
export interface AskUserQuestionOption {
  /** What the user picks, e.g. `PostgreSQL`; unique within its question. */
  readonly label: string;
  /** What choosing it means, shown beside the label. */
  readonly description?: string;
}

/** One question to the user. */
export interface AskUserQuestionItem {
  /** The full question; unique within the call (answers are keyed by it). */
  readonly question: string;
  /** A short label for a tab or chip, e.g. `Database`. */
  readonly header?: string;
  /** 2-4 choices; absent = a free-text answer. The user may still answer in their own words. */
  readonly options?: readonly AskUserQuestionOption[];
  /** True: the user may pick several options (the answer is then a list). */
  readonly multiSelect: boolean;
}

/** What `onAskUserQuestion` receives. */
export interface AskUserQuestionRequest {
  /** The id of the tool call. */
  readonly callId: string;
  /** 1-4 questions, in the order to show them. */
  readonly questions: readonly AskUserQuestionItem[];
}

/**
 * The host's answer: one answer per question text (a string, or a list of
 * labels for a multi-select question), or `{ declined: true }` when the user
 * chose not to answer. A question left out of `answers` reads as unanswered.
 */
export type AskUserQuestionResponse = { readonly answers: Readonly<Record<string, string | readonly string[]>> } | { readonly declined: true };

/** What `onExitPlanMode` receives. */
export interface ExitPlanModeRequest {
  /** The id of the tool call. */
  readonly callId: string;
  /** The plan the model proposes to carry out (Markdown). */
  readonly plan: string;
}

/** The user's verdict on a plan; `feedback` goes back to the model either way. */
export interface ExitPlanModeResponse {
  readonly approved: boolean;
  readonly feedback?: string;
}

/** The second argument of the host callbacks. */
export interface InteractionCallbackOptions {
  /** Aborted when the call is cancelled: close the dialog; the answer is then ignored. */
  readonly signal: AbortSignal;
}

/** The `interaction` option of `buildBuiltinToolRegistry`: plan mode and the host's dialogs. */
export interface SdkInteractionOptions extends InteractionHostOptions {
  /** Start in plan mode (see `registry.setPlanMode`). */
  readonly planMode?: boolean;
}

/** The host side of the interaction tools (`buildBuiltinToolRegistry({ interaction })`). */
export interface InteractionHostOptions {
  /**
   * Shows questions to the user and resolves with the answers. Without it,
   * AskUserQuestion is not listed to the model and a call is refused.
   *
   * @example
   * onAskUserQuestion: async ({ questions }, { signal }) => ({ answers: await dialog.ask(questions, signal) })
   */
  onAskUserQuestion?(request: AskUserQuestionRequest, options: InteractionCallbackOptions): Promise<AskUserQuestionResponse>;
  /**
   * Shows the model's plan to the user for approval. Without it,
   * ExitPlanMode is not listed (not even in plan mode) and a call is refused.
   *
   * @example
   * onExitPlanMode: async ({ plan }, { signal }) => ({ approved: await dialog.confirm(plan, signal) })
   */
  onExitPlanMode?(request: ExitPlanModeRequest, options: InteractionCallbackOptions): Promise<ExitPlanModeResponse>;
}

/** The part of a registry ExitPlanMode reads and changes (a `ToolRegistry` is one). */
export interface PlanModeControl {
  readonly planMode: boolean;
  setPlanMode(on: boolean): void;
}
