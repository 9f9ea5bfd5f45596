/**
 * Loads the datasets of the real corpus by name and describes what was
 * loaded (counts of entries and questions per dataset and kind, and what the
 * loaders skipped).
 */
import { REAL_DATASET_NAMES, type RealDataset, type RealDatasetName } from "./corpus-types.js";
import { DEFAULT_FRIENDSQA_DIR, DEFAULT_REALTALK_DIR } from "./data-source.js";
import { loadFriendsQa } from "./friendsqa.js";
import { QUESTION_KINDS } from "./question-kinds.js";
import { loadRealtalk } from "./realtalk.js";

/** Where the source data is. */
export interface RealCorpusSources {
  /** A REALTALK clone or git directory; default the mirror. */
  readonly realtalkDir?: string;
  /** A FriendsQA clone or git directory; default the mirror. */
  readonly friendsqaDir?: string;
}

/**
 * The directories of a `--data=<dir>` option: `<dir>/REALTALK` and
 * `<dir>/FriendsQA` (the two clones side by side).
 */
export function sourcesUnder(dataDir: string): RealCorpusSources {
  return { realtalkDir: `${dataDir}/REALTALK`, friendsqaDir: `${dataDir}/FriendsQA` };
}

/** Loads `names` (default all three) from `sources`. Throws when a name is unknown or the data is missing. */
export function loadRealCorpus(names: readonly string[] = REAL_DATASET_NAMES, sources: RealCorpusSources = {}): RealDataset[] {
  return names.map((name) => {
    switch (name as RealDatasetName) {
      case "realtalk":
        return loadRealtalk(sources.realtalkDir ?? DEFAULT_REALTALK_DIR);
      case "friendsqa-dev":
        return loadFriendsQa("dev", sources.friendsqaDir ?? DEFAULT_FRIENDSQA_DIR);
      case "friendsqa-test":
        return loadFriendsQa("test", sources.friendsqaDir ?? DEFAULT_FRIENDSQA_DIR);
      default:
        throw new Error(`unknown dataset ${JSON.stringify(name)}; the datasets are ${REAL_DATASET_NAMES.join(", ")}`);
    }
  });
}

/** Lines describing `datasets`: entries, projects, questions per kind, skipped evidence. */
export function describeRealCorpus(datasets: readonly RealDataset[]): string[] {
  const lines: string[] = [];
  for (const dataset of datasets) {
    const kinds = QUESTION_KINDS.map((kind) => `${kind} ${dataset.questions.filter((question) => question.kind === kind).length}`).join(", ");
    lines.push(
      `${dataset.name}: ${dataset.entries.length} entries in ${dataset.projects.length} projects, ${dataset.questions.length} questions (${kinds}); ` +
        `skipped ${dataset.skips.unmappedEvidence} evidence ids that name no message` +
        `${dataset.skips.questionsWithoutEvidence > 0 ? ` and ${dataset.skips.questionsWithoutEvidence} questions left without evidence` : ""}` +
        `${dataset.skips.examples.length > 0 ? ` (e.g. ${dataset.skips.examples.slice(0, 4).join("; ")})` : ""}`,
    );
  }
  return lines;
}
