// A host process that picks the SQLite driver of the built-in registry. Run it as
//   node --import tsx --conditions=@agent-tools/source sqlite-driver-host-process.mjs <workdir> <dataDir> <driver|auto>
// With a driver, the host leases the data directory's SQLite file with it on a hub of its own
// before building the registry on that hub; with "auto" it builds the registry alone.
// Runs one TaskCreate and prints { node, isError, text } as one JSON line.
import { createResourceHub } from "@agent-tools/core";
import { buildBuiltinToolRegistry, toolResultText } from "@agent-tools/sdk";
import { leaseSqliteStorage } from "@agent-tools/storage";

const [workdir, dataDir, driver] = process.argv.slice(2);
const resources = createResourceHub();
if (driver !== "auto") leaseSqliteStorage({ dataDir, resources, driver });
const registry = await buildBuiltinToolRegistry({ workdir, dataDir, resources });
const result = await registry.executeToolCall({
  id: "call_1",
  name: "TaskCreate",
  arguments: { subject: "Plan", description: "Plan the work", activeForm: "Planning" },
});
await registry.close();
await resources.close();
process.stdout.write(`${JSON.stringify({ node: process.version, isError: result.isError === true, text: toolResultText(result, "") })}\n`);
