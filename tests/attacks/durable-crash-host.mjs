// The killed host of durable-crash.attack.test.ts: runs durable-crash-scenario.mjs in its own process and
// prints { results } as one JSON line (when the kill point was never reached). Run it as
//   node --import tsx --conditions=@agent-tools/source durable-crash-host.mjs <workdir> <dataDir> <kill|none>
import { runScenario } from "./durable-crash-scenario.mjs";

const [workdir, dataDir, kill] = process.argv.slice(2);
const results = await runScenario({ workdir, dataDir, kill });
process.stdout.write(`${JSON.stringify({ results })}\n`);
