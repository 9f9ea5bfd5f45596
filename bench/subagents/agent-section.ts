/**
 * Section 2: the Agent tool's own cost around a scripted model that answers
 * at once. A real parent registry (file and shell tools plus the subagent
 * bundle) drives readonly children; floors are the same model calls and tool
 * calls made directly, with no Agent tool in between.
 */
import path from "node:path";
import { type ModelRequest, type ToolRegistry, createToolRegistry } from "@agent-tools/core";
import { ScriptedModelClient, type ScriptedModelResponse } from "@agent-tools/core/testing";
import { GitCliClient } from "@agent-tools/git";
import { ExecaProcessRunner } from "@agent-tools/node";
import { openSqliteStorage } from "@agent-tools/storage";
import { InMemorySubagentStore, KyselySubagentStore, type SubagentBatchDetails, type SubagentStore, createSubagentToolBundle } from "@agent-tools/subagents";
import { createFsToolBundle } from "@agent-tools/tools-fs";
import { createShellToolBundle } from "@agent-tools/tools-shell";
import { median, ms, ratio, timed } from "./bench-util.js";

/** The scripted model's behaviour: `rounds` Read calls, then an answer; `latencyMs` per turn. */
const script = { rounds: 0, latencyMs: 0 };

const turnOf = (request: ModelRequest) => request.messages.filter((message) => message.role === "assistant").length;
const sleep = (delay: number) => new Promise((resolve) => setTimeout(resolve, delay));

function scriptedModel(): ScriptedModelClient {
  return new ScriptedModelClient({
    respond: async (request): Promise<ScriptedModelResponse | string> => {
      if (script.latencyMs > 0) await sleep(script.latencyMs);
      return turnOf(request) < script.rounds ? { toolCalls: [{ name: "Read", arguments: { path: "README.md" } }] } : "done";
    },
  });
}

/** A parent registry over `workdir` with file, shell and subagent tools on `store`. */
function parentRegistry(workdir: string, dataDir: string, model: ScriptedModelClient, store: SubagentStore): ToolRegistry {
  let registry: ToolRegistry;
  const subagents = createSubagentToolBundle({ model, parentRegistry: () => registry, store, conversationId: "bench" });
  registry = createToolRegistry({
    workdir,
    dataDir,
    bundles: [createFsToolBundle(), createShellToolBundle(), subagents],
    ports: { processRunner: new ExecaProcessRunner(), gitClient: new GitCliClient() },
    loopBreaker: false,
  });
  return registry;
}

let callCount = 0;

/** One Agent call; throws unless every agent completed with the expected rounds. */
async function agentCall(registry: ToolRegistry, ids: readonly string[]): Promise<void> {
  const result = await registry.executeToolCall({
    id: `agent_${++callCount}`,
    name: "Agent",
    arguments: { agents: ids.map((id) => ({ id, prompt: "Read the README, then answer.", resume: false })) },
  });
  const details = result.details as SubagentBatchDetails;
  const bad = details?.agents?.filter((agent) => agent.status !== "completed" || agent.rounds !== script.rounds) ?? [];
  if (result.isError || bad.length > 0 || details?.agents?.length !== ids.length) {
    throw new Error(`Agent call went wrong: ${JSON.stringify(details?.agents?.map((agent) => [agent.id, agent.status, agent.rounds]) ?? result)}`);
  }
}

/** The floor of one run: its model calls and Read calls made directly. */
async function floorRun(registry: ToolRegistry, model: ScriptedModelClient): Promise<void> {
  const messages: { role: "system" | "user" | "assistant"; content: string }[] = [
    { role: "system", content: "You are a helper." },
    { role: "user", content: "Read the README, then answer." },
  ];
  for (let round = 0; round <= script.rounds; round++) {
    const response = await model.generate({ messages: messages as ModelRequest["messages"] });
    if (round === script.rounds) break;
    const call = response.toolCalls[0]!;
    const result = await registry.executeToolCall({ id: `floor_${++callCount}`, name: call.name, arguments: JSON.parse(call.arguments) });
    if (result.isError) throw new Error("floor Read failed");
    messages.push({ role: "assistant", content: "" }, { role: "user", content: String(result.content ?? "") });
  }
}

