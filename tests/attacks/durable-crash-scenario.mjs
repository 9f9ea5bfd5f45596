// The scripted run of durable-crash.attack.test.ts: a registry on `workdir` with a real SQLite call
// ledger in `dataDir` runs the calls c1 (Append, unsafe, asked), c2 (Put, idempotent) and c3 (Append)
// of run "run-1" and answers { c1, c2, c3 } (their results). With `kill` = "<callId>:<point>" the
// process SIGKILLs itself at that point of that call: before-/after- a ledger method (get, approve,
// start, finish), or tool-before / tool-after (inside the tool, around its effect). Every user
// question is appended to <workdir>/asks.log, every Append to <workdir>/effects.log, every Put to
// <workdir>/puts.log. The killed run is a child process (durable-crash-host.mjs); the resumed run may
// be any new process, the test's own included.
import fs from "node:fs";
import path from "node:path";
import { createToolRegistry, defineTool } from "@agent-tools/core";
import { KyselyCallLedger } from "@agent-tools/durable";
import { openSqliteStorage } from "@agent-tools/storage";
import { z } from "zod";

/** Runs the scripted calls; answers their results by call id. */
export async function runScenario({ workdir, dataDir, kill }) {
  const [killCall, killPoint] = kill === "none" ? [] : kill.split(":");
  let current = "";
  const die = (point) => {
    if (current !== killCall || point !== killPoint) return;
    process.kill(process.pid, "SIGKILL");
    // Never go on, should the signal take a moment.
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10_000);
  };
  const storage = await openSqliteStorage({ dataDir });
  const real = await KyselyCallLedger.open(storage);
  const ledger = {};
  for (const method of ["get", "approve", "start", "finish", "list", "deleteRun"]) {
    ledger[method] = async (...args) => {
      die(`before-${method}`);
      const answer = await real[method](...args);
      die(`after-${method}`);
      return answer;
    };
  }
  const append = defineTool({
    name: "Append",
    description: "Appends a line.",
    inputSchema: z.object({ line: z.string() }),
    effects: "unsafe",
    execute: ({ line }) => {
      die("tool-before");
      fs.appendFileSync(path.join(workdir, "effects.log"), `${line}\n`);
      die("tool-after");
      return { content: `appended ${line}`, details: { line } };
    },
  });
  const put = defineTool({
    name: "Put",
    description: "Writes a value.",
    inputSchema: z.object({ key: z.string(), value: z.string() }),
    effects: "idempotent",
    execute: ({ key, value }) => {
      die("tool-before");
      fs.writeFileSync(path.join(workdir, `put-${key}`), value);
      fs.appendFileSync(path.join(workdir, "puts.log"), `${key}\n`);
      die("tool-after");
      return { content: `put ${key}=${value}` };
    },
  });
  const registry = createToolRegistry({
    workdir,
    ledger,
    bundles: [{ id: "crash", trusted: true, listTools: () => [append, put] }],
    approval: {
      policies: { Append: "ask" },
      onAsk: ({ callId }) => {
        fs.appendFileSync(path.join(workdir, "asks.log"), `${callId}\n`);
        return true;
      },
    },
  });
  const calls = [
    { id: "c1", name: "Append", arguments: { line: "c1" } },
    { id: "c2", name: "Put", arguments: { key: "k", value: "v" } },
    { id: "c3", name: "Append", arguments: { line: "c3" } },
  ];
  const results = {};
  try {
    for (const call of calls) {
      current = call.id;
      results[call.id] = await registry.executeToolCall(call, { durable: { runId: "run-1" } });
    }
  } finally {
    await registry.close();
    await storage.close();
  }
  return results;
}
