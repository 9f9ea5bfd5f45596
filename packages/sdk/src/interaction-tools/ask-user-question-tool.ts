import { ToolError, type ToolDefinition, defineTool } from "@agent-tools/core";
import { z } from "zod";
import { callHost } from "./host-failure.js";
import type { AskUserQuestionItem, AskUserQuestionResponse, InteractionHostOptions } from "./interaction-types.js";

/** Questions per call, at most. */
export const ASK_USER_QUESTION_MAX_QUESTIONS = 4;
/** Options per question when options are given: at least 2, at most 4. */
export const ASK_USER_QUESTION_MIN_OPTIONS = 2;
/** See {@link ASK_USER_QUESTION_MIN_OPTIONS}. */
export const ASK_USER_QUESTION_MAX_OPTIONS = 4;

const optionSchema = z.object({
  label: z.string().trim().min(1).max(100).describe("The choice as the user sees it, 1-5 words; unique within its question."),
  description: z.string().max(500).optional().describe("What choosing it means or implies."),
});

const questionSchema = z.object({
  question: z.string().trim().min(1).max(1_000).describe("The full question, ending with '?'; unique within the call."),
  header: z.string().trim().min(1).max(40).optional().describe("A very short label for the question, e.g. 'Database'."),
  options: z
    .array(optionSchema)
    .min(ASK_USER_QUESTION_MIN_OPTIONS)
    .max(ASK_USER_QUESTION_MAX_OPTIONS)
    .optional()
    .describe(`${ASK_USER_QUESTION_MIN_OPTIONS}-${ASK_USER_QUESTION_MAX_OPTIONS} distinct choices; leave out for a free-text answer.`),
  multiSelect: z.boolean().optional().describe("True lets the user pick several options; needs options. Default false."),
});

/** AskUserQuestion's input. */
export const askUserQuestionInputSchema = z.object({
  questions: z
    .array(questionSchema)
    .min(1)
    .max(ASK_USER_QUESTION_MAX_QUESTIONS)
    .superRefine((questions, issues) => {
      const seen = new Set<string>();
      questions.forEach((item, index) => {
        if (seen.has(item.question))
          issues.addIssue({ code: "custom", path: [index, "question"], message: "repeats an earlier question; each question must be distinct" });
        seen.add(item.question);
        if (item.multiSelect === true && item.options === undefined) {
          issues.addIssue({ code: "custom", path: [index, "multiSelect"], message: "needs options to pick from; give options or leave multiSelect out" });
        }
        const labels = new Set<string>();
        item.options?.forEach((option, optionIndex) => {
          if (labels.has(option.label))
            issues.addIssue({ code: "custom", path: [index, "options", optionIndex, "label"], message: "repeats another option's label" });
          labels.add(option.label);
        });
      });
    })
    .describe(`1-${ASK_USER_QUESTION_MAX_QUESTIONS} questions, shown together.`),
});

/** What a UI gets of an AskUserQuestion call. */
export interface AskUserQuestionDetails {
  questions: AskUserQuestionItem[];
  /** The answers by question text; absent when the user declined. */
  answers?: Record<string, string | string[]>;
  declined: boolean;
}

const description = `Asks the user 1-${ASK_USER_QUESTION_MAX_QUESTIONS} questions and waits for the answers. Use it when you need a decision or a fact only the user has (a preference between approaches, an unclear requirement), not for things you can find out yourself.
- Each question: the full question text, an optional short header, and either ${ASK_USER_QUESTION_MIN_OPTIONS}-${ASK_USER_QUESTION_MAX_OPTIONS} options ({label, description}) or none for a free-text answer. The user may always answer in their own words instead of an option.
- multiSelect: true lets the user pick several options.
- The user may decline to answer; then carry on with your best judgement and say what you assumed.`;

/**
 * AskUserQuestion: validates the questions, hands them to the host's
 * `onAskUserQuestion` with the call's signal, and returns the answers as
 * text (and in `details`). Without the callback a call is refused.
 *
 * @example
 * const tool = createAskUserQuestionTool({ onAskUserQuestion: async () => ({ answers: { "Which database?": "SQLite" } }) });
 */
export function createAskUserQuestionTool(host: InteractionHostOptions): ToolDefinition<z.infer<typeof askUserQuestionInputSchema>, AskUserQuestionDetails> {
  return defineTool<typeof askUserQuestionInputSchema, AskUserQuestionDetails>({
    name: "AskUserQuestion",
    description,
    inputSchema: askUserQuestionInputSchema,
    metadata: { groupId: "system", kind: "ask_user", isReadOnly: false, displayCategory: "system", annotations: { readOnly: false, listedInPlanMode: true } },
    scopes: ["chat"],
    // Asking again changes nothing but the user's time: an answer lost in a crash is asked for again.
    effects: "idempotent",
    async execute(input, context) {
      const ask = host.onAskUserQuestion;
      if (typeof ask !== "function") {
        throw new ToolError(
          "unavailable",
          "This host cannot show questions to the user, so AskUserQuestion is unavailable. Ask your questions in your reply instead, or carry on with reasonable assumptions and state them.",
          { recoverable: false },
        );
      }
      const questions: AskUserQuestionItem[] = input.questions.map((item) => ({
        question: item.question,
        ...(item.header === undefined ? {} : { header: item.header }),
        ...(item.options === undefined ? {} : { options: item.options.map((option) => ({ ...option })) }),
        multiSelect: item.multiSelect === true,
      }));
      const response: AskUserQuestionResponse = await callHost("AskUserQuestion", "ask the user", context.signal, () =>
        ask.call(host, { callId: context.callId, questions }, { signal: context.signal }),
      );
      if (isDeclined(response)) {
        return {
          content:
            "The user declined to answer these questions. Do not ask them again right away: carry on with your best judgement and say what you assumed, or ask in your reply if you cannot proceed.",
          details: { questions, declined: true },
        };
      }
      const answers = readAnswers(response, questions);
      const lines = questions.map((item, index) => `${index + 1}. ${item.question}\n   Answer: ${formatAnswer(answers[item.question])}`);
      return { content: `The user answered:\n${lines.join("\n")}`, details: { questions, answers, declined: false } };
    },
  });
}

function isDeclined(response: unknown): boolean {
  return response !== null && typeof response === "object" && (response as { declined?: unknown }).declined === true;
}

/** The host's answers for the asked questions only; anything malformed is the host's mistake, reported clearly. */
function readAnswers(response: unknown, questions: readonly AskUserQuestionItem[]): Record<string, string | string[]> {
  const given = response !== null && typeof response === "object" ? (response as { answers?: unknown }).answers : undefined;
  if (given === null || typeof given !== "object" || Array.isArray(given)) {
    throw new ToolError(
      "other",
      "The host answered AskUserQuestion with neither { answers } nor { declined: true }, so the user's answers are unknown. Ask your questions in your reply instead.",
      { recoverable: false },
    );
  }
  const answers: Record<string, string | string[]> = {};
  for (const { question } of questions) {
    const answer = (given as Record<string, unknown>)[question];
    if (typeof answer === "string") answers[question] = answer;
    else if (Array.isArray(answer)) answers[question] = answer.filter((value): value is string => typeof value === "string");
  }
  return answers;
}

function formatAnswer(answer: string | string[] | undefined): string {
  if (answer === undefined || answer === "" || (Array.isArray(answer) && answer.length === 0)) return "(no answer)";
  return Array.isArray(answer) ? answer.join(", ") : answer;
}
