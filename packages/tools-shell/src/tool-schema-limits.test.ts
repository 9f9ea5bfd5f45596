import type { ToolSchema } from "@agent-tools/core";
import { afterAll, describe, expect, it } from "vitest";
import { createHarness } from "./__fixtures__/harness.js";
import { DEFAULT_PAGE_BYTES, DEFAULT_RING_CAPACITY } from "./output-ring-buffer.js";
import { DEFAULT_TIMEOUT_LIMITS, MAX_TIMEOUT_MS, MIN_TIMEOUT_MS, SESSION_YIELD } from "./timeout-policy.js";

// The Bash descriptions are kept short (every token is paid on every model
// call), but each limit and rule the model needs must still be stated in the
// text it reads: the schema carries no default or range for these numbers.

const chat = createHarness("chat");
const cron = createHarness("cron");
afterAll(async () => {
  await chat.cleanup();
  await cron.cleanup();
});

function bash(harness: ReturnType<typeof createHarness>): ToolSchema {
  const found = harness.registry.tools.find((tool) => tool.name === "Bash");
  if (!found) throw new Error("no Bash tool");
  return found;
}

/** The description of one parameter. */
function described(tool: ToolSchema, key: string): string {
  const properties = tool.inputSchema.properties as Record<string, { description?: string }>;
  return properties[key]?.description ?? "";
}

/** The tool's description, then each parameter's, as the model reads them. */
function text(tool: ToolSchema): string {
  return [tool.description, ...Object.keys(tool.inputSchema.properties as object).map((key) => `${key}: ${described(tool, key)}`)].join("\n");
}

describe("limits and rules the Bash schemas still state", () => {
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
    expect(all).toMatch(/completed \(exit 0\), failed \(non-zero exit or could not start\), cancelled \(.*not an error\), timed_out/);
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
});
