// A host process for the "nothing local" check of worktree subagents on an SSH workspace. Run it as
//   node --import tsx --conditions=@agent-tools/source subagent-ssh-process.mjs <root> <workdir> <dataDir> <marker> <ssh-options-json>
// It builds the chat registry with subagents on an SSH workspace rooted at <root> (the test sshd's root:
// a path of this disk too, which the host must never touch), stats <marker> so a syscall trace can tell
// the Agent call from the start-up, runs one Agent call (a read-only reader, a worktree writer that
// writes and runs Bash, applied automatically) and prints one JSON line with each agent's report.
import { statSync } from "node:fs";
import { ScriptedModelClient } from "@agent-tools/core/testing";
import { buildBuiltinToolRegistry } from "@agent-tools/sdk";
import { createSshWorkspace } from "@agent-tools/ssh";

const [root, workdir, dataDir, marker, sshJson] = process.argv.slice(2);
const workspace = await createSshWorkspace({ ...JSON.parse(sshJson), root });
const agentOf = (request) => /\(agent id: ([^)]+)\)/.exec(String(request.messages[0]?.content))?.[1] ?? "?";
const model = new ScriptedModelClient({
  respond: (request) => {
    const agent = agentOf(request);
    if (request.messages.some((message) => message.role === "assistant")) return `done ${agent}`;
    if (agent === "reader") return { toolCalls: [{ name: "Read", arguments: { path: "README.md" } }] };
    return {
      toolCalls: [
        { name: "Write", arguments: { path: "src/a.ts", content: "export const a = 2;\n" } },
        { name: "Bash", arguments: { command: "printf 'new\\n' > src/new.ts && git status --porcelain" } },
      ],
    };
  },
});
const registry = await buildBuiltinToolRegistry({ workspace, workdir, dataDir, memory: false, subagents: { model, conversationId: "strace" } });
const agents = [];
try {
  statSync(marker, { throwIfNoEntry: false });
  const result = await registry.executeToolCall({
    id: "call_agent",
    name: "Agent",
    arguments: {
      agents: [
        { id: "reader", prompt: "Read the README." },
        { id: "writer", prompt: "Change a.", mode: "worktree", apply_policy: "auto" },
      ],
    },
  });
  for (const agent of result.details?.agents ?? []) agents.push(agent);
  statSync(`${marker}.end`, { throwIfNoEntry: false });
} finally {
  await registry.close();
  await workspace.close();
}
process.stdout.write(`${JSON.stringify({ agents })}\n`);
