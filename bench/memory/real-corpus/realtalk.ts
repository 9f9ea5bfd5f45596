/**
 * The REALTALK loader (github.com/danny911kr/REALTALK, `data/Chat_*.json`
 * only; `data/locomo/**` is LoCoMo, reserved for acceptance and never read).
 * Each conversation is one project scope; each message one entry (body
 * `<speaker>: <text>`, created at the message's time); each `qa` item one
 * question whose evidence dialog ids (`D<n>:<turn>`, matched by the message's
 * own `dia_id` field, not by its session key) become entry keys.
 */
import { type RealCorpusEntry, type RealCorpusQuestion, type RealDataset, descriptionOf } from "./corpus-types.js";
import { DEFAULT_REALTALK_DIR, openDataSource } from "./data-source.js";
import { questionKind } from "./question-kinds.js";

const DAY_MS = 86_400_000;
const HOW_TO_GET = "Get it with: git clone --depth 1 https://github.com/danny911kr/REALTALK (see bench/memory/real-corpus/README.md).";

interface RealtalkMessage {
  readonly clean_text?: string;
  readonly speaker?: string;
  readonly date_time?: string;
  readonly dia_id?: string;
}

interface RealtalkQa {
  readonly question: string;
  readonly evidence?: readonly string[];
  readonly category?: number;
}

/** `DD.MM.YYYY, HH:MM:SS` (the chats' own clock, read as UTC) as epoch ms. */
export function parseRealtalkTime(value: string): number {
  const match = /^(\d{2})\.(\d{2})\.(\d{4}),\s*(\d{2}):(\d{2}):(\d{2})$/.exec(value.trim());
  if (match === null) throw new Error(`REALTALK time not in DD.MM.YYYY, HH:MM:SS form: ${JSON.stringify(value)}`);
  const [, day, month, year, hour, minute, second] = match.map(Number) as number[];
  return Date.UTC(year!, month! - 1, day!, hour!, minute!, second!);
}

/**
 * The dialog ids one evidence item names: items are split on `;`, `,` and
 * spaces, a trailing `.` is dropped, and a range `D12:3-D12:5` (or `D12:3-5`)
 * is expanded to the ids of that session between the two turns that exist;
 * a range over two sessions (`D13:45-D20:19`, also written `D13:45:D20:19`)
 * stands for its two ends. Typing slips are mended first (`D 2:18`,
 * `D17: 39`, a bare `23:29`). Returns the groups: each group is satisfied
 * when any of its ids maps.
 */
export function evidenceGroups(item: string, known: ReadonlySet<string>): { readonly raw: string; readonly ids: readonly string[] }[] {
  const groups: { raw: string; ids: string[] }[] = [];
  const mended = item.replace(/\bD\s*(\d+)\s*:\s*(\d+)/g, "D$1:$2").replace(/(^|[\s;,])(\d+:\d+)/g, "$1D$2");
  for (const part of mended.split(/[;,\s]+/)) {
    const raw = part.trim().replace(/\.+$/, "");
    if (raw === "") continue;
    const range = /^D(\d+):(\d+)-(?:D(\d+):)?(\d+)$/.exec(raw);
    if (range !== null && (range[3] === undefined || range[3] === range[1])) {
      const ids: string[] = [];
      for (let turn = Number(range[2]); turn <= Number(range[4]); turn += 1) {
        const id = `D${range[1]}:${turn}`;
        if (known.has(id)) ids.push(id);
      }
      groups.push({ raw, ids });
    } else if (/^D\d+:\d+[-:]D\d+:\d+$/.test(raw)) {
      for (const end of raw.split(/[-:](?=D)/)) groups.push({ raw: end, ids: known.has(end) ? [end] : [] });
    } else groups.push({ raw, ids: known.has(raw) ? [raw] : [] });
  }
  return groups;
}

function projectOf(file: string): string {
  const match = /Chat_(\d+)_/.exec(file);
  return `realtalk-chat-${match?.[1] ?? file.replace(/\W+/g, "-")}`;
}

/**
 * Loads the ten REALTALK conversations from `dir` (a clone or the mirror's
 * git directory; default the mirror).
 */
export function loadRealtalk(dir: string = DEFAULT_REALTALK_DIR): RealDataset {
  const source = openDataSource(dir, "data", HOW_TO_GET);
  const files = source.list("data", /^Chat_.*\.json$/);
  if (files.length === 0) throw new Error(`no data/Chat_*.json in ${source.description}. ${HOW_TO_GET}`);
  const entries: RealCorpusEntry[] = [];
  const questions: RealCorpusQuestion[] = [];
  const projects: { name: string; now: number }[] = [];
  let unmappedEvidence = 0;
  let questionsWithoutEvidence = 0;
  const examples: string[] = [];
  for (const file of files) {
    const chat = JSON.parse(source.read(file)) as Record<string, unknown>;
    const project = projectOf(file);
    const byDiaId = new Map<string, RealCorpusEntry>();
    const sessionOf = new Map<string, string>();
    const sessions = Object.keys(chat)
      .filter((key) => /^session_\d+$/.test(key) && Array.isArray(chat[key]))
      .sort((left, right) => Number(left.slice(8)) - Number(right.slice(8)));
    let last = 0;
    for (const session of sessions) {
      for (const message of chat[session] as RealtalkMessage[]) {
        const text = (message.clean_text ?? "").trim();
        const at = parseRealtalkTime(message.date_time ?? "");
        last = Math.max(last, at);
        const slug = `msg-${String(byDiaId.size + 1).padStart(5, "0")}`;
        const entry: RealCorpusEntry = {
          key: `${project}/${slug}`,
          project,
          slug,
          description: descriptionOf(text) || "(no text)",
          body: `${message.speaker ?? "someone"}: ${text}`,
          createdAt: at,
          session,
        };
        if (message.dia_id === undefined || byDiaId.has(message.dia_id)) throw new Error(`${file}: message without a unique dia_id in ${session}`);
        byDiaId.set(message.dia_id, entry);
        sessionOf.set(entry.key, session);
        entries.push(entry);
      }
    }
    projects.push({ name: project, now: last + DAY_MS });
    const known = new Set(byDiaId.keys());
    for (const [index, qa] of ((chat.qa ?? []) as RealtalkQa[]).entries()) {
      const evidence = new Set<string>();
      for (const item of qa.evidence ?? []) {
        for (const group of evidenceGroups(item, known)) {
          if (group.ids.length === 0) {
            unmappedEvidence += 1;
            if (examples.length < 12) examples.push(`${file}: ${JSON.stringify(group.raw)}`);
          }
          for (const id of group.ids) evidence.add(byDiaId.get(id)!.key);
        }
      }
      if (evidence.size === 0) {
        questionsWithoutEvidence += 1;
        continue;
      }
      const evidenceSessions = new Set([...evidence].map((key) => sessionOf.get(key))).size;
      questions.push({
        id: `${project}#${index + 1}`,
        dataset: "realtalk",
        project,
        text: qa.question,
        evidence: [...evidence],
        kind: questionKind({ text: qa.question, ...(qa.category === undefined ? {} : { category: qa.category }), evidenceSessions }),
        ...(qa.category === undefined ? {} : { category: qa.category }),
      });
    }
  }
  return { name: "realtalk", entries, questions, projects, skips: { unmappedEvidence, questionsWithoutEvidence, examples } };
}
