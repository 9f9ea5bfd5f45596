// A host process killed in the middle of a worktree subagent's apply on an SSH workspace. Run it as
//   node --import tsx --conditions=@agent-tools/source subagent-ssh-crash-host.mjs <root> <workdir> <dataDir> <ssh-options-json>
// A worktree child writes a.txt and b.txt; the Agent call applies them (the test holds the workspace's lock of b.txt, so
// the apply stops between the two writes, and kills this process there).
import { ScriptedModelClient } from "@agent-tools/core/testing";
import { buildBuiltinToolRegistry } from "@agent-tools/sdk";
import { createSshWorkspace } from "@agent-tools/ssh";

const [root, workdir, dataDir, sshJson] = process.argv.slice(2);
const workspace = await createSshWorkspace({ ...JSON.parse(sshJson), root });
const model = new ScriptedModelClient({
  respond: (request) =>
    request.messages.some((message) => message.role === "assistant")
      ? "done"
      : { toolCalls: [{ name: "Bash", arguments: { command: "printf 'A-CHILD\\n' > a.txt && printf 'B-CHILD\\n' > b.txt" } }] },
});
const registry = await buildBuiltinToolRegistry({ workspace, workdir, dataDir, memory: false, subagents: { model } });
process.stdout.write("ready\n");
await registry.executeToolCall({
  id: "call_agent",
  name: "Agent",
  arguments: { agents: [{ id: "writer", prompt: "Change both.", mode: "worktree", apply_policy: "auto" }] },
});
process.stdout.write("applied\n");
await registry.close();
await workspace.close();
