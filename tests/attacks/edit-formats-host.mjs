// A host process of edit-formats-sizes.attack.test.ts: builds the sdk registry on <workdir> listing
// ApplyPatch and Edit, runs one tool call whose arguments are the JSON in <argumentsFile>, and prints
// its result as one JSON line { isError, text }, after a { ready: true } line once the registry is
// built. A host that never answers (its event loop blocked by the call) is what the tests look for.
// Run it as
//   node --import tsx --conditions=@agent-tools/source edit-formats-host.mjs <workdir> <tool> <argumentsFile> [<optionsJson>]
// (<optionsJson>: more registry options, e.g. permissions).
import { readFileSync } from "node:fs";
import { toolResultText } from "@agent-tools/core";
import { buildBuiltinToolRegistry } from "@agent-tools/sdk";

const [workdir, name, argumentsFile, optionsJson] = process.argv.slice(2);
const registry = await buildBuiltinToolRegistry({ workdir, editSurface: "both", memory: false, ...JSON.parse(optionsJson ?? "{}") });
const args = JSON.parse(readFileSync(argumentsFile, "utf8"));
process.stdout.write(`${JSON.stringify({ ready: true })}\n`);
const result = await registry.executeToolCall({ id: "call_host", name, arguments: args });
process.stdout.write(`${JSON.stringify({ isError: result.isError === true, text: toolResultText(result, "").slice(0, 2000) })}\n`);
await registry.close();
