import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

const packageDir = fileURLToPath(new URL("../..", import.meta.url));
const hostScript = fileURLToPath(new URL("./durable-host.ts", import.meta.url));

/** One JSON line a host printed: a tool result as the model got it. */
export interface HostLine {
  call?: string;
  session_id?: string;
  status?: string;
  cursor?: number;
  has_more?: boolean;
  text?: string;
  details?: Record<string, any>;
  content?: string;
  ready?: boolean;
}

/** A running host process (see durable-host.ts) and the lines it printed so far. */
export interface HostProcess {
  readonly child: ChildProcess;
  readonly lines: HostLine[];
  /** Resolves once a printed line satisfies `predicate`. */
  until(predicate: (line: HostLine) => boolean, timeoutMs?: number): Promise<HostLine>;
  /** Resolves with every line when the host exits. */
  readonly exited: Promise<HostLine[]>;
}

/** Starts a host process running `config` (from this package's sources, as the tests do). */
export function startHost(config: Record<string, unknown>): HostProcess {
  const child = spawn(process.execPath, ["--import", "tsx", "--conditions=@agent-tools/source", hostScript, JSON.stringify(config)], {
    cwd: packageDir,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const lines: HostLine[] = [];
  const watchers = new Set<() => void>();
  let rest = "";
  let errors = "";
  child.stderr?.on("data", (data: Buffer) => (errors += data.toString("utf8")));
  child.stdout?.on("data", (data: Buffer) => {
    rest += data.toString("utf8");
    let newline = rest.indexOf("\n");
    while (newline >= 0) {
      lines.push(JSON.parse(rest.slice(0, newline)) as HostLine);
      rest = rest.slice(newline + 1);
      newline = rest.indexOf("\n");
    }
    for (const watcher of [...watchers]) watcher();
  });
  const exited = new Promise<HostLine[]>((resolve) => child.once("exit", () => resolve(lines)));
  const until = (predicate: (line: HostLine) => boolean, timeoutMs = 30_000) =>
    new Promise<HostLine>((resolve, reject) => {
      const check = () => {
        const found = lines.find(predicate);
        if (found) {
          watchers.delete(check);
          clearTimeout(timer);
          resolve(found);
        }
      };
      const timer = setTimeout(() => {
        watchers.delete(check);
        reject(new Error(`host printed no such line in ${timeoutMs} ms; lines: ${JSON.stringify(lines).slice(0, 2000)}; stderr: ${errors.slice(0, 2000)}`));
      }, timeoutMs);
      watchers.add(check);
      void exited.then(() => setTimeout(check, 0));
      check();
    });
  return { child, lines, until, exited };
}

/** Runs a host to its end and returns its lines (rejects when it fails). */
export async function runHost(config: Record<string, unknown>): Promise<HostLine[]> {
  const host = startHost(config);
  const lines = await host.exited;
  if (host.child.exitCode !== 0) throw new Error(`host exited with ${host.child.exitCode}: ${JSON.stringify(lines).slice(0, 2000)}`);
  return lines;
}

/**
 * A command printing `count` numbered 1 KiB lines in bursts of 50 (about
 * 0.15 s apart): pages fill before the yield. With `gate`, it prints the
 * first `gate.after` lines, then waits until the file `gate.file` exists.
 */
export function burstCommand(count: number, gate?: { after: number; file: string }): string {
  const line = "i=$((i+1)); printf 'line %05d %01017d\\n' $i 0; [ $((i % 50)) -eq 0 ] && sleep 0.15";
  if (!gate) return `i=0; while [ $i -lt ${count} ]; do ${line}; done; true`;
  return `i=0; while [ $i -lt ${gate.after} ]; do ${line}; done; while [ ! -f '${gate.file}' ]; do sleep 0.05; done; while [ $i -lt ${count} ]; do ${line}; done; true`;
}

/** What {@link burstCommand} prints, exactly. */
export function burstOutput(count: number): string {
  let text = "";
  for (let index = 1; index <= count; index += 1) text += `line ${String(index).padStart(5, "0")} ${"0".repeat(1017)}\n`;
  return text;
}
