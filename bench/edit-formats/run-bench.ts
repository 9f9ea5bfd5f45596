/**
 * The benchmark's runner: every prepared case, every perturbation that
 * applies to it, through our engines (V4A, Edit pairs one call each, the
 * multi-edit form) and the peer (V4A only) when it is here. Each result is
 * classified against the commit's new file: exact, refused, or wrong
 * (anything else, crashes included).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import type { CorpusCase } from "./corpus/corpus-types.js";
import { createRandomSource, seedOf } from "./corpus/seeded-random.js";
import { oursEditPairs, oursMultiEdit, oursV4A } from "./engines/ours.js";
import type { EngineOutcome, FormatEngine } from "./engines/outcome.js";
import { perturbPairs } from "./perturb/perturb-pairs.js";
import { perturbV4A } from "./perturb/perturb-v4a.js";
import { PERTURBATIONS, type Perturbation } from "./perturb/perturbations.js";
import { type PreparedCase, prepareCase } from "./prepare-case.js";

/** The formats measured. */
export type EditFormat = "v4a" | "edit-pairs" | "multi-edit";

/** The formats in table order. */
export const EDIT_FORMATS: readonly EditFormat[] = ["v4a", "edit-pairs", "multi-edit"];

/** Counts of one engine on one format and perturbation. */
export interface Tally {
  cases: number;
  exact: number;
  refused: number;
  /**
   * Applied, and the file equals the expected one line for line once each
   * line's leading and trailing whitespace (indentation, CR) and the final
   * newline are ignored: the change is at the right place, its whitespace
   * differs.
   */
  whitespace: number;
  /** Anything else: a change at the wrong place or with other text (target 0). */
  wrong: number;
  /** Of `wrong`: the engine threw something that is not a refusal. */
  crashed: number;
}

/** One wrong or non-exact result, for the report and the saved cases. */
export interface Finding {
  readonly engine: string;
  readonly format: EditFormat;
  readonly perturbation: Perturbation;
  readonly id: string;
  readonly result: "wrong" | "whitespace" | "refused";
  readonly detail: string;
  readonly input: string;
}

/** What {@link runEditFormatsBench} returns. */
export interface BenchReport {
  readonly cases: number;
  readonly skipped: Record<string, number>;
  /** Perturbed edits left out because their old text is text of the file as it is (`v4a/<perturbation>`, `edit/<perturbation>`). */
  readonly verbatim: Record<string, number>;
  /** `format/perturbation/engine` -> tally. */
  readonly tallies: Map<string, Tally>;
  readonly findings: Finding[];
}

/** The peer's applier of V4A (the patch and the file's path in). */
export type PeerEngine = FormatEngine<{ path: string; patch: string }>;

/** What the runner runs. */
export interface RunOptions {
  readonly cases: readonly CorpusCase[];
  readonly peer?: PeerEngine | undefined;
  readonly formats?: readonly EditFormat[];
  readonly perturbations?: readonly Perturbation[];
  /** Cases run at once (the peer's processes overlap; default 6). */
  readonly concurrency?: number;
}

/** Reads `cases.jsonl` of a corpus folder. */
export function loadCorpus(directory: string): CorpusCase[] {
  const text = readFileSync(path.join(directory, "cases.jsonl"), "utf8");
  return text
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as CorpusCase);
}

/** The tally key of a format, perturbation and engine. */
export function tallyKey(format: EditFormat, perturbation: Perturbation, engine: string): string {
  return `${format}/${perturbation}/${engine}`;
}

/** The text with each line trimmed (indentation, trailing spaces and CR ignored; blank lines kept in place) and no final newline. */
const trimmedLines = (bytes: Buffer) =>
  bytes
    .toString("latin1")
    .split("\n")
    .map((line) => line.trim())
    .join("\n")
    .replace(/\n$/, "");

