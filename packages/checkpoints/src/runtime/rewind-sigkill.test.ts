import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chmodSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { openSqliteStorage } from "@agent-tools/storage";
import { afterAll, describe, expect, it } from "vitest";
import { KyselyCheckpointStore } from "../stores/kysely-checkpoint-store.js";
import { createFileCheckpoints } from "./create-file-checkpoints.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const child = path.join(here, "__fixtures__", "rewind-child.ts");
const repositoryRoot = path.resolve(here, "../../../..");
const temporary = realpathSync(mkdtempSync(path.join(os.tmpdir(), "agent-tools-rewind-kill-")));
afterAll(() => rmSync(temporary, { recursive: true, force: true }));

/** A file's two acceptable states: before the checkpoint (old) and after its change (new); undefined = absent. */
interface Expected {
  old?: { bytes: Buffer; mode: number };
  new?: { bytes: Buffer; mode: number };
}

function stateOf(file: string): { bytes: Buffer; mode: number } | undefined {
  try {
    const info = lstatSync(file);
    return { bytes: readFileSync(file), mode: info.mode & 0o7777 };
  } catch {
    return undefined;
  }
}

function same(left: { bytes: Buffer; mode: number } | undefined, right: { bytes: Buffer; mode: number } | undefined): boolean {
  if (left === undefined || right === undefined) return left === right;
  return left.mode === right.mode && left.bytes.equals(right.bytes);
}

/** Starts the rewind child; resolves its process once it has printed `lines` progress lines (or finished). */
function startRewind(
  sqlite: string,
  checkpointId: string,
  lines: number,
): Promise<{ process_: ChildProcess; exited: Promise<number | null>; output: () => string }> {
  const process_ = spawn(process.execPath, ["--import", "tsx", "--conditions=@agent-tools/source", child, sqlite, checkpointId], {
    cwd: repositoryRoot,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  let errors = "";
  process_.stdout!.setEncoding("utf8");
  process_.stderr!.setEncoding("utf8");
  process_.stderr!.on("data", (chunk: string) => {
    errors += chunk;
  });
  const exited = new Promise<number | null>((resolve) => process_.on("exit", (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const check = () => {
      const progress = output.split("\n").filter((line) => /^(restored|removed|unchanged|conflict) /.test(line)).length;
      if (progress >= lines || output.includes("finished")) resolve({ process_, exited, output: () => output });
    };
    process_.stdout!.on("data", (chunk: string) => {
      output += chunk;
      check();
    });
    void exited.then((code) => {
      if (!output.includes("finished") && process_.signalCode === null) reject(new Error(`the rewind child exited ${code}: ${errors}`));
      check();
    });
  });
}

// 10 kills in the regular suite; CHECKPOINT_KILL_ROUNDS=50 (or more) for a longer soak.
const ROUNDS = Math.max(4, Number(process.env.CHECKPOINT_KILL_ROUNDS ?? 10));

describe("a rewind killed with SIGKILL", () => {
  it(`leaves every file either as it was or restored, never torn, and a second rewind completes (${ROUNDS} kills at different moments)`, async () => {
    const sqlite = path.join(temporary, "checkpoints.sqlite");
    const storage = await openSqliteStorage({ filename: sqlite });
    try {
      const checkpoints = createFileCheckpoints({ store: await KyselyCheckpointStore.open(storage) });
      const fileCount = 24;
      let killedMidway = 0;
      let killedMidFile = 0;
      for (let round = 0; round < ROUNDS; round += 1) {
        const workdir = path.join(temporary, `round-${round}`);
        const checkpointId = `round-${round}`;
        const expected = new Map<string, Expected>();
        mkdirSync(workdir);
        // Old states: files of 128 to 512 KiB (so a kill often lands mid-write), modes 0644 / 0755; some created, some deleted.
        for (let index = 0; index < fileCount; index += 1) {
          const file = path.join(workdir, `f${index}.bin`);
          const kind = index % 4; // 0, 1: modified; 2: created; 3: deleted
          const old = kind === 2 ? undefined : { bytes: randomBytes(128 * 1024 * (1 + (index % 4))), mode: index % 2 === 0 ? 0o644 : 0o755 };
          if (old) {
            writeFileSync(file, old.bytes);
            chmodSync(file, old.mode);
          }
          const request = { checkpointId, path: file, toolName: "Write", callId: `c${index}` };
          await checkpoints.beforeChange(request);
          const next = kind === 3 ? undefined : { bytes: randomBytes(64 * 1024 * (1 + (index % 3))), mode: old?.mode ?? 0o644 };
          if (next) writeFileSync(file, next.bytes);
          else unlinkSync(file);
          await checkpoints.afterChange(request);
          expected.set(file, { old, new: next });
        }

        // Kill after a different number of finished files each round (0 = as soon as it prints anything).
        const after = Math.floor((round * (fileCount + 1)) / ROUNDS) % (fileCount + 1);
        const started = await startRewind(sqlite, checkpointId, after);
        started.process_.kill("SIGKILL");
        await started.exited;
        let restoredBeforeKill = 0;
        for (const [file, states] of expected) {
          const now = stateOf(file);
          expect(same(now, states.old) || same(now, states.new), `${file} after a kill in round ${round}`).toBe(true);
          if (same(now, states.old) && !same(states.old, states.new)) restoredBeforeKill += 1;
        }
        if (restoredBeforeKill > 0 && restoredBeforeKill < fileCount) killedMidway += 1;
        if (readdirSync(workdir).some((name) => name.endsWith(".tmp"))) killedMidFile += 1;

        // A second rewind finishes the job (here in this process; the killed one's temporary file is swept).
        const report = await checkpoints.rewindCheckpoint(checkpointId);
        expect(report.conflicts).toEqual([]);
        expect(report.restored.length + report.removed.length + report.unchanged.length).toBe(fileCount);
        for (const [file, states] of expected) expect(same(stateOf(file), states.old), `${file} after the second rewind in round ${round}`).toBe(true);
        // No temporary file survives: the second rewind swept the killed one's.
        expect(readdirSync(workdir).filter((name) => name.startsWith("."))).toEqual([]);
      }
      // The kills really landed inside rewinds: with some files restored and others not.
      expect(killedMidway).toBeGreaterThanOrEqual(Math.floor(ROUNDS / 4));
      console.info(`rewinds killed part-way: ${killedMidway} of ${ROUNDS}; with a temporary file being written: ${killedMidFile}`);
    } finally {
      await storage.close();
    }
  }, 600_000);
});