/** Median ms of `runs` calls of `run`, after `warmup` unmeasured ones. */
async function medianOf(runs: number, run: () => Promise<unknown>, warmup = 2): Promise<number> {
  for (let index = 0; index < warmup; index++) await run();
  const times: number[] = [];
  for (let index = 0; index < runs; index++) times.push(await timed(run));
  return median(times);
}

/** The stores section 2 compares. */
async function openStores(dataDir: string): Promise<{ name: string; store: SubagentStore; close: () => Promise<void> }[]> {
  const storage = await openSqliteStorage({ dataDir: path.join(dataDir, "sqlite") });
  return [
    { name: "in-memory store", store: new InMemorySubagentStore(), close: async () => undefined },
    { name: "SQLite store", store: await KyselySubagentStore.open(storage), close: () => storage.close() },
  ];
}

/** Runs section 2 and prints its tables. */
export async function runAgentSection(workdir: string, dataDir: string, runs: number): Promise<void> {
  const perCallRuns = Math.max(runs * 4, 20);
  console.log(`\n2. Agent tool overhead (readonly children, scripted model, real parent registry); medians`);
  console.log("case | store | Agent tool ms | floor ms | Agent - floor ms | ratio");
  const parallelRows: string[] = [];
  for (const { name, store, close } of await openStores(dataDir)) {
    const model = scriptedModel();
    const registry = parentRegistry(workdir, dataDir, model, store);
    try {
      // (a) one agent that answers at once, per call.
      script.rounds = 0;
      const runA = await medianOf(perCallRuns, () => agentCall(registry, ["solo"]), 5);
      const floorA = await medianOf(perCallRuns, () => model.generate({ messages: [{ role: "user", content: "answer" }] }), 5);
      console.log(
        `(a) 1 agent, text answer, per call (${perCallRuns} calls) | ${name} | ${ms(runA)} | ${ms(floorA)} | ${ms(runA - floorA)} | ${ratio(runA, floorA)}`,
      );
      // (b) one agent, 20 Read rounds then an answer, per round.
      script.rounds = 20;
      const runB = (await medianOf(runs, () => agentCall(registry, ["reader"]), 1)) / 20;
      const floorB = (await medianOf(runs, () => floorRun(registry, model), 1)) / 20;
      console.log(
        `(b) 1 agent, 20 Read rounds, per round (${runs} runs) | ${name} | ${ms(runB)} | ${ms(floorB)} | ${ms(runB - floorB)} | ${ratio(runB, floorB)}`,
      );
      // (c) 8 agents x 3 rounds at once vs the same 8 one after another, with no and with 25 ms model latency.
      script.rounds = 3;
      const ids = Array.from({ length: 8 }, (_, index) => `worker-${index}`);
      for (const latency of [0, 25]) {
        script.latencyMs = latency;
        const parallel = await medianOf(runs, () => agentCall(registry, ids), 1);
        const sequential = await medianOf(
          runs,
          async () => {
            for (const id of ids) await agentCall(registry, [id]);
          },
          1,
        );
        parallelRows.push(`${latency} ms | ${name} | ${ms(parallel)} | ${ms(sequential)} | ${ratio(parallel, sequential)} | ${latency * 4}`);
      }
      script.latencyMs = 0;
    } finally {
      await registry.close();
      await close();
    }
  }
  console.log(`\n(c) 8 agents x 3 Read rounds: one Agent call with 8 agents vs 8 calls of one agent; total wall time, median of ${runs} runs`);
  console.log("model latency per turn | store | parallel ms | sequential ms | ratio parallel/sequential | ideal parallel ms (4 turns x latency)");
  for (const row of parallelRows) console.log(row);
}
