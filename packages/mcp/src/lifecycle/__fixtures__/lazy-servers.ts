// Generates lazy-server configurations and reads which of them started (real processes).
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { McpServerConfigInput } from "../../settings.js";

/** The fixture server's entry. */
export const LAZY_SERVER_ENTRY = path.join(path.dirname(fileURLToPath(import.meta.url)), "lazy-server.mjs");

/** A stdio server named `name` listing `tools`, recording its starts in `recordDir`. */
export function lazyServer(
  name: string,
  recordDir: string,
  tools: readonly string[] = ["hello"],
  extra: Partial<McpServerConfigInput> = {},
): McpServerConfigInput {
  return { id: name, command: process.execPath, args: [LAZY_SERVER_ENTRY, name, recordDir, tools.join(",")], timeoutMs: 20_000, ...extra };
}

/** `count` servers `s0`..`s<count-1>`, each with the tools `<name>_a` and `<name>_b`. */
export function lazyServers(count: number, recordDir: string): McpServerConfigInput[] {
  return Array.from({ length: count }, (_, index) => lazyServer(`s${index}`, recordDir, [`s${index}_a`, `s${index}_b`]));
}

/** Every start recorded so far: server name and process id, in order. */
export function recordedStarts(recordDir: string): Array<{ name: string; pid: number }> {
  const file = path.join(recordDir, "starts.log");
  if (!existsSync(file)) return [];
  return readFileSync(file, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => {
      const [name = "", pid = "0"] = line.split(" ");
      return { name, pid: Number(pid) };
    });
}

/** True while process `pid` runs (a zombie counts as ended: PID 1 here may not reap it). */
export function processAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return false;
  }
}

/** Every call a server received so far: "<server> <tool>", in order. */
export function recordedCalls(recordDir: string): string[] {
  const file = path.join(recordDir, "calls.log");
  return existsSync(file) ? readFileSync(file, "utf8").split("\n").filter(Boolean) : [];
}
