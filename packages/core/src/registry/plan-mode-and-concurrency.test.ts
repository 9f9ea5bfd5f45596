import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { SdkError } from "../errors.js";
import type { ToolBundle, ToolDefinition, ToolResult } from "../types.js";
import { type ToolRegistry, type ToolRegistryOptions, createToolRegistry } from "./create-tool-registry.js";
import { defineTool } from "./define-tool.js";
import type { ToolEvent } from "./events.js";

const CANCELLED = "Cancelled: the host aborted this call before it finished.";

function bundle(id: string, tools: ToolDefinition[]): ToolBundle {
  return { id, trusted: true, listTools: () => tools };
}

function named(name: string, isReadOnly: boolean, metadata: Partial<ToolDefinition["metadata"]> = {}): ToolDefinition {
  return defineTool({
    name,
    description: `${name}.`,
    inputSchema: z.object({}),
    metadata: { isReadOnly, ...metadata },
    execute: () => ({ content: `${name} ran` }),
  });
}

/** A deferred whose promise a test resolves by hand. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, opened };
}

/** Waits until `condition` holds, checking every 5 ms; fails after 20 s. */
async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/**
 * A tool whose calls block until the test opens their gate; it records the
 * order calls started in and the most calls that ever ran at once.
 */
function blockingTool(name: string) {
  const state = { live: 0, max: 0, started: [] as string[], gates: new Map<string, ReturnType<typeof gate>>() };
  const gateOf = (tag: string) => {
    let found = state.gates.get(tag);
    if (!found) {
      found = gate();
      state.gates.set(tag, found);
    }
    return found;
  };
  const tool = defineTool({
    name,
    description: "Blocks until released.",
    inputSchema: z.object({ tag: z.string() }),
    execute: async ({ tag }) => {
      state.live += 1;
      state.max = Math.max(state.max, state.live);
      state.started.push(tag);
      try {
        await gateOf(tag).opened;
        return { content: `${tag} done` };
      } finally {
        state.live -= 1;
      }
    },
  });
  return { tool, state, release: (tag: string) => gateOf(tag).open() };
}

describe("plan mode", () => {
  let workdir: string;
  let registry: ToolRegistry | undefined;
  beforeEach(() => {
    workdir = mkdtempSync(path.join(os.tmpdir(), "plan-mode-"));
  });
  afterEach(async () => {
    await registry?.close();
    registry = undefined;
    rmSync(workdir, { recursive: true, force: true });
  });

  // Plan mode's exceptions carry the SDK's group and kind (a host tool that only shares the name is refused).
  const tools = [
    named("Look", true),
    named("Change", false),
    named("AskUserQuestion", false, { groupId: "system", kind: "ask_user" }),
    named("ExitPlanMode", false, { groupId: "system", kind: "exit_plan_mode" }),
    named("Agent", false, { groupId: "subagent", kind: "agent" }),
    named("SendMessage", false, { groupId: "subagent", kind: "message" }),
  ];
  const build = (options: Partial<ToolRegistryOptions> = {}) => {
    registry = createToolRegistry({ workdir, bundles: [bundle("b", tools)], ...options });
    return registry;
  };

  it("lists only read-only tools plus AskUserQuestion, ExitPlanMode, Agent and SendMessage, and refuses a call to any other tool", async () => {
    const events: ToolEvent[] = [];
    const r = build({ planMode: true, onEvent: (event) => events.push(event), approval: { policies: { Change: "allow" } } });
    expect(r.planMode).toBe(true);
    expect(r.tools.map((tool) => tool.name)).toEqual(["Look", "AskUserQuestion", "ExitPlanMode", "Agent", "SendMessage"]);
    expect(Object.keys(r.metadataByName)).toContain("Change");
    expect(r.hasTool("Change")).toBe(false);
    expect(r.approvalDecision("Change")).toBe("deny");
    // A call the model remembers from before plan mode: refused, whatever the approval rules say, and never started.
    const refused = await r.executeToolCall({ id: "1", name: "change", arguments: {} });
    expect(refused.isError).toBe(true);
    expect(refused.details).toMatchObject({ code: "permission_denied", planMode: true });
    expect(refused.content[0]).toMatchObject({ text: expect.stringContaining("Change cannot run in plan mode") });
    expect(events).toEqual([]);
    expect(await r.executeToolCall({ id: "2", name: "Look", arguments: {} })).toMatchObject({ isError: false });
    expect(await r.executeToolCall({ id: "3", name: "Agent", arguments: {} })).toMatchObject({ isError: false });
    expect(await r.executeToolCall({ id: "3b", name: "AskUserQuestion", arguments: {} })).toMatchObject({ isError: false });
    r.setPlanMode(false);
    expect(r.hasTool("Change")).toBe(true);
    expect(await r.executeToolCall({ id: "4", name: "Change", arguments: {} })).toMatchObject({
      isError: false,
      content: [{ type: "text", text: "Change ran" }],
    });
  });

  it("is off by default and toggles with setPlanMode, firing onToolsChanged once per change", () => {
    const r = build();
    expect(r.planMode).toBe(false);
    expect(r.tools.map((tool) => tool.name)).toContain("Change");
    let fired = 0;
    const seen: string[][] = [];
    const stop = r.onToolsChanged(() => {
      fired += 1;
      seen.push(r.tools.map((tool) => tool.name));
    });
    r.setPlanMode(true);
    r.setPlanMode(true);
    expect(fired).toBe(1);
    expect(seen[0]).not.toContain("Change");
    r.setPlanMode(false);
    expect(fired).toBe(2);
    expect(seen[1]).toContain("Change");
    stop();
    r.setPlanMode(true);
    expect(fired).toBe(2);
  });

  it("refuses a setPlanMode value that is not a boolean", () => {
    const r = build();
    expect(() => r.setPlanMode("yes" as unknown as boolean)).toThrow(SdkError);
    expect(r.planMode).toBe(false);
  });

  it("keeps a denied tool out in plan mode too", () => {
    const r = build({ planMode: true, approval: { policies: { Look: "deny" } } });
    expect(r.tools.map((tool) => tool.name)).toEqual(["AskUserQuestion", "ExitPlanMode", "Agent", "SendMessage"]);
  });
});

