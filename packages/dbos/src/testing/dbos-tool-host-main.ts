/**
 * The DBOS tool host as a process: `node dbos-tool-host-main.js '<config JSON>'`
 * (under tsx from the sources). Prints `host <line>` progress lines on stdout
 * (`launched`, `run <call id>`, `holding <call id>`, `finished`); exits 0
 * when the workflow finished, 1 on an error.
 */
import { type DbosToolHostConfig, runDbosToolHost } from "./dbos-tool-host.js";

const announce = (line: string) => process.stdout.write(`host ${line}\n`);

try {
  const config = JSON.parse(process.argv[2] ?? "") as DbosToolHostConfig;
  await runDbosToolHost(config, announce);
  process.exit(0);
} catch (error) {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
}
