/**
 * The question kinds of the real corpus, exclusive and decided in this order:
 * temporal (REALTALK category 2, or a question starting with when / what
 * date / what time / what year / how long), people (starting with who /
 * whom / whose), multi-session (evidence in two or more sessions or
 * scenes), single (the rest).
 */

/** A question kind; see the module comment. */
export type QuestionKind = "temporal" | "people" | "multi-session" | "single";

/** Every kind, in report order. */
export const QUESTION_KINDS: readonly QuestionKind[] = ["temporal", "people", "multi-session", "single"];

/** REALTALK's category of temporal questions. */
const REALTALK_TEMPORAL_CATEGORY = 2;
const TEMPORAL_START = /^\s*(when|what\s+date|what\s+time|what\s+year|how\s+long)\b/i;
const PEOPLE_START = /^\s*(who|whom|whose)\b/i;

/** What decides a question's kind. */
export interface QuestionKindInput {
  readonly text: string;
  /** REALTALK's category (2 = temporal); absent for FriendsQA. */
  readonly category?: number;
  /** Distinct sessions or scenes of the question's (mapped) evidence. */
  readonly evidenceSessions: number;
}

/**
 * The kind of one question.
 *
 * @example
 * questionKind({ text: "Who bought the car?", evidenceSessions: 2 }); // "people"
 */
export function questionKind(input: QuestionKindInput): QuestionKind {
  if (input.category === REALTALK_TEMPORAL_CATEGORY || TEMPORAL_START.test(input.text)) return "temporal";
  if (PEOPLE_START.test(input.text)) return "people";
  if (input.evidenceSessions >= 2) return "multi-session";
  return "single";
}
