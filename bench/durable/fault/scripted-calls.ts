/**
 * The scripted agent loop of the fault-injection harness: a fixed list of
 * mixed tool calls with deterministic ids (`call-<n>`), the same on every
 * run, so a resumed host sends exactly the calls it sent before the kill.
 *
 * Per group: Write a file (idempotent by content), Bash appending the call id
 * to `effects.log` (unsafe), Edit the file (idempotent when its result is
 * already there), the counting MCP tool (unsafe), Read the file (none). A
 * final Glob lists the files.
 */
import type { ToolCall } from "@agent-tools/core";

/** The file the Bash calls append to, relative to the workdir. */
export const EFFECTS_LOG = "effects.log";
/** The name the registry gives the counting server's tool (server id `counter`). */
export const COUNT_TOOL = "mcp_counter_count";
/** What kind of side effect a scripted call has, for counting. */
export type ScriptedEffect = "bash-append" | "mcp-count" | "file" | "read";

/** One call of the script and what it does outside the host. */
export interface ScriptedCall {
  readonly call: ToolCall;
  readonly effect: ScriptedEffect;
}

/** The script: `groups` groups of five calls, then one Glob (default 6 groups, 31 calls). */
export function scriptedCalls(groups = 6): ScriptedCall[] {
  const calls: ScriptedCall[] = [];
  const next = (name: string, effect: ScriptedEffect, args: Record<string, unknown>): void => {
    calls.push({ call: { id: `call-${calls.length + 1}`, name, arguments: args }, effect });
  };
  for (let group = 1; group <= groups; group += 1) {
    const file = `notes/note-${group}.txt`;
    next("Write", "file", { path: file, content: `note ${group}\nstatus: draft\nowner: the scripted loop\n` });
    next("Bash", "bash-append", { command: `printf 'call-${calls.length + 1}\\n' >> ${EFFECTS_LOG}` });
    next("Edit", "file", { path: file, old_string: "status: draft", new_string: `status: reviewed in group ${group}` });
    next(COUNT_TOOL, "mcp-count", { call: `call-${calls.length + 1}` });
    next("Read", "read", { path: file });
  }
  next("Glob", "read", { pattern: "notes/*.txt" });
  return calls;
}
