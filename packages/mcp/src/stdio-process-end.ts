import type { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { isProcessAlive } from "@agent-tools/node/internal";

const spawnedPids = new WeakMap<Transport, number>();

/**
 * Remembers the pid of a stdio transport's process as soon as it starts: the
 * MCP SDK forgets it on close, and a failed connect closes the transport
 * before the caller sees the error.
 */
export function trackStdioProcess(transport: StdioClientTransport): void {
  const start = transport.start.bind(transport);
  transport.start = async () => {
    try {
      await start();
    } finally {
      if (transport.pid !== null) spawnedPids.set(transport, transport.pid);
    }
  };
}

/**
 * Makes sure the process behind a stdio transport has ended. The MCP SDK's
 * own close only ends stdin and signals later, on timers that die with the
 * host; a server that ignores stdin (or a close that raced a failed connect)
 * would otherwise outlive the registry. SIGTERM, a short grace, then SIGKILL.
 */
export async function endStdioProcess(transport: Transport | undefined, graceMs = 500): Promise<void> {
  if (!transport) return;
  const pid = spawnedPids.get(transport);
  if (pid === undefined || !isProcessAlive(pid)) return;
  signal(pid, "SIGTERM");
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline) {
    if (!isProcessAlive(pid)) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  signal(pid, "SIGKILL");
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // already gone
  }
}
