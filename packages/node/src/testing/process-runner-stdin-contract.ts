import os from "node:os";
import { afterEach, describe, expect, it } from "vitest";
import type { ProcessOutputChunk, ProcessRunner, RunningProcess } from "@agent-tools/core";
import type { ProcessScript } from "@agent-tools/core/testing";

/** Commands the stdin cases run (through `/bin/sh -c` on a real runner). */
export const STDIN_CONTRACT_COMMANDS = {
  /** Copies stdin to stdout until stdin ends, then exits 0. */
  copy: "cat",
  /** Answers each line at once: `got:<line>`. */
  answer: 'while IFS= read -r line; do printf "got:%s\\n" "$line"; done',
} as const;

/** Bytes in the round-trip case. */
const ROUND_TRIP_BYTES = 5 * 1024 * 1024;

/** Plays {@link STDIN_CONTRACT_COMMANDS} spawned with `stdin: "pipe"` on a ScriptedProcessRunner; undefined for other spawns. */
export const stdinContractScript = (controller: Parameters<ProcessScript>[0]): Promise<void> | undefined => {
  const { command } = controller.options;
  if (controller.options.stdin !== "pipe") return undefined;
  if (command !== STDIN_CONTRACT_COMMANDS.copy && command !== STDIN_CONTRACT_COMMANDS.answer) return undefined;
  let pending = "";
  controller.onStdin((data) => {
    if (command === STDIN_CONTRACT_COMMANDS.copy) return controller.write("stdout", data);
    pending += data.toString("utf8");
    for (let end = pending.indexOf("\n"); end >= 0; end = pending.indexOf("\n")) {
      controller.write("stdout", `got:${pending.slice(0, end)}\n`);
      pending = pending.slice(end + 1);
    }
  });
  const killed = new Promise<void>((resolve) => controller.killed.addEventListener("abort", () => resolve(), { once: true }));
  return Promise.race([controller.stdinEnded, killed]).then(() => controller.exit(0));
};

/** Deterministic bytes whose order a reordered or dropped chunk would break. */
function patternBytes(length: number): Buffer {
  const bytes = Buffer.alloc(length);
  let state = 0x2545f491;
  for (let i = 0; i < length; i += 1) {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    bytes[i] = state >>> 24;
  }
  return bytes;
}

function collect(child: RunningProcess): { stdout: () => Buffer; next: (predicate: (text: string) => boolean) => Promise<string> } {
  const chunks: Buffer[] = [];
  const waiters = new Set<() => void>();
  child.onOutput((chunk: ProcessOutputChunk) => {
    if (chunk.stream !== "stdout") return;
    chunks.push(chunk.data);
    for (const waiter of [...waiters]) waiter();
  });
  const stdout = () => Buffer.concat(chunks);
  const next = (predicate: (text: string) => boolean) =>
    new Promise<string>((resolve, reject) => {
      const check = () => {
        if (!predicate(stdout().toString("utf8"))) return;
        waiters.delete(check);
        resolve(stdout().toString("utf8"));
      };
      waiters.add(check);
      check();
      void child.exited.then(() => {
        if (waiters.delete(check)) reject(new Error(`the process exited before the expected output; stdout: ${JSON.stringify(stdout().toString("utf8"))}`));
      });
    });
  return { stdout, next };
}

/** Options of {@link runProcessRunnerStdinContract}. */
export interface ProcessRunnerStdinContractOptions {
  /** The cwd of the cases' processes; default `os.tmpdir()`. */
  cwd?: () => string;
  /**
   * Run the back-pressure case (a 16 MiB write to a process that never
   * reads stays pending until the kill rejects it). Default true; a fake
   * runner that accepts every byte at once passes false.
   */
  backPressure?: boolean;
}

/**
 * The `stdin: "pipe"` cases of the ProcessRunner contract, as a vitest
 * suite (also part of `runProcessRunnerContract`): a 5 MiB round trip through
 * `cat` in order, a line-by-line exchange, `end()`, writes after the end and
 * after the exit, kill and close of a piped process, and the misuse checks.
 *
 * @example
 * runProcessRunnerStdinContract("confined", () => confinedRunner());
 */