/** Runs every case and returns the tallies. */
export async function runEditFormatsBench(options: RunOptions): Promise<BenchReport> {
  const formats = options.formats ?? EDIT_FORMATS;
  const perturbations = options.perturbations ?? PERTURBATIONS;
  const skipped: Record<string, number> = {};
  const prepared: PreparedCase[] = [];
  for (const item of options.cases) {
    const result = prepareCase(item);
    if ("skipped" in result) skipped[result.skipped] = (skipped[result.skipped] ?? 0) + 1;
    else prepared.push(result);
  }
  const tallies = new Map<string, Tally>();
  const findings: Finding[] = [];
  const verbatim: Record<string, number> = {};
  const count = (counts: Record<string, number>, key: string) => {
    counts[key] = (counts[key] ?? 0) + 1;
  };
  const record = (format: EditFormat, perturbation: Perturbation, engine: string, item: PreparedCase, outcome: EngineOutcome, input: string) => {
    const key = tallyKey(format, perturbation, engine);
    const tally = tallies.get(key) ?? { cases: 0, exact: 0, refused: 0, whitespace: 0, wrong: 0, crashed: 0 };
    tallies.set(key, tally);
    tally.cases++;
    const finding = (result: Finding["result"], detail: string) => findings.push({ engine, format, perturbation, id: item.id, result, detail, input });
    if (outcome.kind === "refused") {
      tally.refused++;
      if (perturbation === "none") finding("refused", outcome.reason);
    } else if (outcome.kind === "applied" && outcome.bytes.equals(item.newBytes)) {
      tally.exact++;
    } else {
      const got = outcome.kind === "applied" || outcome.kind === "wrong-step" ? outcome.bytes : undefined;
      const wanted = outcome.kind === "wrong-step" ? outcome.expected : item.newBytes;
      const where = outcome.kind === "wrong-step" ? `pair ${outcome.step}: ` : "";
      if (got && trimmedLines(got) === trimmedLines(wanted)) {
        tally.whitespace++;
        finding("whitespace", `${where}right place, whitespace differs`);
      } else {
        tally.wrong++;
        if (outcome.kind === "crashed") tally.crashed++;
        finding("wrong", outcome.kind === "crashed" ? outcome.error : `${where}another file`);
      }
    }
  };
  const runCase = async (item: PreparedCase) => {
    for (const perturbation of perturbations) {
      const random = () => createRandomSource(seedOf(`${item.id}/${perturbation}`));
      if (formats.includes("v4a")) {
        const patch = perturbV4A(item.patch, perturbation, item.oldLines, random());
        if (patch === "verbatim") count(verbatim, `v4a/${perturbation}`);
        else if (patch !== undefined) {
          record("v4a", perturbation, "ours", item, await oursV4A.apply(item.oldBytes, patch), patch);
          if (options.peer) record("v4a", perturbation, options.peer.name, item, await options.peer.apply(item.oldBytes, { path: item.path, patch }), patch);
        }
      }
      const texts = [item.oldBytes, ...item.expected].map((bytes) => bytes.toString("utf8"));
      const pairs = perturbPairs(item.pairs, perturbation, item.oldLines, random(), texts);
      if (pairs === "verbatim") count(verbatim, `edit/${perturbation}`);
      if (pairs === undefined || pairs === "verbatim") continue;
      const input = JSON.stringify(pairs, null, 1);
      if (formats.includes("edit-pairs"))
        record("edit-pairs", perturbation, "ours", item, await oursEditPairs.apply(item.oldBytes, { pairs, expected: item.expected }), input);
      if (formats.includes("multi-edit"))
        record("multi-edit", perturbation, "ours", item, await oursMultiEdit.apply(item.oldBytes, { pairs, expected: item.expected }), input);
    }
  };
  let next = 0;
  const worker = async () => {
    while (next < prepared.length) await runCase(prepared[next++] as PreparedCase);
  };
  await Promise.all(Array.from({ length: options.concurrency ?? 6 }, worker));
  return { cases: prepared.length, skipped, verbatim, tallies, findings };
}
