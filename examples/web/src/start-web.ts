#!/usr/bin/env node
/**
 * The web example's command.
 *
 *   start-web [--port N] [--workdir DIR] [--token T]      gateway (a child process) + host
 *   start-web --gateway-only [--port N] [--token T] [--host-token H]   the gateway alone (runs no tool)
 *   start-web --host-only --gateway URL --host-token H [--workdir DIR]   the executing host alone
 *
 * The model: OPENAI_API_KEY or OPENAI_BASE_URL (with OPENAI_MODEL, default
 * gpt-4o-mini) selects the OpenAI-compatible client; otherwise the scripted
 * demo runs on a temporary copy of the sample project. Two tokens: the page
 * token (`--token`, else $AGENT_TOOLS_WEB_TOKEN, else random) goes into the
 * page's URL and opens `/page` only; the host token (`--host-token`, else
 * $AGENT_TOOLS_WEB_HOST_TOKEN, else random) opens `/host` only, so the
 * page's URL never lets anyone act as the executing host. The page is built
 * first when `dist/page/index.html` is missing. Ctrl-C stops everything.
 *
 * Each mode imports only what it runs: `--gateway-only` never loads the
 * registry, the SDK or a tool package.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import type { ModelClient } from "@agent-tools/core";

const USAGE = `Usage:
  start-web [--port N] [--workdir DIR] [--token T]        the gateway (a child process) and the executing host
  start-web --gateway-only [--port N] [--token T] [--host-token H]   the gateway alone
  start-web --host-only --gateway URL --host-token H [--workdir DIR]   the executing host alone
Tokens: --token (default $AGENT_TOOLS_WEB_TOKEN, else random) is the page's, in the URL you open;
  --host-token (default $AGENT_TOOLS_WEB_HOST_TOKEN, else random) is the executing host's. They must differ.
Model: OPENAI_API_KEY / OPENAI_BASE_URL / OPENAI_MODEL, else the scripted demo on a copy of the sample project.
`;

const PAGE_DIR = fileURLToPath(new URL("../dist/page", import.meta.url));
const VITE_CONFIG = fileURLToPath(new URL("../vite.config.ts", import.meta.url));

/** Builds the page with Vite when `dist/page/index.html` is missing. */
async function ensurePageBuilt(): Promise<void> {
  if (existsSync(path.join(PAGE_DIR, "index.html"))) return;
  process.stderr.write(`Building the page (${path.relative(process.cwd(), PAGE_DIR) || PAGE_DIR}) ...\n`);
  const { build } = await import("vite");
  await build({ configFile: VITE_CONFIG, logLevel: "warn" });
}

/** The configured OpenAI-compatible model, or undefined for the scripted demo. */
async function configuredModel(env: NodeJS.ProcessEnv): Promise<ModelClient | undefined> {
  const apiKey = env.OPENAI_API_KEY?.trim() || undefined;
  const baseURL = env.OPENAI_BASE_URL?.trim() || undefined;
  if (!apiKey && !baseURL) return undefined;
  const { OpenAICompatibleModelClient } = await import("@agent-tools/models");
  return new OpenAICompatibleModelClient({ baseURL: baseURL ?? "https://api.openai.com/v1", model: env.OPENAI_MODEL?.trim() || "gpt-4o-mini", apiKey });
}

