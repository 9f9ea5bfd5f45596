// A host process for node-sqlite.attack.test.ts: builds the built-in registry (tasks, memory, cron) on
// <workdir> and <dataDir>, runs the steps of the JSON file <steps> and prints one JSON line
// { node, results: [{ isError, text }] }. A step is a tool call { name, arguments }, or
// { shell: "..." } (the model's own Bash between calls), or { scheduler: { until, maxMs } } (the host's
// cron scheduler on the same dataDir until the file `until` of the workdir exists or maxMs passed; the
// step's text is its events as JSON). Run it as
//   node --import tsx --conditions=@agent-tools/source node-sqlite-host.mjs <workdir> <dataDir> <steps.json>
import { execSync } from "node:child_process";
import fs from "node:fs";
import { buildBuiltinToolRegistry, startBuiltinCronScheduler, toolResultText } from "@agent-tools/sdk";

const [workdir, dataDir, stepsFile] = process.argv.slice(2);
const steps = JSON.parse(fs.readFileSync(stepsFile, "utf8"));
const registry = await buildBuiltinToolRegistry({ workdir, dataDir, conversationId: "attack", cron: { currentModelId: () => "model-1" } });
const results = [];
let calls = 0;
for (const step of steps) {
  if (typeof step.shell === "string") {
    execSync(step.shell, { cwd: workdir, stdio: "ignore" });
    results.push({ isError: false, text: "shell" });
  } else if (step.scheduler !== undefined) {
    const events = [];
    const scheduler = await startBuiltinCronScheduler({ dataDir, tickMs: 100, onEvent: (event) => events.push(event) });
    const deadline = Date.now() + step.scheduler.maxMs;
    while (Date.now() < deadline && !fs.existsSync(`${workdir}/${step.scheduler.until}`)) await new Promise((resolve) => setTimeout(resolve, 100));
    await scheduler.stop();
    results.push({ isError: false, text: JSON.stringify(events) });
  } else {
    const result = await registry.executeToolCall({ id: `call_${(calls += 1)}`, name: step.name, arguments: step.arguments });
    results.push({ isError: result.isError === true, text: toolResultText(result, "") });
  }
}
await registry.close();
process.stdout.write(`${JSON.stringify({ node: process.version, results })}\n`);
