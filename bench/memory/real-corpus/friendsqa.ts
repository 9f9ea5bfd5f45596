/**
 * The FriendsQA loader (github.com/emorynlp/FriendsQA): `dat/friendsqa_dev.json`
 * is the tuning set, `dat/friendsqa_tst.json` the held-out set (reported, never
 * tuned on). Each utterance is one entry (body `<speakers>: <utterance>`); the
 * scenes of one season share one project scope, so a question is asked over a
 * whole season's talk, not only its scene. The answers' utterance ids become
 * the evidence. The scenes carry no dates: each gets a made-up one from its
 * title `sSS_eEE_cCC` (season start 22 Sep 1994 + a year per season, a week
 * per episode, a minute per scene, a second per utterance).
 */
import { type RealCorpusEntry, type RealCorpusQuestion, type RealDataset, descriptionOf } from "./corpus-types.js";
import { DEFAULT_FRIENDSQA_DIR, openDataSource } from "./data-source.js";
import { questionKind } from "./question-kinds.js";

const DAY_MS = 86_400_000;
const FIRST_AIRED = Date.UTC(1994, 8, 22, 20, 0, 0);
const HOW_TO_GET = "Get it with: git clone --depth 1 https://github.com/emorynlp/FriendsQA (see bench/memory/real-corpus/README.md).";

interface FriendsUtterance {
  readonly uid: number;
  readonly speakers?: readonly string[];
  readonly utterance?: string;
}

interface FriendsQa {
  readonly id: string;
  readonly question: string;
  readonly answers?: readonly { readonly utterance_id: number }[];
}

interface FriendsScene {
  readonly title: string;
  readonly paragraphs: readonly { readonly "utterances:"?: readonly FriendsUtterance[]; readonly qas?: readonly FriendsQa[] }[];
}

/** Season, episode and scene of a title `s01_e23_c06`. */
export function parseSceneTitle(title: string): { season: number; episode: number; scene: number } {
  const match = /^s(\d+)_e(\d+)_c(\d+)$/.exec(title);
  if (match === null) throw new Error(`FriendsQA scene title not in sSS_eEE_cCC form: ${JSON.stringify(title)}`);
  return { season: Number(match[1]), episode: Number(match[2]), scene: Number(match[3]) };
}

/** Which FriendsQA split to load. */
export type FriendsQaSplit = "dev" | "test";

/**
 * Loads one FriendsQA split from `dir` (a clone or the mirror's git
 * directory; default the mirror).
 */
export function loadFriendsQa(split: FriendsQaSplit, dir: string = DEFAULT_FRIENDSQA_DIR): RealDataset {
  const source = openDataSource(dir, "dat", HOW_TO_GET);
  const file = `dat/friendsqa_${split === "dev" ? "dev" : "tst"}.json`;
  const dataset = split === "dev" ? "friendsqa-dev" : "friendsqa-test";
  const scenes = (JSON.parse(source.read(file)) as { data: FriendsScene[] }).data;
  const entries: RealCorpusEntry[] = [];
  const questions: RealCorpusQuestion[] = [];
  const lastOf = new Map<string, number>();
  let unmappedEvidence = 0;
  let questionsWithoutEvidence = 0;
  const examples: string[] = [];
  const counts = new Map<string, number>();
  for (const scene of [...scenes].sort((left, right) => left.title.localeCompare(right.title))) {
    const { season, episode, scene: sceneNumber } = parseSceneTitle(scene.title);
    const project = `${dataset}-s${String(season).padStart(2, "0")}`;
    const sceneStart = FIRST_AIRED + (season - 1) * 365 * DAY_MS + (episode - 1) * 7 * DAY_MS + sceneNumber * 60_000;
    for (const paragraph of scene.paragraphs) {
      const byUid = new Map<number, RealCorpusEntry>();
      for (const utterance of paragraph["utterances:"] ?? []) {
        const text = (utterance.utterance ?? "").trim();
        const index = (counts.get(project) ?? 0) + 1;
        counts.set(project, index);
        const slug = `msg-${String(index).padStart(5, "0")}`;
        const at = sceneStart + utterance.uid * 1_000;
        lastOf.set(project, Math.max(lastOf.get(project) ?? 0, at));
        const speakers = (utterance.speakers ?? []).join(" & ") || "someone";
        const entry: RealCorpusEntry = {
          key: `${project}/${slug}`,
          project,
          slug,
          description: descriptionOf(text) || "(no text)",
          body: `${speakers}: ${text}`,
          createdAt: at,
          session: scene.title,
        };
        if (byUid.has(utterance.uid)) throw new Error(`${file}: utterance id ${utterance.uid} twice in ${scene.title}`);
        byUid.set(utterance.uid, entry);
        entries.push(entry);
      }
      for (const qa of paragraph.qas ?? []) {
        const evidence = new Set<string>();
        for (const answer of qa.answers ?? []) {
          const entry = byUid.get(answer.utterance_id);
          if (entry === undefined) {
            unmappedEvidence += 1;
            if (examples.length < 12) examples.push(`${file}: ${qa.id} utterance ${answer.utterance_id}`);
          } else evidence.add(entry.key);
        }
        if (evidence.size === 0) {
          questionsWithoutEvidence += 1;
          continue;
        }
        questions.push({
          id: qa.id,
          dataset,
          project,
          text: qa.question,
          evidence: [...evidence],
          kind: questionKind({ text: qa.question, evidenceSessions: 1 }),
        });
      }
    }
  }
  const projects = [...lastOf].map(([name, last]) => ({ name, now: last + DAY_MS }));
  return { name: dataset, entries, questions, projects, skips: { unmappedEvidence, questionsWithoutEvidence, examples } };
}