describe("per-tool-name concurrency", () => {
  let workdir: string;
  let registry: ToolRegistry | undefined;
  beforeEach(() => {
    workdir = mkdtempSync(path.join(os.tmpdir(), "tool-concurrency-"));
  });
  afterEach(async () => {
    await registry?.close();
    registry = undefined;
    rmSync(workdir, { recursive: true, force: true });
  });

  it("runs at most the name's limit at once under 20 parallel calls, in FIFO order, other names unaffected", async () => {
    const limited = blockingTool("Limited");
    const other = blockingTool("Other");
    registry = createToolRegistry({ workdir, bundles: [bundle("b", [limited.tool, other.tool])], concurrency: { limits: { Limited: 3 }, defaultLimit: 1 } });
    const r = registry;
    const tags = Array.from({ length: 20 }, (_, index) => `t${index}`);
    const calls = tags.map((tag) => r.executeToolCall({ id: tag, name: "Limited", arguments: { tag } }));
    await until(() => limited.state.started.length === 3, "three calls to start");
    // Other has a limit of 1 of its own, not shared with Limited's queue.
    const otherCall = r.executeToolCall({ id: "o", name: "Other", arguments: { tag: "o" } });
    await until(() => other.state.started.length === 1, "the other tool to start");
    other.release("o");
    await expect(otherCall).resolves.toMatchObject({ isError: false });
    // Release in start order, one at a time: each release lets exactly the next queued call start.
    for (let index = 0; index < tags.length; index += 1) {
      limited.release(tags[index]!);
      await until(() => limited.state.started.length === Math.min(tags.length, index + 4), `call ${index + 4} to start`);
    }
    const results = await Promise.all(calls);
    expect(results.every((result) => !result.isError)).toBe(true);
    expect(limited.state.max).toBe(3);
    expect(limited.state.started).toEqual(tags);
  });

  it("uses defaultLimit 2 for names without a limit of their own", async () => {
    const limited = blockingTool("Limited");
    registry = createToolRegistry({ workdir, bundles: [bundle("b", [limited.tool])], concurrency: {} });
    const r = registry;
    const tags = Array.from({ length: 20 }, (_, index) => `t${index}`);
    const calls = tags.map((tag) => r.executeToolCall({ id: tag, name: "limited", arguments: { tag } }));
    await until(() => limited.state.started.length === 2, "two calls to start");
    for (const tag of tags) limited.release(tag);
    await Promise.all(calls);
    expect(limited.state.max).toBe(2);
    expect(limited.state.started).toEqual(tags);
  });

  it("runs every call at once without concurrency options", async () => {
    const limited = blockingTool("Limited");
    registry = createToolRegistry({ workdir, bundles: [bundle("b", [limited.tool])] });
    const r = registry;
    const tags = Array.from({ length: 20 }, (_, index) => `t${index}`);
    const calls = tags.map((tag) => r.executeToolCall({ id: tag, name: "Limited", arguments: { tag } }));
    await until(() => limited.state.started.length === 20, "all calls to start");
    for (const tag of tags) limited.release(tag);
    await Promise.all(calls);
    expect(limited.state.max).toBe(20);
  });

  it("cancels a queued call that is aborted: it never starts, and the queue moves on", async () => {
    const limited = blockingTool("Limited");
    const events: ToolEvent[] = [];
    registry = createToolRegistry({ workdir, bundles: [bundle("b", [limited.tool])], concurrency: { defaultLimit: 1 } });
    const r = registry;
    const first = r.executeToolCall({ id: "a", name: "Limited", arguments: { tag: "a" } });
    await until(() => limited.state.started.length === 1, "the first call to start");
    const controller = new AbortController();
    const queued = r.executeToolCall(
      { id: "b", name: "Limited", arguments: { tag: "b" } },
      { signal: controller.signal, onEvent: (event) => events.push(event) },
    );
    const third = r.executeToolCall({ id: "c", name: "Limited", arguments: { tag: "c" } });
    controller.abort();
    const cancelled: ToolResult = await queued;
    expect(cancelled).toMatchObject({ isError: true, details: { cancelled: true }, content: [{ type: "text", text: CANCELLED }] });
    expect(events.map((event) => event.type)).toEqual(["tool-call-start", "tool-call-end"]);
    limited.release("a");
    await until(() => limited.state.started.length === 2, "the third call to start");
    limited.release("c");
    await Promise.all([first, third]);
    expect(limited.state.started).toEqual(["a", "c"]);
  });

  it("gives the slot back when a call fails, is refused by validation, or is aborted while running", async () => {
    const limited = blockingTool("Limited");
    registry = createToolRegistry({ workdir, bundles: [bundle("b", [limited.tool])], concurrency: { defaultLimit: 1 } });
    const r = registry;
    // Invalid arguments never take a slot.
    await expect(r.executeToolCall({ id: "x", name: "Limited", arguments: { tag: 5 } })).resolves.toMatchObject({ isError: true });
    const controller = new AbortController();
    const running = r.executeToolCall({ id: "a", name: "Limited", arguments: { tag: "a" } }, { signal: controller.signal });
    await until(() => limited.state.started.length === 1, "the first call to start");
    controller.abort();
    await expect(running).resolves.toMatchObject({ isError: true, details: { cancelled: true } });
    const next = r.executeToolCall({ id: "b", name: "Limited", arguments: { tag: "b" } });
    await until(() => limited.state.started.length === 2, "the next call to start");
    limited.release("b");
    limited.release("a");
    await expect(next).resolves.toMatchObject({ isError: false });
  });

  it("asks for approval before queueing, so the user is asked while the call waits for no one", async () => {
    const limited = blockingTool("Limited");
    const asked: string[] = [];
    registry = createToolRegistry({
      workdir,
      bundles: [bundle("b", [limited.tool])],
      concurrency: { defaultLimit: 1 },
      approval: {
        policies: { Limited: "ask" },
        onAsk: (request) => {
          asked.push(request.callId);
          return true;
        },
      },
    });
    const r = registry;
    const first = r.executeToolCall({ id: "a", name: "Limited", arguments: { tag: "a" } });
    const second = r.executeToolCall({ id: "b", name: "Limited", arguments: { tag: "b" } });
    // The second call was asked while the first still holds the only slot.
    await until(() => asked.length === 2 && limited.state.started.length === 1, "both approvals and the first call running");
    expect(limited.state.started).toEqual(["a"]);
    limited.release("a");
    limited.release("b");
    await Promise.all([first, second]);
    expect(limited.state.started).toEqual(["a", "b"]);
  });

  it.each([
    [{ defaultLimit: 0 }, "concurrency.defaultLimit"],
    [{ limits: { Bash: 1.5 } }, "concurrency.limits.Bash"],
    [{ limits: [] }, "concurrency.limits"],
    ["many", "concurrency must be false or an object"],
  ])("refuses invalid concurrency %j", (concurrency, message) => {
    expect(() => createToolRegistry({ workdir, bundles: [], concurrency: concurrency as never })).toThrow(message);
  });
});
