import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { PassThrough } from "node:stream";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "../src/run-cli.js";
import { SAMPLE_BUGGY_FILE, SAMPLE_BUGGY_LINE, SAMPLE_PROJECT_DIR, prepareDemoProject, readSampleFixState } from "../src/demo/sample-project.js";

type Event = Record<string, any>;

const cleanups: string[] = [];
afterAll(() => {
  for (const dir of cleanups) rmSync(dir, { recursive: true, force: true });
});

function runSampleTests(dir: string) {
  return spawnSync(process.execPath, ["--test", "--test-reporter=spec"], { cwd: dir, encoding: "utf8", timeout: 60_000 });
}

describe("the offline demo, end to end", () => {
  it("prepares a copy with the bug in and CRLF line endings", () => {
    const project = prepareDemoProject();
    try {
      expect(readSampleFixState(project.workdir)).toEqual({ fixed: false, crlfKept: true });
    } finally {
      project.remove();
    }
  });

  it("starts from a sample whose tests fail", () => {
    const copy = mkdtempSync(path.join(os.tmpdir(), "cli-sample-"));
    cleanups.push(copy);
    cpSync(SAMPLE_PROJECT_DIR, copy, { recursive: true });
    const run = runSampleTests(copy);
    expect(run.status).not.toBe(0);
    expect(run.stdout).toMatch(/a 25% discount applies to the whole cart/);
  });

  it("finds and fixes the bug, runs the sample's tests and exits 0", async () => {
    const stdout = new PassThrough();
    let out = "";
    stdout.on("data", (chunk: Buffer) => (out += chunk.toString("utf8")));
    const stderr = new PassThrough();
    let err = "";
    stderr.on("data", (chunk: Buffer) => (err += chunk.toString("utf8")));
    const code = await runCli({ argv: ["--demo", "--yes", "--json", "--keep"], env: {}, cwd: os.tmpdir(), stdin: new PassThrough(), stdout, stderr });
    const events: Event[] = out
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    const start = events.find((event) => event.type === "session-start")!;
    const workdir: string = start.workdir;
    cleanups.push(path.dirname(workdir));

    expect(err).toBe("");
    expect(code).toBe(0);
    expect(events.at(-2)).toMatchObject({ type: "notice", message: expect.stringContaining(path.dirname(workdir)) });
    expect(events.at(-1)).toMatchObject({ type: "session-end", status: "answered", failedToolCalls: 0 });

    // The tools the brief asks for all ran, in a sensible order, without errors.
    const ends: Event[] = events.filter((event) => event.type === "tool-end");
    const names = ends.map((event) => event.toolName);
    for (const name of ["TaskCreate", "TaskUpdate", "Glob", "Grep", "Read", "Edit", "Bash", "ProcessWait"]) expect(names).toContain(name);
    expect(names.indexOf("Grep")).toBeLessThan(names.indexOf("Edit"));
    expect(names.indexOf("Edit")).toBeLessThan(names.indexOf("Bash"));
    expect(ends.every((event) => event.isError === false)).toBe(true);

    // The Edit met a CRLF file with an LF old_string: the tolerant matcher said so.
    const edit = ends.find((event) => event.toolName === "Edit")!;
    expect(edit.details.matchStrategy).toBe("line-endings");

    // The Bash session was running at first and ProcessWait followed it to a clean exit.
    const bash = ends.find((event) => event.toolName === "Bash")!;
    expect(bash.details.status).toBe("running");
    const waits = ends.filter((event) => event.toolName === "ProcessWait");
    expect(waits.at(-1)!.details.status).toBe("completed");
    expect(waits.at(-1)!.details.exit_code).toBe(0);
    const shellText = ends
      .filter((event) => event.toolName === "Bash" || event.toolName === "ProcessWait")
      .map((event) => event.text)
      .join("\n");
    expect(shellText).toMatch(/a 25% discount applies to the whole cart/);
    expect(shellText).toMatch(/fail 0/);

    // The sample file really changed, kept its CRLF line endings, and its tests pass now.
    expect(readSampleFixState(workdir)).toEqual({ fixed: true, crlfKept: true });
    const after = runSampleTests(workdir);
    expect(after.status, after.stdout + after.stderr).toBe(0);

    // The shipped sample itself is untouched.
    expect(readFileSync(path.join(SAMPLE_PROJECT_DIR, SAMPLE_BUGGY_FILE), "utf8")).toContain(SAMPLE_BUGGY_LINE);
    expect(execFileSync("git", ["status", "--porcelain", "--", SAMPLE_PROJECT_DIR], { encoding: "utf8" })).toBe("");
  });
});
