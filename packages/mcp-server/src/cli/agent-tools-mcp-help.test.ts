/**
 * The `--help` of the built `agent-tools-mcp` (dist/cli/main.js, as npm
 * installs it) says what `--allow-origin` does, and a run of the same built
 * bin shows it is true: the default origins stay accepted next to the one
 * added, any other browser origin is refused.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { rawInitializeStatus } from "../testing-helpers.js";

const builtMain = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../dist/cli/main.js");
const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

function runBuilt(args: string[]) {
  const child = spawn(process.execPath, [builtMain, ...args], { stdio: "pipe" });
  cleanups.push(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    stdout += chunk;
  });
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on("close", (code) => resolve({ code, stdout, stderr })),
  );
  const listening = new Promise<string>((resolve, reject) => {
    const check = () => {
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(stderr);
      if (match) resolve(match[1] as string);
    };
    child.stderr.on("data", check);
    child.on("close", () => reject(new Error(`the bin exited before listening: ${stderr}`)));
  });
  // A run that never listens (--help) rejects it; only a caller that awaits it should see that.
  listening.catch(() => undefined);
  return { child, exited, listening };
}

describe("agent-tools-mcp --help (built bin)", { timeout: 120_000 }, () => {
  it("says --allow-origin adds to the default origins, not replaces them, and names the defaults", async () => {
    expect(existsSync(builtMain), `build first: pnpm exec tsc -b packages/mcp-server (${builtMain})`).toBe(true);
    const help = await runBuilt(["--help"]).exited;
    expect(help.code).toBe(0);
    const block = /--allow-origin <origin>[\s\S]*?(?=\n {2}--allow-host)/.exec(help.stdout)?.[0].replace(/\s+/g, " ") ?? "";
    expect(block).toContain("in addition to the default origins (it does not replace them)");
    expect(block).toContain("http://127.0.0.1:<port>, http://localhost:<port>, http://[::1]:<port>");
    expect(block).toContain("the bound address");
    expect(block).toContain("A request without an Origin header is accepted");
    expect(block).toContain("repeatable");
  });

  it("behaves as the help says: the defaults stay accepted next to --allow-origin, other origins get 403", async () => {
    const base = mkdtempSync(path.join(os.tmpdir(), "agent-tools-mcp-help-"));
    cleanups.push(() => rmSync(base, { recursive: true, force: true }));
    const bin = runBuilt(["--workdir", base, "--data-dir", path.join(base, "data"), "--http", "0", "--allow-origin", "http://localhost:5173"]);
    const url = await bin.listening;
    const port = new URL(url).port;
    expect(await rawInitializeStatus(url, { origin: "http://localhost:5173" })).toBe(200);
    expect(await rawInitializeStatus(url, { origin: `http://127.0.0.1:${port}` })).toBe(200);
    expect(await rawInitializeStatus(url, { origin: `http://localhost:${port}` })).toBe(200);
    expect(await rawInitializeStatus(url, {})).toBe(200);
    expect(await rawInitializeStatus(url, { origin: "http://evil.example" })).toBe(403);
    bin.child.kill("SIGTERM");
    expect((await bin.exited).code).toBe(0);
  });
});
