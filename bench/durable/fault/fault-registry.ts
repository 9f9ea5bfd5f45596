/**
 * The registry every fault host runs its loop on: the SDK's built-in registry
 * (Write, Edit, Bash, Read, Glob, ...) with the counting MCP stdio server
 * (server id `counter`) and, unless the backend is `none`, a call ledger.
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { ToolRegistry } from "@agent-tools/core";
import { normalizeMcpServerConfig } from "@agent-tools/mcp";
import { buildBuiltinToolRegistry } from "@agent-tools/sdk";
import type { FaultHostConfig } from "./host-config.js";
import type { OpenedLedger } from "./open-ledger.js";

const here = path.dirname(fileURLToPath(import.meta.url));

/** A registry and what releases it. */
export interface FaultRegistry {
  readonly registry: ToolRegistry;
  /** True when the registry has a ledger (calls are made durable). */
  readonly durable: boolean;
  close(): Promise<void>;
}

/** Opens the ledger (unless `none`) and builds the registry on it. */
export async function openFaultRegistry(config: FaultHostConfig): Promise<FaultRegistry> {
  mkdirSync(config.workdir, { recursive: true });
  // Imported only when used: the control run needs no ledger package.
  const opened: OpenedLedger | undefined = config.backend === "none" ? undefined : await (await import("./open-ledger.js")).openLedger(config);
  const counter = normalizeMcpServerConfig({
    id: "counter",
    command: process.execPath,
    args: [path.join(here, "counter-server.mjs"), config.counterFile],
    timeoutMs: 30_000,
  });
  try {
    const registry = await buildBuiltinToolRegistry({
      workdir: config.workdir,
      dataDir: config.dataDir,
      memory: false,
      ...(opened === undefined ? {} : { ledger: opened.ledger }),
      mcp: { getSettings: () => ({ servers: [counter], selected: [] }), toolSearch: false, loadFailureMode: "throw" },
    });
    return {
      registry,
      durable: opened !== undefined,
      close: async () => {
        await registry.close();
        await opened?.close();
      },
    };
  } catch (error) {
    await opened?.close();
    throw error;
  }
}
