import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { defineTool } from "@agent-tools/core";
import { afterAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { buildBuiltinToolRegistry } from "./build-builtin-tool-registry.js";
import { BUILTIN_TOOL_CONCURRENCY } from "./tool-concurrency-defaults.js";

const temporary = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "agent-tools-sdk-concurrency-")));
afterAll(() => fs.rmSync(temporary, { recursive: true, force: true }));

let counter = 0;
function directories(name: string) {
  counter += 1;
  const workdir = path.join(temporary, `${name}-${counter}`);
  fs.mkdirSync(workdir, { recursive: true });
  return { workdir, dataDir: path.join(workdir, ".data") };
}

/** A host tool that holds its slot until the test lets it go, recording how many ran at once. */
function probeTool() {
  const state = { live: 0, max: 0, started: [] as number[] };
  let openGate!: () => void;
  const gate = new Promise<void>((resolve) => {
    openGate = resolve;
  });
  const tool = defineTool({
    name: "Probe",
    description: "Waits for the test.",
    inputSchema: z.object({ index: z.number().int() }),
    execute: async ({ index }) => {
      state.live += 1;
      state.max = Math.max(state.max, state.live);
      state.started.push(index);
      await gate;
      state.live -= 1;
      return { content: `probe ${index}` };
    },
  });
  return { tool, state, open: () => openGate() };
}

async function until(condition: () => boolean, what: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const range = (count: number) => Array.from({ length: count }, (_, index) => index);

describe("buildBuiltinToolRegistry: per-tool-name concurrency", () => {
  it("defaults to Agent 8, Bash 4 and 2 for every other tool", () => {
    expect(BUILTIN_TOOL_CONCURRENCY).toEqual({ limits: { Agent: 8, Bash: 4 }, defaultLimit: 2 });
  });

  it.each([
    ["the default", undefined, 2],
    ["a limit of its own", { limits: { Probe: 5 } }, 5],
    ["no limits", false as const, 20],
  ])("runs 20 parallel calls of a host tool with %s: at most that many at once, in call order", async (_label, concurrency, expected) => {
    const probe = probeTool();
    const registry = await buildBuiltinToolRegistry({ ...directories("probe"), memory: false, tools: [probe.tool], concurrency });
    try {
      const calls = range(20).map((index) => registry.executeToolCall({ id: `p${index}`, name: "Probe", arguments: { index } }));
      await until(() => probe.state.started.length === expected, `${expected} probes to start`);
      // Give queued calls every chance to (wrongly) start before the gate opens.
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(probe.state.live).toBe(expected);
      probe.open();
      const results = await Promise.all(calls);
      expect(results.filter((result) => result.isError)).toEqual([]);
      expect(probe.state.max).toBe(expected);
      expect(probe.state.started).toEqual(range(20));
    } finally {
      await registry.close();
    }
  });

  it("runs at most 4 Bash commands at once under 20 parallel calls (live processes counted by the commands themselves)", async () => {
    const dirs = directories("bash");
    const registry = await buildBuiltinToolRegistry({ ...dirs, memory: false });
    try {
      fs.mkdirSync(path.join(dirs.workdir, "live"));
      // Each command marks itself live, waits (up to 5 s) until 4 are live so overlaps are certain,
      // records how many it saw, and leaves. Without a limit it would see up to 20.
      const command = (index: number) =>
        `touch live/${index}; for i in $(seq 50); do [ "$(ls live | wc -l)" -ge 4 ] && break; sleep 0.1; done; ls live | wc -l > seen-${index}; sleep 0.2; rm live/${index}`;
      const results = await Promise.all(
        // The longest yield: a call queued behind the others still answers with its command finished on a loaded machine
        // (with the default 10 s one came back still running, its seen file not yet written).
        range(20).map((index) => registry.executeToolCall({ id: `b${index}`, name: "Bash", arguments: { command: command(index), yield_time_ms: 30_000 } })),
      );
      expect(results.filter((result) => result.isError).map((result) => result.content)).toEqual([]);
      expect(results.filter((result) => (result.details as { status?: string }).status !== "completed").map((result) => result.details)).toEqual([]);
      const seen = range(20).map((index) => Number(fs.readFileSync(path.join(dirs.workdir, `seen-${index}`), "utf8").trim()));
      expect(Math.max(...seen)).toBe(4);
    } finally {
      await registry.close();
    }
  }, 180_000);

  it("runs at most 2 Reads at once (open descriptors of the files read, sampled while they run)", async () => {
    const dirs = directories("read");
    const files = range(12).map((index) => path.join(dirs.workdir, `big-${index}.txt`));
    const line = `${"x".repeat(99)}\n`;
    // 1,000,000 bytes each (under the 1 MiB up to which Read reads, counts and hashes a file whole, on its own time):
    // the descriptor is closed when the Read answers (a larger file is kept open after the Read for its background hash).
    for (const file of files) fs.writeFileSync(file, line.repeat(10_000));
    const targets = new Set(files);
    const openTargets = () => {
      const open = new Set<string>();
      for (const fd of fs.readdirSync("/proc/self/fd")) {
        try {
          const target = fs.readlinkSync(`/proc/self/fd/${fd}`);
          if (targets.has(target)) open.add(target);
        } catch {
          // closed while listing
        }
      }
      return open.size;
    };
    const runAll = async (concurrency: false | undefined) => {
      const registry = await buildBuiltinToolRegistry({ ...dirs, memory: false, concurrency });
      try {
        let max = 0;
        let done = false;
        const sampler = (async () => {
          while (!done) {
            max = Math.max(max, openTargets());
            await new Promise((resolve) => setImmediate(resolve));
          }
        })();
        const results = await Promise.all(
          files.map((file, index) => registry.executeToolCall({ id: `r${index}`, name: "Read", arguments: { path: file, start_line: 10_000, limit: 1 } })),
        );
        done = true;
        await sampler;
        expect(results.filter((result) => result.isError)).toEqual([]);
        return max;
      } finally {
        await registry.close();
      }
    };
    const limited = await runAll(undefined);
    expect(limited).toBeGreaterThanOrEqual(1);
    expect(limited).toBeLessThanOrEqual(2);
    // The same Reads without limits overlap more: the sampling sees what the limit prevents.
    expect(await runAll(false)).toBeGreaterThan(2);
  }, 180_000);

  it("cancels a queued Bash call that is aborted: it never starts", async () => {
    const dirs = directories("abort");
    const registry = await buildBuiltinToolRegistry({ ...dirs, memory: false, concurrency: { limits: { Bash: 1 } } });
    try {
      const first = registry.executeToolCall({
        id: "b1",
        name: "Bash",
        arguments: { command: "touch first-started; while [ ! -e release ]; do sleep 0.05; done" },
      });
      await until(() => fs.existsSync(path.join(dirs.workdir, "first-started")), "the first command to start");
      const controller = new AbortController();
      const queued = registry.executeToolCall({ id: "b2", name: "Bash", arguments: { command: "touch second-started" } }, { signal: controller.signal });
      controller.abort();
      const cancelled = await queued;
      expect(cancelled).toMatchObject({ isError: true, details: { cancelled: true } });
      fs.writeFileSync(path.join(dirs.workdir, "release"), "");
      expect((await first).isError).toBe(false);
      // A later call runs: the cancelled one gave nothing back it did not hold.
      expect((await registry.executeToolCall({ id: "b3", name: "Bash", arguments: { command: "echo third" } })).isError).toBe(false);
      expect(fs.existsSync(path.join(dirs.workdir, "second-started"))).toBe(false);
    } finally {
      await registry.close();
    }
  }, 120_000);
});
