// A plain Node script standing in for a host process that runs one subagent. Run it as
//   node --import tsx --conditions=@agent-tools/source subagent-host-process.mjs <workdir> <dataDir> <phase>
// phase "crash": the agent "survivor" reads a file in each round and, at its third model turn, hangs (the test kills
// the process with SIGKILL once the store holds two completed rounds). phase "resume": the same agent is called again;
// its model answers at once and prints the request it got (so the test sees the resumed context) as one JSON line.
import { buildBuiltinToolRegistry } from "@agent-tools/sdk";
import { ScriptedModelClient } from "@agent-tools/core/testing";

const [workdir, dataDir, phase] = process.argv.slice(2);
const model = new ScriptedModelClient({
  respond: async (request) => {
    const turn = request.messages.filter((message) => message.role === "assistant").length;
    if (phase === "crash") {
      if (turn < 2) return { toolCalls: [{ name: "Read", arguments: { path: `notes-${turn}.md` } }] };
      process.stdout.write(`${JSON.stringify({ hanging: true })}\n`);
      await new Promise(() => setInterval(() => undefined, 1_000));
    }
    process.stdout.write(`${JSON.stringify({ request: request.messages })}\n`);
    return "resumed and done";
  },
});
const registry = await buildBuiltinToolRegistry({ workdir, dataDir, memory: false, subagents: { model, conversationId: "crash-conversation" } });
try {
  const result = await registry.executeToolCall({
    id: `call_${phase}`,
    name: "Agent",
    arguments: { agents: [{ id: "survivor", prompt: `task of phase ${phase}` }] },
  });
  process.stdout.write(`${JSON.stringify({ result: result.details })}\n`);
} finally {
  await registry.close();
}
