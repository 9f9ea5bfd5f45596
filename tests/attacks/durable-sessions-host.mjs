// A host process of durable-sessions-*.attack.test.ts: builds the sdk registry on <workdir> with
// shell.durableSessions.dir = <dir>, runs one tool call and prints its result as one JSON line
// { isError, text, details }, after a { ready: true } line once the registry is built. A host that never answers (its event loop blocked) is what some tests look for.
// Run it as
//   node --import tsx --conditions=@agent-tools/source durable-sessions-host.mjs <workdir> <dir> <tool> <argumentsJson>
import { toolResultText } from "@agent-tools/core";
import { buildBuiltinToolRegistry } from "@agent-tools/sdk";

const [workdir, dir, name, argumentsJson] = process.argv.slice(2);
const registry = await buildBuiltinToolRegistry({ workdir, shell: { durableSessions: { dir } } });
// Loading the sources takes seconds on a loaded machine: the call's own time starts here.
process.stdout.write(`${JSON.stringify({ ready: true })}\n`);
const result = await registry.executeToolCall({ id: "call_host", name, arguments: JSON.parse(argumentsJson) });
process.stdout.write(`${JSON.stringify({ isError: result.isError === true, text: toolResultText(result, ""), details: result.details })}\n`);
await registry.close();
