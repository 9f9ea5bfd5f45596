/**
 * The ten stdio servers of the lazy-lifecycle bench: public reference
 * servers from npm that we did not write (everything and filesystem, pinned
 * in packages/mcp; memory and sequential-thinking, pinned in bench), several
 * instances of each under their own id and working directory (and root, for
 * filesystem), so every configuration hashes differently. Each process is
 * started with `--require count-start.cjs`, which appends its pid to a log:
 * the bench counts every server start, even one that exited again.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { type McpServerConfigInput, type McpSettings, normalizeMcpServerConfig } from "@agent-tools/mcp";

const here = path.dirname(fileURLToPath(import.meta.url));
const mcpModules = path.resolve(here, "../../packages/mcp/node_modules/@modelcontextprotocol");
const benchModules = path.resolve(here, "../node_modules/@modelcontextprotocol");

/** The entry of each public server the bench starts. */
export const SERVER_ENTRIES = {
  everything: path.join(mcpModules, "server-everything/dist/index.js"),
  filesystem: path.join(mcpModules, "server-filesystem/dist/index.js"),
  memory: path.join(benchModules, "server-memory/dist/index.js"),
  thinking: path.join(benchModules, "server-sequential-thinking/dist/index.js"),
} as const;

const START_COUNTER = path.join(here, "count-start.cjs");
/** The environment variable naming the file `count-start.cjs` appends each started server's pid to. */
export const START_LOG_ENV = "AGENT_TOOLS_BENCH_MCP_START_LOG";

/** One configured server as both sides start it: the registry's settings entry and the bare SDK's transport parameters. */
export interface BenchServer {
  readonly id: string;
  readonly kind: keyof typeof SERVER_ENTRIES;
  readonly command: string;
  readonly args: string[];
  readonly cwd: string;
  readonly env: Record<string, string>;
}

/** The ten servers: 3 everything, 3 filesystem (each its own root), 2 memory (each its own graph file), 2 sequential-thinking; each with its own working directory under `work`. */
export function benchServers(work: string): BenchServer[] {
  const startLog = path.join(work, "starts.log");
  writeFileSync(startLog, "");
  const plan: Array<[BenchServer["kind"], number]> = [
    ["everything", 3],
    ["filesystem", 3],
    ["memory", 2],
    ["thinking", 2],
  ];
  const servers: BenchServer[] = [];
  for (const [kind, count] of plan) {
    for (let index = 1; index <= count; index += 1) {
      const id = `${kind}${index}`;
      const cwd = path.join(work, "servers", id);
      mkdirSync(cwd, { recursive: true });
      const args = ["--require", START_COUNTER, SERVER_ENTRIES[kind]];
      const env: Record<string, string> = { [START_LOG_ENV]: startLog };
      if (kind === "everything") args.push("stdio");
      if (kind === "filesystem") {
        const root = path.join(cwd, "root");
        mkdirSync(root, { recursive: true });
        for (let file = 0; file < 5; file += 1) writeFileSync(path.join(root, `note-${file}.md`), `# note ${file} of ${id}\n`);
        args.push(root);
      }
      if (kind === "memory") env.MEMORY_FILE_PATH = path.join(cwd, "memory.jsonl");
      if (kind === "thinking") env.DISABLE_THOUGHT_LOGGING = "true";
      servers.push({ id, kind, command: process.execPath, args, cwd, env });
    }
  }
  return servers;
}

/** The registry's MCP settings for `servers`. */
export function benchSettings(servers: readonly BenchServer[]): McpSettings {
  const inputs: McpServerConfigInput[] = servers.map((server) => ({
    id: server.id,
    command: server.command,
    args: server.args,
    cwd: server.cwd,
    env: server.env,
    timeoutMs: 30_000,
  }));
  return { servers: inputs.map((input) => normalizeMcpServerConfig(input)), selected: [] };
}

/** How many server processes have started so far (lines of the start log of `servers`). */
export function serverStarts(servers: readonly BenchServer[]): number {
  const log = servers[0]?.env[START_LOG_ENV];
  if (log === undefined) return 0;
  return readFileSync(log, "utf8").split("\n").filter(Boolean).length;
}
