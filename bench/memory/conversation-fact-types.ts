/** The shapes of the conversation corpus's facts (see conversation-facts.ts). */
import type { StoredMemoryType } from "@agent-tools/memory";

/** The kinds of question, reported separately. */
export type QuestionKind = "identity" | "preference" | "project" | "person" | "decision" | "superseded" | "override" | "cjk-sentence" | "cjk-keywords";

/** One fact: its entry and the questions that it answers. */
export interface FactSpec {
  slug: string;
  /** `""` for global, else a project name. */
  project: string;
  type: StoredMemoryType;
  session: number;
  description: string;
  body: string;
  supersedes?: string;
  questions: [QuestionKind, string][];
}
