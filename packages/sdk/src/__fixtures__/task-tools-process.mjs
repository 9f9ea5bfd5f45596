// A plain Node script standing in for another host process. Run it as
//   node --import tsx --conditions=@agent-tools/source task-tools-process.mjs <workdir> <dataDir> <calls-json> [<options-json>]
// It builds the built-in registry on the same dataDir (with the optional
// extra options, e.g. {"tasks":{"run":{"conversationId":"plan"}}} or
// {"conversationId":"c1"}), runs the given task tool calls in order and
// prints their results as one JSON line.
import { buildBuiltinToolRegistry } from "@agent-tools/sdk";

const [workdir, dataDir, callsJson, optionsJson] = process.argv.slice(2);
const calls = JSON.parse(callsJson ?? "[]");
const extra = JSON.parse(optionsJson ?? "{}");
const registry = await buildBuiltinToolRegistry({ ...extra, workdir, dataDir, runtimeScope: "chat" });
const results = [];
try {
  for (const [index, call] of calls.entries()) {
    results.push(await registry.executeToolCall({ id: `child_${index}`, name: call.name, arguments: call.arguments }));
  }
} finally {
  await registry.close();
}
process.stdout.write(`${JSON.stringify({ pid: process.pid, results })}\n`);
