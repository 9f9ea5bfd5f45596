// A host process for apply-crash.attack.test.ts. Run it as
//   node --import tsx --conditions=@agent-tools/source apply-crash-host.mjs <workdir> <dataDir> <checkpointId>
// It runs one worktree subagent inside file checkpoint <checkpointId>; the child appends a line to every
// `f*.txt` of the workspace with Bash, then finishes. When the child gives its final answer, the host prints
// {"settling":true}: the Agent call goes on to apply the changes, and the test kills this process with SIGKILL
// somewhere in that apply.
import { ScriptedModelClient } from "@agent-tools/core/testing";
import { buildBuiltinToolRegistry } from "@agent-tools/sdk";

const [workdir, dataDir, checkpointId] = process.argv.slice(2);
const model = new ScriptedModelClient({
  respond: (request) => {
    if (request.messages.some((message) => message.role === "assistant")) {
      process.stdout.write(`${JSON.stringify({ settling: true })}\n`);
      return "done";
    }
    return { toolCalls: [{ name: "Bash", arguments: { command: "for file in f*.txt; do printf 'changed by the subagent\\n' >> \"$file\"; done" } }] };
  },
});
const registry = await buildBuiltinToolRegistry({ workdir, dataDir, memory: false, checkpoints: { id: checkpointId }, subagents: { model } });
try {
  const result = await registry.executeToolCall({
    id: "call_agent",
    name: "Agent",
    arguments: { agents: [{ id: "writer", prompt: "Append a line to every file.", mode: "worktree", apply_policy: "auto" }] },
  });
  process.stdout.write(`${JSON.stringify({ result: result.details })}\n`);
} finally {
  await registry.close();
}
