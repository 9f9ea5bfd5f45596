// A host process for the "nothing local" check of a non-local workspace. Run it as
//   node --import tsx --conditions=@agent-tools/source workspace-registry-process.mjs <root> <dataDir> <marker> [<ssh-options-json>]
// It builds the default chat registry on a memory workspace rooted at <root>
// (a path that also exists on this disk, as a decoy: a tool that fell back
// to the local disk would touch it), or with the SSH options on an SSH
// workspace rooted there (then the commands run too, over SSH), stats <marker> so a syscall trace can
// tell the build and the calls from the start-up (and `<marker>.<index>.<tool>` before
// each call), runs a call of every default chat tool,
// and prints one JSON line with each call's name, isError, error code and
// the first 2000 characters of its text.
import { statSync } from "node:fs";
import { toolResultText } from "@agent-tools/core";
import { createMemoryWorkspace } from "@agent-tools/core/workspace";
import { buildBuiltinToolRegistry } from "@agent-tools/sdk";

const [root, dataDir, marker, sshJson] = process.argv.slice(2);
const files = {
  "README.md": "# Remote\nhello from the workspace\n",
  "src/a.ts": "export const a = 1;\n",
  "src/b.ts": "export const b = 2;\n",
  "notes/old.txt": "to delete\n",
};
const workspace = sshJson === undefined ? createMemoryWorkspace({ root, files }) : await openSshWorkspace(JSON.parse(sshJson));

/** The SSH workspace of the test sshd (`@agent-tools/ssh`), seeded with the same files through its own file system. */
async function openSshWorkspace(options) {
  const { createSshWorkspace } = await import("@agent-tools/ssh");
  const opened = await createSshWorkspace({ ...options, root });
  for (const [name, content] of Object.entries(files)) {
    const target = `${opened.root}/${name}`;
    await opened.fs.mkdir(target.slice(0, target.lastIndexOf("/")), { recursive: true });
    await opened.fs.writeFileAtomic(target, Buffer.from(content));
  }
  return opened;
}
const remoteCommands =
  sshJson === undefined
    ? []
    : [
        ["Bash", { command: "echo remote-bash; pwd", cwd: "src" }],
        ["Bash", { command: "echo started; sleep 20", yield_time_ms: 300 }],
        ["ProcessStop", { session_id: "$session" }],
        ["ManagedProcess", { action: "start", command: "echo managed-line; sleep 20" }],
        ["ManagedProcess", { action: "wait", process_id: "$process", yield_time_ms: 10000, max_bytes: 13 }],
        ["ManagedProcess", { action: "stop", process_id: "$process" }],
      ];
const calls = [
  ["Read", { path: "README.md" }],
  ["Write", { path: "src/c.ts", content: "export const c = 3;\n" }],
  ["Read", { path: "src/a.ts" }],
  ["Edit", { path: "src/a.ts", old_string: "a = 1", new_string: "a = 10" }],
  ["List", { path: "." }],
  ["Glob", { pattern: "**/*.ts" }],
  ["Grep", { pattern: "export const", path: "src" }],
  ["Delete", { path: "notes/old.txt" }],
  ["Bash", { command: "echo hi" }],
  ["ManagedProcess", { action: "status" }],
  ["TaskCreate", { subject: "check the workspace", description: "from the scenario", activeForm: "Checking the workspace" }],
  ["TaskUpdate", { taskId: "1", status: "in_progress" }],
  ["TaskList", {}],
  ["ProcessWait", { session_id: "bash-unknown" }],
  ["MemoryManager", { action: "list" }],
  ...remoteCommands,
];
/** Stats a path that does not exist, so the trace shows where the calls (and each call) begin. */
function mark(name) {
  try {
    statSync(name);
  } catch {
    // it does not exist; the trace only needs the syscall
  }
}
// Everything from here on is watched: the build of the registry, then the calls.
mark(marker);
const registry = await buildBuiltinToolRegistry({ workspace, dataDir, runtimeScope: "chat" });
const results = [];
let lastSession;
let lastProcess;
try {
  for (const [index, [name, args]] of calls.entries()) {
    if (!registry.hasTool(name)) {
      results.push({ name, missing: true });
      continue;
    }
    mark(`${marker}.${index}.${name}`);
    // "$session" / "$process": the id the last Bash session / ManagedProcess start returned.
    const resolved = Object.fromEntries(
      Object.entries(args).map(([key, value]) => [key, value === "$session" ? lastSession : value === "$process" ? lastProcess : value]),
    );
    const result = await registry.executeToolCall({ id: `scenario_${index}`, name, arguments: resolved });
    lastSession = result.details?.session_id ?? lastSession;
    lastProcess = result.details?.process?.process_id ?? lastProcess;
    results.push({ name, isError: result.isError === true, code: result.error?.code, text: toolResultText(result, "").slice(0, 2000) });
  }
} finally {
  mark(`${marker}.close`);
  await registry.close();
  await workspace.close();
}
const tools = registry.tools.map((tool) => tool.name);
process.stdout.write(`${JSON.stringify({ tools, results })}\n`);
