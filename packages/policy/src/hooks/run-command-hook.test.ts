import { readFileSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { RunningProcess } from "@agent-tools/core";
import { ExecaProcessRunner } from "@agent-tools/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { HookRunContext } from "./hook-run.js";
import type { CommandHookHandler, HookInput } from "./hook-settings.js";
import { runCommandHook } from "./run-command-hook.js";

const runner = new ExecaProcessRunner();
let directory: string;

const input: HookInput = {
  hook_event_name: "PreToolUse",
  cwd: "/",
  permission_mode: "default",
  tool_name: "Bash",
  tool_input: { command: "rm -rf build" },
  tool_use_id: "call-1",
};

/** Writes a node script to the temp dir; the command runs it with this very node. */
async function script(name: string, source: string): Promise<string> {
  const path = join(directory, name);
  await writeFile(path, source);
  return `"${process.execPath}" "${path}"`;
}

function context(signal: AbortSignal = new AbortController().signal): HookRunContext & { running: Set<RunningProcess> } {
  return { workdir: directory, signal, processRunner: runner, running: new Set() };
}

const readStdin = "const chunks = []; for await (const c of process.stdin) chunks.push(c); const input = JSON.parse(Buffer.concat(chunks).toString());";

/** True while `pid` runs (a zombie waiting to be reaped does not count). */
function isAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return false;
  }
}

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), "policy-command-hook-"));
});
afterAll(async () => {
  await runner.close();
  await rm(directory, { recursive: true, force: true });
});

describe("runCommandHook (real processes)", () => {
  it("sends the input as JSON on stdin and reads a JSON answer from stdout", async () => {
    const command = await script(
      "deny.mjs",
      `${readStdin}
       process.stdout.write(JSON.stringify({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny",
         permissionDecisionReason: "saw " + input.tool_input.command + " in " + process.cwd() + " project " + process.env.AGENT_TOOLS_PROJECT_DIR + " mode " + process.env.MODE } }));`,
    );
    const handler: CommandHookHandler = { type: "command", command, env: { MODE: "strict" } };
    const outcome = await runCommandHook(handler, input, context());
    expect(outcome).toEqual({
      kind: "answered",
      output: {
        hookSpecificOutput: {
          hookEventName: "PreToolUse",
          permissionDecision: "deny",
          permissionDecisionReason: `saw rm -rf build in ${directory} project ${directory} mode strict`,
        },
      },
    });
  });

  it("reads exit 0 with nothing on stdout as no opinion", async () => {
    const outcome = await runCommandHook({ type: "command", command: "cat > /dev/null" }, input, context());
    expect(outcome).toEqual({ kind: "answered", output: {} });
  });

  it("answers no opinion for a command that exits 0 without reading stdin", async () => {
    expect(await runCommandHook({ type: "command", command: "true" }, { ...input, tool_input: { text: "x".repeat(300_000) } }, context())).toEqual({
      kind: "answered",
      output: {},
    });
  });

  it("blocks on exit 2 with stderr as the reason", async () => {
    const command = await script("block.mjs", `process.stderr.write("no deleting build/\\n"); process.exit(2);`);
    expect(await runCommandHook({ type: "command", command }, input, context())).toEqual({ kind: "blocked", reason: "no deleting build/" });
  });

  it("fails on a crash (exit 1) naming the exit code and stderr", async () => {
    const command = await script("crash.mjs", `throw new Error("hook bug");`);
    const outcome = await runCommandHook({ type: "command", command }, input, context());
    expect(outcome.kind).toBe("failed");
    expect(outcome.kind === "failed" && outcome.error).toMatch(/^exited with code 1: .*hook bug/);
  });

  it("fails on garbage on stdout, and on JSON of the wrong shape", async () => {
    const garbage = await script("garbage.mjs", `console.log("allow it please");`);
    const garbageOutcome = await runCommandHook({ type: "command", command: garbage }, input, context());
    expect(garbageOutcome).toEqual({ kind: "failed", error: 'its answer is not JSON: "allow it please\\n"' });
    const wrong = await script("wrong.mjs", `console.log(JSON.stringify({ hookSpecificOutput: { permissionDecision: "yes" } }));`);
    const wrongOutcome = await runCommandHook({ type: "command", command: wrong }, input, context());
    expect(wrongOutcome.kind === "failed" && wrongOutcome.error).toContain("permissionDecision");
    const array = await runCommandHook({ type: "command", command: "echo '[]'" }, input, context());
    expect(array).toEqual({ kind: "failed", error: "its answer is not a JSON object" });
  });

  it("kills a hanging hook's whole tree at its timeout", async () => {
    const pidFile = join(directory, "hang.pids");
    const command = await script(
      "hang.mjs",
      `import { spawn } from "node:child_process"; import { writeFileSync } from "node:fs";
       const child = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
       writeFileSync(${JSON.stringify(pidFile)}, process.pid + " " + child.pid);
       setInterval(() => {}, 1000);`,
    );
    const own = context();
    const started = performance.now();
    const outcome = await runCommandHook({ type: "command", command, timeoutMs: 1500 }, input, own);
    const elapsed = performance.now() - started;
    expect(outcome).toEqual({ kind: "failed", error: "timed out after 1500 ms" });
    expect(elapsed).toBeGreaterThanOrEqual(1400);
    expect(elapsed).toBeLessThan(10_000);
    const pids = (await readFile(pidFile, "utf8")).split(" ").map(Number);
    expect(pids).toHaveLength(2);
    for (const pid of pids) expect(isAlive(pid)).toBe(false);
    expect(own.running.size).toBe(0);
  });

  it("kills the hook when the call is aborted", async () => {
    const controller = new AbortController();
    const pidFile = join(directory, "abort.pid");
    const command = await script(
      "abort.mjs",
      `import { writeFileSync } from "node:fs"; writeFileSync(${JSON.stringify(pidFile)}, String(process.pid)); setInterval(() => {}, 1000);`,
    );
    const running = runCommandHook({ type: "command", command }, input, context(controller.signal));
    for (let tries = 0; tries < 100; tries += 1) {
      if (await readFile(pidFile, "utf8").catch(() => "")) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    controller.abort();
    expect(await running).toEqual({ kind: "failed", error: "was aborted" });
    expect(isAlive(Number(await readFile(pidFile, "utf8")))).toBe(false);
  });

  it("fails without starting when there is no process runner", async () => {
    const outcome = await runCommandHook({ type: "command", command: "true" }, input, { ...context(), processRunner: undefined });
    expect(outcome).toEqual({ kind: "failed", error: "cannot run: the registry has no process runner" });
  });

  it("fails when stdout is over 1 MiB", async () => {
    const command = await script("flood.mjs", `process.stdout.write("x".repeat(2 * 1024 * 1024)); setInterval(() => {}, 1000);`);
    const outcome = await runCommandHook({ type: "command", command }, input, context());
    expect(outcome).toEqual({ kind: "failed", error: "wrote more than 1048576 bytes to stdout" });
  });

  it("fails when the cwd does not exist", async () => {
    const outcome = await runCommandHook({ type: "command", command: "true", cwd: "missing-dir" }, input, context());
    expect(outcome.kind).toBe("failed");
  });
});