export function runProcessRunnerStdinContract(name: string, createRunner: () => ProcessRunner, options: ProcessRunnerStdinContractOptions = {}): void {
  describe(`ProcessRunner stdin contract: ${name}`, () => {
    const runners: ProcessRunner[] = [];
    const make = () => {
      const runner = createRunner();
      runners.push(runner);
      return runner;
    };
    const cwd = () => options.cwd?.() ?? os.tmpdir();
    afterEach(async () => {
      await Promise.all(runners.splice(0).map((runner) => runner.close()));
    });

    it("round-trips 5 MiB through cat in write order, writes resolving under back-pressure", async () => {
      const child = make().spawn({ command: STDIN_CONTRACT_COMMANDS.copy, shell: true, cwd: cwd(), stdin: "pipe" });
      const output = collect(child);
      const stdin = child.stdin!;
      const data = patternBytes(ROUND_TRIP_BYTES);
      const writes: Promise<void>[] = [];
      for (let offset = 0, step = 1; offset < data.length; step += 1) {
        const size = 1 + ((step * 7919) % 100_000);
        writes.push(stdin.write(data.subarray(offset, offset + size)));
        offset += size;
      }
      await Promise.all(writes);
      await stdin.end();
      expect(await child.exited).toMatchObject({ exitCode: 0 });
      await child.outputClosed;
      const echoed = output.stdout();
      expect(echoed.length).toBe(data.length);
      expect(echoed.equals(data)).toBe(true);
    });

    it("answers line by line: write, read the answer, write again", async () => {
      const child = make().spawn({ command: STDIN_CONTRACT_COMMANDS.answer, shell: true, cwd: cwd(), stdin: "pipe" });
      const output = collect(child);
      await child.stdin!.write('{"jsonrpc":"2.0","id":1,"method":"initialize"}\n');
      expect(await output.next((text) => text.includes("\n"))).toBe('got:{"jsonrpc":"2.0","id":1,"method":"initialize"}\n');
      await child.stdin!.write(new TextEncoder().encode('{"id":2}\n'));
      expect(await output.next((text) => text.split("\n").length > 2)).toBe('got:{"jsonrpc":"2.0","id":1,"method":"initialize"}\ngot:{"id":2}\n');
      await child.stdin!.end();
      expect((await child.exited).exitCode).toBe(0);
    });

    it("end() closes stdin (cat exits 0), is idempotent, and later writes reject", async () => {
      const child = make().spawn({ command: STDIN_CONTRACT_COMMANDS.copy, shell: true, cwd: cwd(), stdin: "pipe" });
      const output = collect(child);
      await child.stdin!.write("last words");
      await Promise.all([child.stdin!.end(), child.stdin!.end()]);
      await expect(child.stdin!.write("more")).rejects.toThrow(/stdin was ended/);
      expect((await child.exited).exitCode).toBe(0);
      await child.outputClosed;
      expect(output.stdout().toString("utf8")).toBe("last words");
      await child.stdin!.end();
    });

    it("a write after the exit rejects with a clear error", async () => {
      const child = make().spawn({ command: "exit 0", shell: true, cwd: cwd(), stdin: "pipe" });
      await child.exited;
      await expect(child.stdin!.write("late\n")).rejects.toThrow(/stdin\.write failed: the process exited/);
      await child.stdin!.end();
    });

    it.skipIf(options.backPressure === false)("a write the process does not read stays pending until the kill rejects it", async () => {
      const child = make().spawn({ command: "exec sleep 30", shell: true, cwd: cwd(), stdin: "pipe" });
      let settled = false;
      const write = child.stdin!.write(Buffer.alloc(16 * 1024 * 1024, 120)).finally(() => {
        settled = true;
      });
      write.catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(settled).toBe(false);
      await child.kill();
      await expect(write).rejects.toThrow(/stdin\.write failed/);
    });

    it("kill() and close() end a process that waits on its stdin", async () => {
      const runner = make();
      const killed = runner.spawn({ command: STDIN_CONTRACT_COMMANDS.copy, shell: true, cwd: cwd(), stdin: "pipe" });
      await killed.stdin!.write("x");
      await killed.kill();
      expect((await killed.exited).exitCode).not.toBe(0);
      await expect(killed.stdin!.write("y")).rejects.toThrow(/stdin\.write failed/);
      const closed = runner.spawn({ command: STDIN_CONTRACT_COMMANDS.copy, shell: true, cwd: cwd(), stdin: "pipe" });
      await closed.stdin!.write("x");
      await runner.close();
      expect((await closed.exited).exitCode).not.toBe(0);
    });

    it("has no stdin without stdin: pipe, and refuses misuse naming the option", () => {
      const runner = make();
      const plain = runner.spawn({ command: "exit 0", shell: true, cwd: cwd() });
      expect(plain.stdin).toBeUndefined();
      const base = { command: STDIN_CONTRACT_COMMANDS.copy, shell: true, cwd: cwd() };
      expect(() => runner.spawn({ ...base, stdin: "pipe", input: "x" })).toThrow(/stdin: "pipe" cannot be combined with input/);
      expect(() => runner.spawn({ ...base, stdin: "pipe", logFile: "/tmp/agent-tools-stdin-contract.log" })).toThrow(/cannot be combined with logFile/);
      expect(() => runner.spawn({ ...base, stdin: "inherit" as "pipe" })).toThrow(/stdin must be "pipe" or absent, got "inherit"/);
      expect(() => runner.spawn({ ...base, stdin: "pipe", input: "x" })).toThrow(expect.objectContaining({ name: "SdkError" }));
    });
  });
}
