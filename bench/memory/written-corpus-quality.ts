/**
 * The written corpus of memory retrieval (the second set of
 * retrieval-quality.ts, `--corpus=written|all`): recall@1, @5 and @10 of the
 * SDK's ranking (MemoryService.search) next to a plain BM25 ranking of the
 * same entries (PlainBm25Index over slug + description + body, the
 * question's words OR-ed: no weights, no expansions, no trigram), on a
 * generated multi-session conversation corpus (conversation-corpus.ts, facts
 * written for it) with 100+ questions. Overall and per question kind; every
 * kind where the SDK is worse is printed as such, with the questions it lost.
 */
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { InMemoryMemoryIndexStore, type MemoryIndexStore, type MemoryService, openMemoryService } from "@agent-tools/memory";
// The plain BM25 baseline is internal to the memory package: the benchmark reads it from the source.
import { PlainBm25Index, tokenizeWords } from "../../packages/memory/src/ports/plain-bm25.js";
import { type IndexBackend, indexRecord, openPostgresBackend, openSqliteBackend, printTable } from "./bench-util.js";
import { CORPUS_PROJECTS, type CorpusQuestion, type QuestionKind, buildConversationCorpus } from "./conversation-corpus.js";

const KS = [1, 5, 10] as const;

/** Rank (1-based) of the answer among `keys`, or Infinity. */
function rankOf(keys: readonly string[], answer: string): number {
  const index = keys.indexOf(answer);
  return index === -1 ? Number.POSITIVE_INFINITY : index + 1;
}

function answerKey(question: CorpusQuestion, hashes: ReadonlyMap<string, string>): string {
  return `${question.answer.scope}/${question.answer.project === "" ? "" : hashes.get(question.answer.project)}/${question.answer.slug}`;
}

interface Ranks {
  readonly name: string;
  readonly ranks: readonly number[];
  /** The slug ranked first per question ("" when nothing was found). */
  readonly tops: readonly string[];
  /** Per question: true when neither index found anything and the scan fallback ranked the hits. */
  readonly fallbacks?: readonly boolean[];
}

function recall(ranks: readonly number[], k: number, filter: readonly boolean[]): string {
  let hits = 0;
  let total = 0;
  for (const [index, rank] of ranks.entries()) {
    if (!filter[index]) continue;
    total += 1;
    if (rank <= k) hits += 1;
  }
  return total === 0 ? "-" : (hits / total).toFixed(2);
}

async function sdkRanks(
  store: MemoryIndexStore,
  projectDirs: ReadonlyMap<string, string>,
  dataDir: string,
  now: number,
  questions: readonly CorpusQuestion[],
  hashes: ReadonlyMap<string, string>,
): Promise<{ ranks: number[]; tops: string[]; fallbacks: boolean[] }> {
  const services = new Map<string, MemoryService>();
  for (const [project, dir] of projectDirs) {
    services.set(project, await openMemoryService({ dataDir, store, workdir: dir, skipReconcile: true, now: () => now }));
  }
  const ranks: number[] = [];
  const tops: string[] = [];
  const fallbacks: boolean[] = [];
  for (const question of questions) {
    const service = services.get(question.project)!;
    const result = await service.search({ query: question.text, limit: 10 });
    const keys = result.hits.map((hit) => `${hit.record.scope}/${hit.record.workdirHash}/${hit.record.slug}`);
    ranks.push(rankOf(keys, answerKey(question, hashes)));
    tops.push(result.hits[0]?.record.slug ?? "");
    fallbacks.push(result.usedFallback);
  }
  for (const service of services.values()) await service.close();
  return { ranks, tops, fallbacks };
}

/** Settings of the written corpus run. */
export interface WrittenCorpusOptions {
  /** Seed of the generated corpus (default 42). */
  readonly seed: number;
  /** Distractor notes added to the facts (default 360). */
  readonly distractors: number;
  /** Backends to run the SDK ranking on. */
  readonly backends: readonly string[];
}

