/**
 * SIGKILL at every instant of the executor's durable sequence (get -> approve -> start -> tool ->
 * finish) in a real child process with a real SQLite call ledger, then a new host resumes the run.
 * Never: an unsafe call's effect twice, a completed result lost or changed, an approval recorded and
 * asked again, a call left without an outcome after the resume, a second resume answering otherwise.
 * The suite kills at a few points; DURABLE_CRASH_ALL=1 kills at every point of every call.
 */
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { KyselyCallLedger } from "@agent-tools/durable";
import { openSqliteStorage } from "@agent-tools/storage";
import { afterAll, describe, expect, it } from "vitest";
// @ts-expect-error -- a plain ES module shared with the child host
import { runScenario } from "./durable-crash-scenario.mjs";

interface Result {
  content: { type: string; text?: string }[];
  isError: boolean;
  error?: { code: string };
}
type Results = Record<"c1" | "c2" | "c3", Result>;
const run = runScenario as (options: { workdir: string; dataDir: string; kill: string }) => Promise<Results>;

const here = path.dirname(fileURLToPath(import.meta.url));
const temporary = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "attack-durable-crash-")));
afterAll(() => fs.rmSync(temporary, { recursive: true, force: true }));

const LEDGER_POINTS = ["before-get", "after-get", "before-approve", "after-approve", "before-start", "after-start"];
const ALL_UNSAFE = [...LEDGER_POINTS, "tool-before", "tool-after", "before-finish", "after-finish"];
const ALL_IDEMPOTENT = ["after-get", "before-start", "after-start", "tool-before", "tool-after", "before-finish", "after-finish"];
const everyPoint = process.env.DURABLE_CRASH_ALL === "1";
const kills = [
  ...(everyPoint ? ALL_UNSAFE : ["after-approve", "tool-after", "after-finish"]).map((point) => `c1:${point}`),
  ...(everyPoint ? ALL_IDEMPOTENT : ["tool-after"]).map((point) => `c2:${point}`),
];

function layout(name: string) {
  const workdir = path.join(temporary, name.replace(":", "-"));
  fs.mkdirSync(workdir);
  return { workdir, dataDir: path.join(workdir, ".data") };
}

/** Runs the scenario in a child that kills itself at `kill`; resolves with its exit signal. */
function killedHost(where: { workdir: string; dataDir: string }, kill: string): Promise<string | null> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      ["--import", "tsx", "--conditions=@agent-tools/source", path.join(here, "durable-crash-host.mjs"), where.workdir, where.dataDir, kill],
      { cwd: here, timeout: 120_000 },
    );
    child.on("exit", (_code, signal) => resolve(signal));
  });
}

const lines = (file: string) => (fs.existsSync(file) ? fs.readFileSync(file, "utf8").split("\n").filter(Boolean) : []);
const count = (file: string, line: string) => lines(file).filter((each) => each === line).length;

describe("SIGKILL at each step of a durable call (SQLite ledger, real processes)", () => {
  it("resumes every kill point without a second effect of an unsafe call or a lost completed result", async () => {
    const reference = await run({ ...layout("reference"), kill: "none" });
    const wheres = kills.map((kill) => ({ kill, where: layout(kill) }));
    // Two at a time: the children are killed at their points whatever the load.
    const signals: (string | null)[] = [];
    for (let index = 0; index < wheres.length; index += 2) {
      signals.push(...(await Promise.all(wheres.slice(index, index + 2).map(({ kill, where }) => killedHost(where, kill)))));
    }
    expect(signals).toEqual(wheres.map(() => "SIGKILL"));
    for (const { kill, where } of wheres) {
      const [callId, point] = kill.split(":") as ["c1" | "c2", string];
      const resumed = await run({ ...where, kill: "none" });
      const again = await run({ ...where, kill: "none" });
      const effects = path.join(where.workdir, "effects.log");
      const context = `killed at ${kill}`;
      // A second resume answers exactly what the first did, and runs nothing.
      expect(again, context).toEqual(resumed);
      expect(count(effects, "c1"), context).toBeLessThanOrEqual(1);
      expect(count(effects, "c3"), context).toBe(1);
      expect(resumed.c3, context).toEqual(reference.c3);
      if (callId === "c1") {
        expect(resumed.c2, context).toEqual(reference.c2);
        const interrupted = ["after-start", "tool-before", "tool-after", "before-finish"].includes(point);
        if (interrupted) expect(resumed.c1.error?.code, context).toBe("outcome_unknown");
        else expect(resumed.c1, context).toEqual(reference.c1);
        expect(count(effects, "c1"), context).toBe(["after-start", "tool-before"].includes(point) ? 0 : 1);
        // Asked once, or twice when killed after the user answered and before the ledger recorded it.
        expect(count(path.join(where.workdir, "asks.log"), "c1"), context).toBe(point === "before-approve" ? 2 : 1);
      } else {
        // The idempotent Put runs again when interrupted, and its answer is the normal one.
        expect(resumed.c1, context).toEqual(reference.c1);
        expect(resumed.c2, context).toEqual(reference.c2);
        expect(fs.readFileSync(path.join(where.workdir, "put-k"), "utf8"), context).toBe("v");
        expect(count(path.join(where.workdir, "asks.log"), "c1"), context).toBe(1);
      }
      // Every call of the run has its outcome recorded.
      const storage = await openSqliteStorage({ dataDir: where.dataDir });
      try {
        const entries = await (await KyselyCallLedger.open(storage)).list("run-1");
        expect(
          entries.map((entry) => `${entry.callId} ${entry.state}`),
          context,
        ).toEqual(["c1", "c2", "c3"].map((id) => `${id} ${id === "c1" && callId === "c1" && resumed.c1.isError ? "failed" : "completed"}`));
      } finally {
        await storage.close();
      }
    }
  }, 600_000);
});
