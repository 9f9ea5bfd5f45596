import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createHarness, detailsOf } from "./__fixtures__/harness.js";

// The shell's acceptance prompt (start the tests in a session, wait for them), run as a model would run it:
// a git baseline, one long test command started once, ProcessWait with the
// latest cursor until a final status, then the baseline compared again.

const TEST_SCRIPT = `
import { appendFileSync } from "node:fs";
appendFileSync(process.env.ACCEPTANCE_RUN_LOG, "started\\n");
const total = 12;
let done = 0;
const timer = setInterval(() => {
  done += 1;
  process.stdout.write("ok " + done + " - case " + done + "\\n" + "#".repeat(40 * 1024) + "\\n");
  if (done === total) {
    clearInterval(timer);
    process.stdout.write("# tests " + total + "\\n# pass " + total + "\\n# fail 0\\n");
  }
}, 250);
`;

let harness: ReturnType<typeof createHarness>;
let scratch: string;
afterEach(async () => {
  await harness?.cleanup();
  rmSync(scratch, { recursive: true, force: true });
});

function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", args, { cwd, encoding: "utf8" });
}

describe("acceptance prompt: one long Bash session followed with ProcessWait", () => {
  it("runs the test command once, follows it to a final status and leaves the git baseline unchanged", async () => {
    scratch = mkdtempSync(path.join(os.tmpdir(), "acceptance-"));
    const runLog = path.join(scratch, "runs.log");
    harness = createHarness("chat", { env: { ACCEPTANCE_RUN_LOG: runLog } });
    const repo = harness.workdir;
    git(repo, "init", "-q", "-b", "main");
    git(repo, "config", "user.email", "test@example.com");
    git(repo, "config", "user.name", "Test");
    writeFileSync(path.join(repo, "long-test.mjs"), TEST_SCRIPT);
    writeFileSync(path.join(repo, "README.md"), "# repo\n");
    git(repo, "add", ".");
    git(repo, "commit", "-q", "-m", "initial");
    writeFileSync(path.join(repo, "README.md"), "# repo (edited)\n");
    writeFileSync(path.join(repo, "notes.txt"), "untracked\n");

    // 1. Baseline.
    const before = await harness.call("Bash", { command: "git status --porcelain=v1" });
    expect(detailsOf(before).status).toBe("completed");
    const baseline = detailsOf(before)
      .output.map((fragment: { text: string }) => fragment.text)
      .join("");
    expect(baseline).toBe(" M README.md\n?? notes.txt\n");

    // 2. Start the long test command once.
    const testCommand = `${JSON.stringify(process.execPath)} long-test.mjs`;
    const started = await harness.call("Bash", { command: testCommand });
    const sessionId = detailsOf(started).session_id;
    expect(detailsOf(started).status).toBe("running");
    const responses = [detailsOf(started)];

    // 3-4. ProcessWait with the latest cursor until a final status.
    let waits = 0;
    while (responses.at(-1)!.status === "running") {
      const previous = responses.at(-1)!;
      const waited = await harness.call("ProcessWait", { session_id: sessionId, cursor: previous.cursor, yield_time_ms: 60_000 });
      expect(waited.isError).toBe(false);
      responses.push(detailsOf(waited));
      waits += 1;
    }
    const final = responses.at(-1)!;

    // 5. Baseline again.
    const after = await harness.call("Bash", { command: "git status --porcelain=v1" });
    const afterText = detailsOf(after)
      .output.map((fragment: { text: string }) => fragment.text)
      .join("");

    // 6. The report.
    const output = responses.flatMap((response) => response.output.map((fragment: { text: string }) => fragment.text)).join("");
    const cursors = responses.map((response) => response.cursor);
    const durations = responses.map((response) => response.duration_ms);
    const report = {
      testCommandStarts: readFileSync(runLog, "utf8").split("\n").filter(Boolean).length,
      processWaitCalls: waits,
      sessionId,
      cursors,
      finalStatus: final.status,
      exitCode: final.exit_code,
      sessionDurationMs: final.duration_ms,
      outputTruncated: responses.some((response) => response.output_truncated),
      tests: /# pass (\d+)\n# fail (\d+)/.exec(output)?.slice(1).map(Number),
      baselineUnchanged: afterText === baseline,
    };
    expect(report.testCommandStarts).toBe(1);
    expect(report.processWaitCalls).toBeGreaterThanOrEqual(2);
    expect(report.finalStatus).toBe("completed");
    expect(report.exitCode).toBe(0);
    expect(report.outputTruncated).toBe(false);
    expect(report.tests).toEqual([12, 0]);
    expect(report.baselineUnchanged).toBe(true);
    // Cursors advance and end at the last byte; every byte was read exactly once.
    for (let index = 1; index < cursors.length; index += 1) expect(cursors[index]!).toBeGreaterThanOrEqual(cursors[index - 1]!);
    expect(final.cursor).toBe(final.next_cursor);
    expect(Buffer.byteLength(output)).toBe(final.cursor);
    expect(output.match(/^ok \d+ - case \d+$/gm)).toEqual(Array.from({ length: 12 }, (_, index) => `ok ${index + 1} - case ${index + 1}`));
    // session_duration_ms is cumulative from the start: it never decreases, and the final
    // value is the whole session, not a sum of the responses.
    for (let index = 1; index < durations.length; index += 1) expect(durations[index]!).toBeGreaterThanOrEqual(durations[index - 1]!);
    expect(report.sessionDurationMs).toBe(durations.at(-1));
    expect(report.sessionDurationMs).toBeLessThan(durations.reduce((sum, value) => sum + value, 0));
  });
});
