// Shared setup of the end-to-end tests: one restate-server, a temp dir per scenario, the endpoint child.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { ToolCall } from "@agent-tools/core";
import type { CallLedgerEntry } from "@agent-tools/core/durable";
import { openCallLedger } from "@agent-tools/durable";
import { openSqliteStorage } from "@agent-tools/storage";
import { type EndpointProcess, type RestateServer, startEndpointProcess } from "../testing/index.js";

export const ENDPOINT_ENTRY = path.join(path.dirname(fileURLToPath(import.meta.url)), "tool-loop-endpoint.ts");

/** One scenario: its folder (tools' effects), its ledger file, its endpoint child (restartable on one port). */
export class LoopScenario {
  readonly dir = mkdtempSync(path.join(tmpdir(), "restate-loop-"));
  readonly ledgerFile = path.join(this.dir, "ledger.sqlite");
  endpoint: EndpointProcess | undefined;
  starts = 0;

  constructor(readonly server: RestateServer) {}

  /**
   * Starts the endpoint child and registers it; then loads `spares` standby successors one
   * after the other in the background (loading them all at once starves a loaded machine),
   * so each {@link restart} takes milliseconds once its spare is loaded.
   */
  async start(options: { ledger?: boolean; spares?: number } = {}): Promise<EndpointProcess> {
    this.#options = options;
    const endpoint = await this.#promote(await this.#standby());
    await this.server.registerDeployment(endpoint.url);
    let previous: Promise<unknown> = Promise.resolve();
    for (let index = 0; index < (options.spares ?? 0); index += 1) {
      const spare = previous.catch(() => {}).then(() => this.#standby(endpoint.port));
      // A spare that fails to load is reported by the restart() that takes it, not as an unhandled rejection now.
      spare.catch(() => {});
      this.#spares.push(spare);
      previous = spare;
    }
    return endpoint;
  }

  /** SIGKILLs the endpoint (the host dies) once a successor is loaded, and lets it listen on the same port. */
  async restart(): Promise<EndpointProcess> {
    const next = await (this.#spares.shift() ?? this.#standby(this.endpoint?.port));
    await this.endpoint?.kill();
    return this.#promote(next);
  }

  /** Resolves once the next `count` spares are loaded (so that many restarts take milliseconds). */
  async sparesReady(count: number): Promise<void> {
    if (this.#spares.length < count) throw new Error(`only ${this.#spares.length} spares left, ${count} wanted`);
    await Promise.all(this.#spares.slice(0, count));
  }

  #options: { ledger?: boolean } = {};
  #spares: Promise<EndpointProcess>[] = [];

  async #promote(next: EndpointProcess): Promise<EndpointProcess> {
    await next.activate();
    this.endpoint = next;
    this.starts += 1;
    return next;
  }

  #standby(port?: number): Promise<EndpointProcess> {
    const options = this.#options;
    return startEndpointProcess({
      entry: ENDPOINT_ENTRY,
      port,
      standby: true,
      env: options.ledger === false ? { LOOP_DIR: this.dir } : { LOOP_DIR: this.dir, LEDGER_FILE: this.ledgerFile },
    });
  }

  /** Lines of a file the tools append to (lines.txt: AppendLine runs; runs.txt: WriteNote runs). */
  lines(name: "lines.txt" | "runs.txt"): string[] {
    try {
      return readFileSync(path.join(this.dir, name), "utf8")
        .split("\n")
        .filter((line) => line !== "");
    } catch {
      return [];
    }
  }

  /** How many times each value occurs in a file. */
  counts(name: "lines.txt" | "runs.txt"): Map<string, number> {
    const counts = new Map<string, number>();
    for (const line of this.lines(name)) counts.set(line, (counts.get(line) ?? 0) + 1);
    return counts;
  }

  /** The ledger's entries of a run, read from the SQLite file by this (the test's) process. */
  async ledgerEntries(runId: string): Promise<CallLedgerEntry[]> {
    const storage = await openSqliteStorage({ filename: this.ledgerFile });
    try {
      return await (await openCallLedger(storage)).list(runId);
    } finally {
      await storage.close();
    }
  }

  async close(): Promise<void> {
    await this.endpoint?.kill();
    for (const spare of this.#spares) await (await spare.catch(() => undefined))?.kill();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** An AppendLine call. */
export function append(id: string, extra: { hold?: boolean; delayMs?: number } = {}): ToolCall {
  return { id, name: "AppendLine", arguments: extra };
}

/** A WriteNote call. */
export function write(id: string, extra: { hold?: boolean; delayMs?: number } = {}): ToolCall {
  return { id, name: "WriteNote", arguments: { name: id, content: `content of ${id}`, ...extra } };
}
