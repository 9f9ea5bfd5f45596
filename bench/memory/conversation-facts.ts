/**
 * The facts of the conversation corpus (see conversation-corpus.ts): what the
 * user tells over the sessions, each with the questions it answers.
 */
import type { FactSpec } from "./conversation-fact-types.js";
import { PERSONAL_FACTS } from "./conversation-facts-personal.js";
import { WORK_FACTS } from "./conversation-facts-work.js";

export type { FactSpec, QuestionKind } from "./conversation-fact-types.js";

/** Facts told over the sessions; questions are asked from `askIn` (default: the fact's own project, else atlas). */
export const FACTS: FactSpec[] = [...PERSONAL_FACTS, ...WORK_FACTS];