function onShutdown(close: () => Promise<void>): void {
  let closing = false;
  const stop = () => {
    if (closing) process.exit(130);
    closing = true;
    void close().then(() => process.exit(0));
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

async function main(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv.filter((argument) => argument !== "--"),
    options: {
      port: { type: "string" },
      workdir: { type: "string" },
      token: { type: "string" },
      "host-token": { type: "string" },
      gateway: { type: "string" },
      "gateway-only": { type: "boolean", default: false },
      "host-only": { type: "boolean", default: false },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  if (values.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  const port = values.port === undefined ? 8787 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port must be 0-65535, not ${values.port}.`);
  const token = values.token ?? (process.env.AGENT_TOOLS_WEB_TOKEN?.trim() || undefined);
  const givenHostToken = values["host-token"] ?? (process.env.AGENT_TOOLS_WEB_HOST_TOKEN?.trim() || undefined);
  const workdir = values.workdir === undefined ? undefined : path.resolve(values.workdir);

  if (values["gateway-only"] && values["host-only"]) throw new Error("Choose one of --gateway-only and --host-only.");
  if (values["host-only"]) {
    if (values.token !== undefined) {
      throw new Error("--host-only takes --host-token (the host token --gateway-only printed), not --token: the page's token cannot open /host.");
    }
    if (!values.gateway || !givenHostToken)
      throw new Error("--host-only needs --gateway URL and --host-token H or $AGENT_TOOLS_WEB_HOST_TOKEN (as printed by --gateway-only).");
    const { startHost } = await import("./host/start-host.js");
    const model = await configuredModel(process.env);
    const host = await startHost({ gatewayUrl: values.gateway, hostToken: givenHostToken, workdir, model });
    process.stdout.write(`Executing host (${host.modelName}) working in ${host.workdir}; connecting to ${values.gateway} ...\n`);
    onShutdown(() => host.close());
    await host.connected;
    process.stdout.write("Connected to the gateway.\n");
    return -1;
  }
  await ensurePageBuilt();
  const { createGatewayToken } = await import("./gateway/gateway-token.js");
  const pageToken = token ?? createGatewayToken();
  const hostToken = givenHostToken ?? createGatewayToken();
  if (pageToken === hostToken) throw new Error("--token and --host-token must differ: the page's token must not open /host.");
  if (values["gateway-only"]) {
    const { startGateway } = await import("./gateway/start-gateway.js");
    const gateway = await startGateway({ pageToken, hostToken, port });
    onShutdown(() => gateway.close());
    process.stdout.write(
      [
        `Gateway at ${gateway.url} (runs no tool; waiting for an executing host).`,
        `Open ${gateway.url}/?token=${encodeURIComponent(pageToken)}`,
        `Start the host (keep its token to yourself; the page's cannot open /host): AGENT_TOOLS_WEB_HOST_TOKEN=${hostToken} pnpm --filter @agent-tools/example-web start -- --host-only --gateway ${gateway.url}`,
        "",
      ].join("\n"),
    );
    return -1;
  }
  // The default: the gateway in a process of its own, the executing host in this one, connected over WebSocket.
  const { spawnGatewayProcess } = await import("./spawn-gateway-process.js");
  const gateway = await spawnGatewayProcess({ port, pageToken, hostToken });
  const { startHost } = await import("./host/start-host.js");
  const model = await configuredModel(process.env);
  const host = await startHost({ gatewayUrl: gateway.url, hostToken, workdir, model }).catch(async (error: unknown) => {
    await gateway.stop();
    throw error;
  });
  let stopping = false;
  onShutdown(async () => {
    stopping = true;
    await host.close();
    await gateway.stop();
  });
  gateway.child.once("exit", () => {
    // Ctrl-C in a terminal reaches both processes; only an unexpected end of the gateway stops the host here.
    if (stopping) return;
    stopping = true;
    process.stderr.write("start-web: the gateway process ended; stopping.\n");
    void host.close().then(() => process.exit(1));
  });
  await host.connected;
  process.stdout.write(
    [
      model ? `Model: ${model.id}. Tools that change files or run commands ask in the page first.` : 'Scripted demo model: type "fix", "long" or "approve".',
      `Gateway: process ${gateway.child.pid} (runs no tool); executing host: process ${process.pid}.`,
      `Workspace: ${host.workdir}`,
      `Open ${gateway.url}/?token=${encodeURIComponent(pageToken)}`,
      "",
    ].join("\n"),
  );
  return -1;
}

try {
  const code = await main(process.argv.slice(2));
  // -1: a server keeps the process alive until Ctrl-C.
  if (code >= 0) process.exitCode = code;
} catch (error) {
  process.stderr.write(`start-web: ${error instanceof Error ? error.message : String(error)}\n\n${USAGE}`);
  process.exitCode = 2;
}
