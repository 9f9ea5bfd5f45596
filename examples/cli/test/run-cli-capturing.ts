/**
 * Runs the CLI in-process with captured output, for the tests.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { PassThrough } from "node:stream";
import { runCli } from "../src/run-cli.js";

/** What a CLI run produced. */
export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
  /** The `--json` lines, parsed. */
  events: Array<Record<string, any>>;
}

/**
 * Runs the CLI with `argv` in `cwd`, with an empty environment and a stdin
 * that is not a terminal. The SDK's data directory is a temporary one, never
 * the user's `~/.agent-tools`.
 */
export async function runCliCapturing(argv: string[], cwd: string): Promise<CliRun> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = "";
  let err = "";
  stdout.on("data", (chunk: Buffer) => (out += chunk.toString("utf8")));
  stderr.on("data", (chunk: Buffer) => (err += chunk.toString("utf8")));
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "cli-data-"));
  let code: number;
  try {
    code = await runCli({
      argv: argv.includes("--data-dir") ? argv : ["--data-dir", dataDir, ...argv],
      env: {},
      cwd,
      stdin: new PassThrough(),
      stdout,
      stderr,
    });
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
  const events = argv.includes("--json")
    ? out
        .trim()
        .split("\n")
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Record<string, any>)
    : [];
  return { code, stdout: out, stderr: err, events };
}
