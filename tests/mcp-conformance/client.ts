/**
 * The conformance suite's client: `client.ts <server-url>` with
 * `MCP_CONFORMANCE_SCENARIO` set by the runner. It builds the SDK's registry
 * (`buildBuiltinToolRegistry`) with one HTTP MCP server `conf` at the
 * scenario's URL and the host callbacks of ./host-callbacks.ts, waits for the
 * server's tools, then calls the scenario's tools through `executeToolCall`
 * of `mcp_conf_<tool>`. Run with Node 20 through tsx and
 * `--conditions=@agent-tools/source`; exits 1 when loading or a call failed.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { type BuiltinToolRegistryOptions, buildBuiltinToolRegistry } from "../../packages/sdk/src/index.js";
import { conformanceHostOptions, conformanceServerAuth } from "./host-options.js";
import { planForScenario } from "./scenario-plans.js";

type McpToolBundles = Parameters<NonNullable<NonNullable<BuiltinToolRegistryOptions["mcp"]>["onReady"]>>[0];

const log = (line: string) => process.stderr.write(`[driver] ${line}\n`);

async function main(): Promise<number> {
  const scenario = process.env.MCP_CONFORMANCE_SCENARIO;
  const url = process.argv[2];
  if (!scenario || !url) {
    log("usage: MCP_CONFORMANCE_SCENARIO=<scenario> client.ts <server-url>");
    return 2;
  }
  const base = mkdtempSync(path.join(os.tmpdir(), "agent-tools-conformance-"));
  const loadErrors: string[] = [];
  let bundles: McpToolBundles | undefined;
  let failed = false;
  const auth = conformanceServerAuth(scenario);
  const registry = await buildBuiltinToolRegistry({
    workdir: base,
    dataDir: base,
    mcp: {
      ...conformanceHostOptions({ scenario, workdir: base, log }),
      getSettings: () => ({
        servers: [{ id: "conf", enabled: true, transport: "http", url, command: "", args: [], timeoutMs: 20_000, ...(auth ? { auth } : {}) }],
        selected: [],
      }),
      toolSearch: false,
      onLoadError: (error) => loadErrors.push(error.message),
      onReady: (ready) => {
        bundles = ready;
      },
    },
  });
  try {
    for (const message of loadErrors) log(`load failed: ${message}`);
    const remoteNames = new Map<string, string>();
    for (const name of Object.keys(registry.metadataByName)) {
      const target = bundles?.resolveToolName(name);
      if (target?.serverId === "conf") remoteNames.set(target.toolName, name);
    }
    log(`scenario ${scenario}: tools ${[...remoteNames.keys()].join(", ") || "(none)"}`);
    if (loadErrors.length > 0) failed = true;
    for (const call of planForScenario(scenario).calls) {
      const name = remoteNames.get(call.tool);
      if (!name) {
        log(`skipped ${call.tool}: the server does not list it`);
        continue;
      }
      const result = await registry.executeToolCall({ id: `call-${call.tool}`, name, arguments: call.arguments });
      const text = result.content.map((part) => (part.type === "text" ? part.text : `[${part.type}]`)).join("\n");
      log(`${name} -> ${result.isError ? "error" : "ok"}: ${text.slice(0, 500)}`);
      if (result.isError) failed = true;
    }
  } finally {
    await registry.close();
    rmSync(base, { recursive: true, force: true });
  }
  return failed ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    log(`crashed: ${(error as Error)?.stack ?? String(error)}`);
    process.exit(1);
  },
);