/** Builds the written corpus and prints its table and verdicts (plain BM25 vs the SDK on each backend). */
export async function runWrittenCorpusQuality(options: WrittenCorpusOptions): Promise<void> {
  const { seed, distractors, backends } = options;
  const corpus = buildConversationCorpus(seed, distractors);
  console.log(
    `corpus: seed ${seed}, ${corpus.entries.length} entries (${corpus.entries.length - distractors} facts, ${distractors} distractor notes), ` +
      `${corpus.questions.length} questions, projects ${CORPUS_PROJECTS.join(", ")} (each question searches global + its project)\n`,
  );

  // Project directories: the service names a project by its canonical workdir.
  const root = await fs.mkdtemp(path.join(os.tmpdir(), "memory-bench-quality-"));
  const projectDirs = new Map<string, string>();
  const hashes = new Map<string, string>();
  for (const project of CORPUS_PROJECTS) {
    const dir = path.join(root, "work", project);
    await fs.mkdir(dir, { recursive: true });
    projectDirs.set(project, dir);
    const probe = await openMemoryService({ dataDir: path.join(root, "data"), store: new InMemoryMemoryIndexStore(), workdir: dir, skipReconcile: true });
    hashes.set(project, probe.workdirHash);
    await probe.close();
  }
  const records = corpus.entries.map((entry) => indexRecord({ ...entry, workdirHash: entry.project === "" ? "" : hashes.get(entry.project)! }));

  // Plain BM25: one index per project over global + that project's entries.
  const plainRanks: number[] = [];
  const plainTops: string[] = [];
  const plain = new Map<string, PlainBm25Index<string>>();
  for (const project of CORPUS_PROJECTS) {
    const index = new PlainBm25Index<string>();
    for (const record of records) {
      if (record.scope === "global" || record.workdirHash === hashes.get(project)) {
        index.add(`${record.scope}/${record.workdirHash}/${record.slug}`, `${record.slug}\n${record.description}\n${record.body}`);
      }
    }
    plain.set(project, index);
  }
  for (const question of corpus.questions) {
    const terms = tokenizeWords(question.text).map((word) => [word]);
    const keys = plain
      .get(question.project)!
      .search(terms, 10)
      .map((hit) => hit.id);
    plainRanks.push(rankOf(keys, answerKey(question, hashes)));
    plainTops.push(keys[0]?.split("/")[2] ?? "");
  }

  const rows: Ranks[] = [{ name: "plain BM25", ranks: plainRanks, tops: plainTops }];
  for (const backend of backends) {
    let store: MemoryIndexStore;
    let opened: IndexBackend | undefined;
    if (backend === "memory") store = new InMemoryMemoryIndexStore();
    else {
      const result = backend === "postgres" ? await openPostgresBackend() : await openSqliteBackend();
      if (typeof result === "string") {
        console.log(`(skipped ${backend}: ${result})`);
        continue;
      }
      opened = result;
      store = result.store;
    }
    for (let start = 0; start < records.length; start += 500) {
      const outcome = await store.applyBatch(
        records.slice(start, start + 500).map((record) => ({ kind: "upsert" as const, record })),
        [],
      );
      if (!outcome.ok) throw new Error(`load refused: ${JSON.stringify(outcome.conflicts)}`);
    }
    rows.push({ name: `SDK (${backend})`, ...(await sdkRanks(store, projectDirs, path.join(root, "data"), corpus.now, corpus.questions, hashes)) });
    await opened?.close();
  }
  await fs.rm(root, { recursive: true, force: true });

  const kinds = [...new Set(corpus.questions.map((question) => question.kind))] as QuestionKind[];
  const groups: [string, boolean[]][] = [
    [`all (${corpus.questions.length})`, corpus.questions.map(() => true)],
    ...kinds.map((kind): [string, boolean[]] => {
      const filter = corpus.questions.map((question) => question.kind === kind);
      return [`${kind} (${filter.filter(Boolean).length})`, filter];
    }),
  ];
  const header = ["questions", ...rows.flatMap((row) => KS.map((k) => `${row.name} @${k}`))];
  printTable([header, ...groups.map(([label, filter]) => [label, ...rows.flatMap((row) => KS.map((k) => recall(row.ranks, k, filter)))])]);

  // Verdicts: where each SDK backend is better or worse than plain BM25.
  console.log("");
  for (const row of rows.slice(1)) {
    for (const [label, filter] of groups) {
      const better: string[] = [];
      const worse: string[] = [];
      for (const k of KS) {
        const sdk = Number(recall(row.ranks, k, filter));
        const base = Number(recall(plainRanks, k, filter));
        if (sdk > base) better.push(`@${k} ${base.toFixed(2)} -> ${sdk.toFixed(2)}`);
        if (sdk < base) worse.push(`@${k} ${base.toFixed(2)} -> ${sdk.toFixed(2)}`);
      }
      if (worse.length > 0)
        console.log(`${row.name} is WORSE than plain BM25 on ${label}: ${worse.join(", ")}${better.length > 0 ? ` (better ${better.join(", ")})` : ""}`);
      else if (better.length > 0) console.log(`${row.name} is better than plain BM25 on ${label}: ${better.join(", ")}`);
      else console.log(`${row.name} ties plain BM25 on ${label}`);
    }
    const lost = corpus.questions.filter((_, index) => row.ranks[index]! > plainRanks[index]!);
    if (lost.length > 0) {
      console.log(`\n${row.name}: questions ranked lower than by plain BM25 (${lost.length}):`);
      for (const question of lost) {
        const index = corpus.questions.indexOf(question);
        const show = (rank: number) => (Number.isFinite(rank) ? String(rank) : ">10");
        console.log(
          `  [${question.kind}] ${JSON.stringify(question.text)} -> ${question.answer.slug}: SDK ${show(row.ranks[index]!)} (first: ${row.tops[index] || "-"}${row.fallbacks?.[index] ? ", scan fallback" : ""}), plain ${show(plainRanks[index]!)} (first: ${plainTops[index] || "-"})`,
        );
      }
    }
    const fellBack = corpus.questions.filter((_, index) => row.fallbacks?.[index] === true);
    if (fellBack.length > 0) {
      const found = fellBack.filter((question) => Number.isFinite(row.ranks[corpus.questions.indexOf(question)]!)).length;
      console.log(
        `\n${row.name}: ${fellBack.length} questions found nothing in either index and were ranked by the scan fallback (answer in the top 10 for ${found})`,
      );
    }
    const missed = corpus.questions.filter((_, index) => !Number.isFinite(row.ranks[index]!));
    if (missed.length > 0) {
      console.log(`\n${row.name}: answers not in the top 10 (${missed.length}):`);
      for (const question of missed) console.log(`  [${question.kind}] ${JSON.stringify(question.text)} -> ${question.answer.slug}`);
    }
    console.log("");
  }
}
