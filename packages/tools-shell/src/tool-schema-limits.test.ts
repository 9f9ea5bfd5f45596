import type { ToolSchema } from "@agent-tools/core";
import { afterAll, describe, expect, it } from "vitest";
import { createHarness } from "./__fixtures__/harness.js";
import { DEFAULT_PAGE_BYTES, DEFAULT_RING_CAPACITY } from "./output-ring-buffer.js";
import { STOP_WAIT_MS } from "./session-respond.js";
import { DEFAULT_TIMEOUT_LIMITS, MAX_TIMEOUT_MS, MIN_TIMEOUT_MS, SESSION_YIELD, WAIT_YIELD } from "./timeout-policy.js";

// The shell tools' descriptions are kept short (every token is paid on every
// model call), but each limit and rule the model needs must still be stated in
// the text it reads: the schema carries no default or range for these numbers.

const chat = createHarness("chat");
const cron = createHarness("cron");
afterAll(async () => {
  await chat.cleanup();
  await cron.cleanup();
});

function named(harness: ReturnType<typeof createHarness>, name: string): ToolSchema {
  const found = harness.registry.tools.find((tool) => tool.name === name);
  if (!found) throw new Error(`no ${name} tool`);
  return found;
}

const bash = (harness: ReturnType<typeof createHarness>): ToolSchema => named(harness, "Bash");

/** `min..max` and the default of a wait, as the text states them. */
const waitRange = (yieldLimits: { defaultMs: number; minMs: number; maxMs: number }): string[] => [
  `default ${yieldLimits.defaultMs}`,
  `${yieldLimits.minMs}..${yieldLimits.maxMs}`,
];

/** The description of one parameter. */
function described(tool: ToolSchema, key: string): string {
  const properties = tool.inputSchema.properties as Record<string, { description?: string }>;
  return properties[key]?.description ?? "";
}

/** The tool's description, then each parameter's, as the model reads them. */
function text(tool: ToolSchema): string {
  return [tool.description, ...Object.keys(tool.inputSchema.properties as object).map((key) => `${key}: ${described(tool, key)}`)].join("\n");
}

describe("limits and rules the shell tools' schemas still state", () => {
  it("resumable Bash: yield and timeout ranges and defaults, the ProcessWait loop, statuses, buffers, refused commands", () => {
    const tool = bash(chat);
    const all = text(tool);
    expect(described(tool, "yield_time_ms")).toContain(`default ${SESSION_YIELD.defaultMs}`);
    expect(described(tool, "yield_time_ms")).toContain(`${SESSION_YIELD.minMs}..${SESSION_YIELD.maxMs}`);
    expect(described(tool, "timeout_ms")).toContain(`${MIN_TIMEOUT_MS}..${MAX_TIMEOUT_MS}`);
    expect(described(tool, "timeout_ms")).toMatch(/default: none/);
    expect(described(tool, "timeout_ms")).toMatch(/whole process tree is killed/);
    expect(described(tool, "timeout_ms")).toContain("timed_out");
    expect(all).toContain("ProcessWait(session_id, cursor)");
    expect(all).toMatch(/latest cursor/);
    expect(all).toContain("ProcessStop(session_id)");
    expect(all).toMatch(/Never start the same command again/);
    expect(all).toMatch(/never wait with sleep/);
    expect(all).toMatch(/"sleep N" with N >= 2 is refused/);
    expect(all).toMatch(/completed, failed \(non-zero exit or could not start\), cancelled \(not an error\), timed_out/);
    expect(all).toContain(`${DEFAULT_RING_CAPACITY / 1024 / 1024} MiB buffer`);
    expect(all).toContain(`at most ${DEFAULT_PAGE_BYTES / 1024} KiB`);
    expect(all).toMatch(/output_truncated: older output was dropped/);
    expect(all).toMatch(/has_more: more is already buffered/);
    expect(all).toMatch(/session_duration_ms counts from the first Bash start; never add it up/);
    expect(all).toMatch(/bare "&" job is refused unless it redirects both stdout and stderr/);
    expect(all).toContain("ManagedProcess");
    expect(described(tool, "cwd")).toMatch(/default: the workspace root/);
    expect(described(tool, "cwd")).toContain("skill://<name>/...");
    expect(described(tool, "cwd")).toContain("not root://");
    expect(described(tool, "command")).toMatch(/own process group/);
  });

  it("synchronous Bash (cron): the provider's default and maximum timeout, the output cap", () => {
    const all = text(bash(cron));
    expect(all).toContain(`default ${DEFAULT_TIMEOUT_LIMITS.defaultMs}, at most ${DEFAULT_TIMEOUT_LIMITS.maxMs} (at least ${MIN_TIMEOUT_MS})`);
    expect(all).toContain("400 KiB");
    expect(all).toMatch(/bare "&" background job is refused unless it redirects both stdout and stderr/);
  });

  it("ProcessWait: when it returns, its wait range, the cursor loop, Bash ids only", () => {
    const tool = named(chat, "ProcessWait");
    const all = text(tool);
    for (const stated of waitRange(WAIT_YIELD)) expect(described(tool, "yield_time_ms")).toContain(stated);
    expect(all).toContain(`${DEFAULT_PAGE_BYTES / 1024} KiB of output are unread`);
    expect(all).toMatch(/command ends/);
    expect(all).toMatch(/Pass the latest cursor; repeat while the status is running/);
    expect(described(tool, "cursor")).toMatch(/default: the oldest still buffered/);
    expect(all).toMatch(/Only for Bash session ids \("bash-\.\.\."\)/);
    expect(all).toContain('action="wait"');
  });

  it("ProcessStop: the whole tree, the grace wait, cancelled is not an error, an ended session's leftovers", () => {
    const all = text(named(chat, "ProcessStop"));
    expect(all).toMatch(/kills its whole process tree \(SIGTERM, then SIGKILL\)/);
    expect(all).toContain(`waits up to ${STOP_WAIT_MS / 1000} s`);
    expect(all).toMatch(/cancelled \(not an error\)/);
    expect(all).toMatch(/ended session it kills background processes/);
    expect(all).toMatch(/output after cursor/);
  });

  it("ManagedProcess: the actions, the log page and wait limits, no trailing &, isolation, ids apart from Bash's", () => {
    const tool = named(chat, "ManagedProcess");
    const all = text(tool);
    for (const action of ["start", "status", "read_log", "wait", "stop"]) expect(all).toContain(`${action} (`);
    expect(described(tool, "max_bytes")).toContain("default 65536, 1..524288");
    expect(described(tool, "cursor")).toContain("default 0");
    for (const stated of waitRange(WAIT_YIELD)) expect(described(tool, "yield_time_ms")).toContain(stated);
    expect(described(tool, "command")).toContain("no trailing &");
    expect(described(tool, "isolated")).toMatch(/outlive the host application \(default false\)/);
    expect(described(tool, "process_id")).toMatch(/required except for status/);
    expect(described(tool, "cwd")).toMatch(/default: the workspace root/);
    expect(described(tool, "cwd")).toContain("skill://");
    expect(all).toMatch(/kills the whole process tree/);
    expect(all).toMatch(/ProcessWait and ProcessStop take Bash session ids, never a process_id/);
  });
});
