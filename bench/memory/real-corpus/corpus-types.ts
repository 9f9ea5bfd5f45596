/**
 * Shapes of the real evaluation corpus: entries (one message or utterance
 * each, in one project scope), questions (with the keys of the entries that
 * answer them) and the datasets the loaders build.
 */
import type { QuestionKind } from "./question-kinds.js";

/** The datasets of the real corpus. `friendsqa-test` is held out: reported, never tuned on. */
export type RealDatasetName = "realtalk" | "friendsqa-dev" | "friendsqa-test";

/** Every dataset name, in report order. */
export const REAL_DATASET_NAMES: readonly RealDatasetName[] = ["realtalk", "friendsqa-dev", "friendsqa-test"];

/** One memory entry of the corpus: a message (REALTALK) or an utterance (FriendsQA). */
export interface RealCorpusEntry {
  /** `<project>/<slug>`: what question evidence names. */
  readonly key: string;
  /** The project scope the entry is loaded into (one per conversation or season). */
  readonly project: string;
  readonly slug: string;
  /** The text's first words, at most 120 characters. */
  readonly description: string;
  /** `<speaker>: <text>`. */
  readonly body: string;
  /** When it was said (epoch ms); also its `updatedAt`. */
  readonly createdAt: number;
  /** The session (REALTALK) or scene (FriendsQA) it belongs to. */
  readonly session: string;
}

/** One question with the entries that answer it. */
export interface RealCorpusQuestion {
  /** Unique within the dataset. */
  readonly id: string;
  readonly dataset: RealDatasetName;
  /** The project scope the question is asked in. */
  readonly project: string;
  readonly text: string;
  /** Keys of the entries that answer it (at least one). */
  readonly evidence: readonly string[];
  readonly kind: QuestionKind;
  /** The source's own category (REALTALK: 1 multi-hop, 2 temporal, 3 commonsense), when it has one. */
  readonly category?: number;
}

/** A project scope of the corpus and the clock its questions are asked at. */
export interface RealCorpusProject {
  readonly name: string;
  /** The conversation's (or season's) last message plus one day. */
  readonly now: number;
}

/** What a loader dropped, so a run can say so. */
export interface RealCorpusSkips {
  /** Evidence ids that name no message (the question is kept when another id maps). */
  readonly unmappedEvidence: number;
  /** Questions dropped because none of their evidence ids maps to an entry. */
  readonly questionsWithoutEvidence: number;
  /** A few examples of unmapped ids, `<file>: <id>`. */
  readonly examples: readonly string[];
}

/** One loaded dataset. */
export interface RealDataset {
  readonly name: RealDatasetName;
  readonly entries: readonly RealCorpusEntry[];
  readonly questions: readonly RealCorpusQuestion[];
  readonly projects: readonly RealCorpusProject[];
  readonly skips: RealCorpusSkips;
}

/** The first words of `text`, at most `max` characters (cut at a space where there is one). */
export function descriptionOf(text: string, max = 120): string {
  const flat = text.replace(/\s+/g, " ").trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max);
  const space = cut.lastIndexOf(" ");
  return (space > max / 2 ? cut.slice(0, space) : cut).trimEnd();
}
