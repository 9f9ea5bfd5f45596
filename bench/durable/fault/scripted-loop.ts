/**
 * The scripted loop every fault host runs (plain, inside a Restate handler,
 * inside a DBOS workflow): each call of the script through `execute`, its
 * result appended to `results.log` (fsync) before the next call, progress
 * lines on stdout (`start <id>`, `done <id>`, `finished`) for the harness.
 */
import { closeSync, fsyncSync, openSync, writeSync } from "node:fs";
import type { ToolCall, ToolResult } from "@agent-tools/core";
import { canonicalHash } from "./canonical-hash.js";
import type { FaultHostConfig, ResultLine } from "./host-config.js";
import { scriptedCalls } from "./scripted-calls.js";

/** Prints one progress line for the harness. */
export function say(line: string): void {
  process.stdout.write(`${line}\n`);
}

function appendResult(file: string, line: ResultLine): void {
  const descriptor = openSync(file, "a");
  try {
    writeSync(descriptor, `${JSON.stringify(line)}\n`);
    fsyncSync(descriptor);
  } finally {
    closeSync(descriptor);
  }
}

function resultLine(config: FaultHostConfig, callId: string, result: ToolResult): ResultLine {
  const line: ResultLine = { runId: config.runId, callId, resultHash: canonicalHash(result), isError: result.isError, pid: process.pid };
  return result.error === undefined ? line : { ...line, code: result.error.code };
}

/** Runs the script through `execute`; answers the results in order. */
export async function runScriptedLoop(config: FaultHostConfig, execute: (call: ToolCall) => Promise<ToolResult>): Promise<ToolResult[]> {
  const results: ToolResult[] = [];
  for (const { call } of scriptedCalls(config.groups)) {
    say(`start ${call.id}`);
    const result = await execute(call);
    appendResult(config.resultsLog, resultLine(config, call.id, result));
    results.push(result);
    say(`done ${call.id}`);
  }
  say("finished");
  return results;
}
