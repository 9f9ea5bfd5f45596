// A host process for the "nothing local but the dataDir" check of skills on a
// non-local workspace. Run it as
//   node --import tsx --conditions=@agent-tools/source workspace-skills-registry-process.mjs <root> <dataDir> <marker>
// It seeds the built-in skills, then builds the default chat registry with skills on a memory workspace rooted
// at <root> (a path that also exists on this disk, as a decoy), stats <marker>
// (and `<marker>.<index>.<tool>` before each call) so a syscall trace can tell
// the calls from the start-up, runs the skill calls (SkillsManager, skill://
// through Read, List, Glob and Grep, a refused skill script) beside workspace
// calls, and prints one JSON line with each call's name, isError, error code
// and the first 2000 characters of its text.
import { statSync } from "node:fs";
import { toolResultText } from "@agent-tools/core";
import { createMemoryWorkspace } from "@agent-tools/core/workspace";
import { buildBuiltinToolRegistry } from "@agent-tools/sdk";

const [root, dataDir, marker] = process.argv.slice(2);
const workspace = createMemoryWorkspace({ root, files: { "README.md": "# Remote\n", "src/a.ts": "export const a = 1;\n" } });
const calls = [
  ["SkillsManager", { action: "list" }],
  ["SkillsManager", { action: "read", path: "skill://skills-creator/SKILL.md" }],
  ["Read", { path: "skill://skills-creator/SKILL.md" }],
  ["List", { path: "skill://skills-creator" }],
  ["Glob", { pattern: "**/*.md", path: "skill://skills-creator" }],
  ["Grep", { pattern: "SkillsManager", path: "skill://skills-creator", output_mode: "files" }],
  ["Read", { path: "README.md" }],
  ["Glob", { pattern: "**/*.ts" }],
  ["Grep", { pattern: "export", path: "src" }],
  ["Write", { path: "src/b.ts", content: "export const b = 2;\n" }],
  ["Bash", { command: `sh ${dataDir}/skills/skills-creator/scripts/x.sh` }],
];
function mark(name) {
  try {
    statSync(name);
  } catch {
    // it does not exist; the trace only needs the syscall
  }
}
// The built-in skills are written into <dataDir>/skills on first use, through descriptors (/proc/self/fd/N/... in a
// trace, which names no folder): a first registry does that before the watched part, so the trace shows the reads.
const seeding = await buildBuiltinToolRegistry({ workspace, dataDir, runtimeScope: "chat", skills: {} });
await seeding.executeToolCall({ id: "seed", name: "SkillsManager", arguments: { action: "list" } });
await seeding.close();
mark(marker);
const registry = await buildBuiltinToolRegistry({ workspace, dataDir, runtimeScope: "chat", skills: {} });
const results = [];
try {
  for (const [index, [name, args]] of calls.entries()) {
    mark(`${marker}.${index}.${name}`);
    const result = await registry.executeToolCall({ id: `scenario_${index}`, name, arguments: args });
    results.push({
      name,
      isError: result.isError === true,
      code: result.error?.code,
      engine: result.details?.engine,
      text: toolResultText(result, "").slice(0, 2000),
    });
  }
} finally {
  mark(`${marker}.close`);
  await registry.close();
  await workspace.close();
}
process.stdout.write(`${JSON.stringify({ results })}\n`);
