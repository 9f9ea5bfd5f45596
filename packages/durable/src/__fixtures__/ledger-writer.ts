/**
 * A child process for the crash test: writes a run of calls to a ledger
 * (approve some, start, finish), resuming whatever an earlier, killed
 * writer left, and prints one line per acknowledged write:
 *   approved <callId> | started <callId> <attempts> | finished <callId> <attempt>
 * then `done`. Usage: ledger-writer.ts sqlite <dataDir> <runId> <count>
 *                  or ledger-writer.ts postgres <url> <runId> <count>
 */
import { createHash } from "node:crypto";
import type { CallLedger, CallLedgerCall, CallLedgerEntry } from "@agent-tools/core/durable";
import { type Storage, openPostgresStorage, openSqliteStorage } from "@agent-tools/storage";
import { KyselyCallLedger } from "../index.js";

/** The call `index` of the run: its identity is a function of the index, so the parent can check it. */
export function writerCall(runId: string, index: number): CallLedgerCall {
  return {
    runId,
    callId: `c${index}`,
    toolName: index % 2 === 0 ? "Bash" : "Write",
    argumentsHash: createHash("sha256").update(String(index)).digest("hex"),
    effects: index % 2 === 0 ? "unsafe" : "idempotent",
  };
}

/** The text of the result the writer records for an attempt. */
export function writerResultText(callId: string, attempt: number): string {
  return `${callId} attempt ${attempt} ${"✓".repeat(attempt)}`;
}

/** Writes calls 0..count-1 of the run, resuming what an earlier writer left; `say` acknowledges each write once it resolved. */
export async function writeRun(ledger: CallLedger, runId: string, count: number, say: (line: string) => void): Promise<void> {
  for (let index = 0; index < count; index += 1) {
    const call = writerCall(runId, index);
    let entry: CallLedgerEntry | undefined = await ledger.get(call);
    if (entry?.state === "completed" || entry?.state === "failed") continue;
    if (index % 3 === 0 && entry === undefined) {
      entry = await ledger.approve(call);
      say(`approved ${call.callId}`);
    }
    const claim = await ledger.start(call, entry?.state === "started" ? entry.attempts : 0);
    if (!claim.claimed) throw new Error(`lost the claim of ${call.callId}: ${JSON.stringify(claim.entry)}`);
    say(`started ${call.callId} ${claim.entry.attempts}`);
    const attempt = claim.entry.attempts;
    const text = writerResultText(call.callId, attempt);
    const result = { content: [{ type: "text" as const, text }], details: { attempt, padding: "x".repeat(2000) }, isError: false };
    if (!(await ledger.finish(call, attempt, { state: index % 5 === 4 ? "failed" : "completed", result }))) throw new Error(`finish refused: ${call.callId}`);
    say(`finished ${call.callId} ${attempt}`);
  }
}

async function main(): Promise<void> {
  const [backend, location, runId, countText] = process.argv.slice(2);
  const storage: Storage =
    backend === "postgres" ? await openPostgresStorage({ connectionString: location! }) : await openSqliteStorage({ dataDir: location! });
  const ledger = await KyselyCallLedger.open(storage);
  const say = (line: string) => process.stdout.write(`${line}\n`); // a pipe on Linux: written synchronously
  say("ready");
  await writeRun(ledger, runId!, Number(countText), say);
  await storage.close();
  say("done");
}

if (process.argv[1]?.endsWith("ledger-writer.ts")) {
  main().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  });
}
