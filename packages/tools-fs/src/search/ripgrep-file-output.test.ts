import { chmodSync, mkdtempSync, readdirSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ToolError } from "@agent-tools/core";
import { ripgrepArguments, runChecked } from "./grep-ripgrep.js";
import { locateRipgrep, runRipgrep } from "./ripgrep.js";

const rgPath = locateRipgrep();
let root: string;
const args = ripgrepArguments({ pattern: "needle", ignoreCase: false, multiline: false, context: 0 });

/** The anonymous output files of this process still in the temporary directory (there should be none). */
function leftoverFiles(): string[] {
  return readdirSync(os.tmpdir()).filter((name) => name.startsWith(`.agent-tools-rg-${process.pid}-`));
}

beforeAll(() => {
  root = realpathSync(mkdtempSync(path.join(os.tmpdir(), "tools-fs-rg-file-")));
  for (let index = 0; index < 40; index += 1) {
    const lines = Array.from({ length: 2_000 }, (_, line) => (line % 3 === 0 ? `needle ${index}:${line} ${"é".repeat(line % 50)}` : "hay"));
    writeFileSync(path.join(root, `file-${index}.txt`), `${lines.join("\n")}\n`);
  }
});
afterAll(() => rmSync(root, { recursive: true, force: true }));
afterEach(() => expect(leftoverFiles()).toEqual([]));

describe.skipIf(!rgPath)("runRipgrep with outputFile", () => {
  it("gives the bytes the pipe gives, returned or handed to onStdout in one chunk", async () => {
    // One thread: the output order is then the same from run to run.
    const ordered = ["--threads", "1", "--sort", "path", ...args];
    const piped = await runRipgrep(rgPath!, ordered, { cwd: root });
    expect(piped.stdout.length).toBeGreaterThan(1_000_000);
    const filed = await runRipgrep(rgPath!, ordered, { cwd: root, outputFile: true });
    expect(filed.exitCode).toBe(0);
    expect(filed.stdout.equals(piped.stdout)).toBe(true);
    expect(filed.stdoutBytes).toBe(piped.stdoutBytes);
    const chunks: Buffer[] = [];
    const handed = await runRipgrep(rgPath!, ordered, { cwd: root, outputFile: true, onStdout: (chunk) => chunks.push(chunk) });
    expect(handed.stdout.length).toBe(0);
    expect(chunks).toHaveLength(1);
    expect(chunks[0]!.equals(piped.stdout)).toBe(true);
  });

  it("stops a run printing more than maxStdoutBytes", async () => {
    const output = await runRipgrep(rgPath!, args, { cwd: root, outputFile: true, maxStdoutBytes: 10_000 });
    expect(output.exceeded).toBe(true);
    expect(output.stdout.length).toBe(0);
  });

  it("kills the run when the signal aborts, and rejects with its reason", async () => {
    const controller = new AbortController();
    const running = runRipgrep(rgPath!, args, { cwd: root, outputFile: true, signal: controller.signal });
    controller.abort(new Error("stopped by the test"));
    await expect(running).rejects.toThrow("stopped by the test");
  });

  it("reports ripgrep's failure (exit code and stderr) as the pipe does", async () => {
    const output = await runRipgrep(rgPath!, ["--no-config", "--regexp", "(", "."], { cwd: root, outputFile: true });
    expect(output.exitCode).toBe(2);
    expect(output.stderr).toMatch(/regex parse error/);
  });

  it("falls back to the pipe when no temporary file can be made", async () => {
    const saved = process.env.TMPDIR;
    process.env.TMPDIR = path.join(root, "missing-directory");
    try {
      const output = await runRipgrep(rgPath!, ["--threads", "1", "--sort", "path", ...args], { cwd: root, outputFile: true });
      expect(output.exitCode).toBe(0);
      expect(output.stdout.toString("utf8")).toContain("needle 39:1998");
    } finally {
      if (saved === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = saved;
    }
  });
});

/** Writes an executable shell script standing in for ripgrep. */
function fakeRipgrep(name: string, body: string): string {
  const file = path.join(root, name);
  writeFileSync(file, `#!/bin/sh\n${body}\n`);
  chmodSync(file, 0o755);
  return file;
}

describe("runRipgrep when the output cannot be trusted", () => {
  it("runs again through the pipe when the file system refuses the output file (ripgrep goes on, missing those files)", async () => {
    // Into a regular file (the temporary file) it reports a full disk, as ripgrep does per file it cannot write; into a pipe it prints all.
    const rg = fakeRipgrep(
      "rg-disk-full.sh",
      `if [ -f /dev/stdout ]; then printf 'part'; echo "rg: ./b.txt: No space left on device (os error 28)" >&2; exit 2; fi\nprintf 'whole output'`,
    );
    const output = await runRipgrep(rg, [], { cwd: root, outputFile: true });
    expect(output.stdout.toString()).toBe("whole output");
    expect(output.exitCode).toBe(0);
  });

  it.each([false, true])("refuses a result ripgrep did not finish because a signal ended it (output file: %s)", async (outputFile) => {
    const rg = fakeRipgrep("rg-killed.sh", "printf './a.txt\\0001:needle\\n'; kill -9 $$");
    const output = await runRipgrep(rg, [], { cwd: root, outputFile });
    expect(output.endedBySignal).toBe("SIGKILL");
    const error = await runChecked({ rgPath: rg, directory: root, args: [], signal: undefined }, { outputFile }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ToolError);
    expect((error as ToolError).message).toMatch(/ended by SIGKILL before it finished/);
  });
});
