/**
 * A generated long conversation, turned into memory entries and questions:
 * 40 sessions over about ten weeks of one user talking with an assistant
 * about himself, his preferences, three projects, people and decisions; some
 * facts change later (a newer entry supersedes an older one), a project entry
 * overrides a global one with the same slug, and four sessions are in
 * Chinese or Japanese. Around the facts sit distractor notes built from the
 * same technical vocabulary. Deterministic for a seed.
 *
 * Every question names the entry holding its answer and is phrased
 * differently from it (synonyms, identity and preference questions, CJK
 * sentences and CJK keyword queries).
 */
import { type RecordInput, pick, projectHash, seededRandom } from "./bench-util.js";
import type { MemoryScope, StoredMemoryType } from "@agent-tools/memory";
import { FACTS, type QuestionKind } from "./conversation-facts.js";

export type { QuestionKind } from "./conversation-facts.js";

/** One question: its text, the project it is asked in, and the key of the answering entry. */
export interface CorpusQuestion {
  readonly text: string;
  readonly kind: QuestionKind;
  /** The project (one of {@link CORPUS_PROJECTS}) whose scope is searched with global. */
  readonly project: string;
  readonly answer: { readonly scope: MemoryScope; readonly project: string; readonly slug: string };
}

/** The generated corpus. */
export interface ConversationCorpus {
  /** Every entry, with `workdirHash` left for the caller to fill per project (see {@link CorpusEntry.project}). */
  readonly entries: readonly CorpusEntry[];
  readonly questions: readonly CorpusQuestion[];
  /** Epoch ms of the last session (the clock the search runs at). */
  readonly now: number;
}

/** One entry; `project` is `""` for global entries. */
export interface CorpusEntry extends Omit<RecordInput, "workdirHash"> {
  readonly project: string;
  readonly session: number;
}

/** The three projects of the conversation. */
export const CORPUS_PROJECTS = ["atlas", "harbor", "lumen"] as const;

const SESSIONS = 40;
const START = Date.UTC(2026, 2, 2, 9, 0, 0);
const DAY_MS = 86_400_000;

const DISTRACTOR_SUBJECTS = [
  "the build",
  "CI",
  "the staging database",
  "docker compose",
  "the release checklist",
  "the API gateway",
  "the editor plugin",
  "the test matrix",
  "the deploy script",
  "the cache layer",
  "the dev server",
  "the migration",
  "the onboarding doc",
  "the logging setup",
  "the design review",
  "the dashboard",
  "the backup job",
  "the retro",
  "the sprint board",
  "the coffee machine",
  "the team calendar",
  "the language server",
  "the user survey",
  "the on-call handbook",
];
const DISTRACTOR_VERBS = [
  "needs",
  "was moved to",
  "depends on",
  "breaks without",
  "should use",
  "now reads",
  "was discussed with",
  "times out on",
  "caches",
  "documents",
];
const DISTRACTOR_OBJECTS = [
  "a new port",
  "the production settings",
  "version pinning",
  "the preview environment",
  "the shared config",
  "an extra review",
  "the weekly report",
  "dark launch rules",
  "the old Node image",
  "structured JSON logs",
  "a retry with backoff",
  "the main branch",
  "the team's preference list",
  "the favorite dashboard",
  "a faster test runner",
  "an explicit timeout",
  "the name of the owner",
  "a data export",
  "the Lisbon office wifi",
  "the platform roadmap",
];
const DISTRACTOR_TAILS = [
  "Follow up next week.",
  "Nobody owns this yet.",
  "Mentioned in passing during the session.",
  "Low priority.",
  "Check again after the next release.",
  "Worked around it for now.",
  "Details are in the ticket.",
  "Came up while debugging something else.",
];
const DISTRACTOR_TYPES: StoredMemoryType[] = ["reference", "reference", "project", "feedback", "user"];

function sessionTime(session: number): number {
  // Sessions roughly every 1.75 days, at varying hours.
  return START + Math.round((session - 1) * 1.75 * DAY_MS) + (session % 5) * 3_600_000;
}

/**
 * Builds the corpus: the facts above plus `distractors` notes spread over the
 * sessions, global and the three projects.
 *
 * @example
 * const corpus = buildConversationCorpus(42);
 * corpus.questions.length; // >= 100
 */
export function buildConversationCorpus(seed = 42, distractors = 360): ConversationCorpus {
  const random = seededRandom(seed);
  const entries: CorpusEntry[] = [];
  const questions: CorpusQuestion[] = [];
  for (const fact of FACTS) {
    const at = sessionTime(fact.session);
    entries.push({
      slug: fact.slug,
      scope: fact.project === "" ? "global" : "project",
      project: fact.project,
      type: fact.type,
      description: fact.description,
      body: fact.body,
      createdAt: at,
      updatedAt: at,
      session: fact.session,
      ...(fact.supersedes === undefined ? {} : { supersedes: fact.supersedes }),
    });
    for (const [kind, text] of fact.questions) {
      questions.push({
        text,
        kind,
        project: fact.project === "" ? pick(random, CORPUS_PROJECTS) : fact.project,
        answer: { scope: fact.project === "" ? "global" : "project", project: fact.project, slug: fact.slug },
      });
    }
  }
  const taken = new Set(entries.map((entry) => `${entry.project}/${entry.slug}`));
  for (let index = 0; index < distractors; index += 1) {
    const session = 1 + Math.floor(random() * SESSIONS);
    const project = random() < 0.4 ? "" : pick(random, CORPUS_PROJECTS);
    const subject = pick(random, DISTRACTOR_SUBJECTS);
    const sentences = 1 + Math.floor(random() * 3);
    const parts: string[] = [];
    for (let sentence = 0; sentence < sentences; sentence += 1) {
      const who = sentence === 0 ? subject : pick(random, DISTRACTOR_SUBJECTS);
      parts.push(`${who[0]!.toUpperCase()}${who.slice(1)} ${pick(random, DISTRACTOR_VERBS)} ${pick(random, DISTRACTOR_OBJECTS)}.`);
    }
    parts.push(pick(random, DISTRACTOR_TAILS));
    const words = subject
      .replace(/^the /, "")
      .replace(/[^a-z ]/gi, "")
      .split(" ");
    let slug = `note-${words.join("-").toLowerCase()}-${index}`;
    while (taken.has(`${project}/${slug}`)) slug += "x";
    taken.add(`${project}/${slug}`);
    const at = sessionTime(session) + Math.floor(random() * 3_600_000);
    entries.push({
      slug,
      scope: project === "" ? "global" : "project",
      project,
      type:
        project === ""
          ? pick(
              random,
              DISTRACTOR_TYPES.filter((type) => type !== "project"),
            )
          : pick(random, DISTRACTOR_TYPES),
      description: parts[0]!.slice(0, 120),
      body: parts.join(" "),
      createdAt: at,
      updatedAt: at,
      session,
    });
  }
  return { entries, questions, now: sessionTime(SESSIONS) + DAY_MS };
}

/** The workdir hash of `project` in the corpus (`""` for global). */
export function corpusProjectHash(project: string): string {
  return project === "" ? "" : projectHash(`/corpus/${project}`);
}
