import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { TestPage, waitFor } from "./gateway-test-client.js";

const EXAMPLE_DIR = fileURLToPath(new URL("..", import.meta.url));
const START_WEB = path.join(EXAMPLE_DIR, "src", "start-web.ts");

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return !readFileSync(`/proc/${pid}/stat`, "utf8").includes(") Z ");
  } catch {
    return false;
  }
}

describe("the start-web command (what npm run web starts)", () => {
  let command: ChildProcess | undefined;
  const pages: TestPage[] = [];

  afterEach(async () => {
    for (const page of pages.splice(0)) await page.close();
    if (command && command.exitCode === null) command.kill("SIGKILL");
    command = undefined;
  });

  it("runs the gateway as a process of its own, the host beside it, a demo turn through both, and Ctrl-C ends both", async () => {
    command = spawn(process.execPath, ["--import", "tsx", "--conditions=@agent-tools/source", START_WEB, "--port", "0"], {
      cwd: EXAMPLE_DIR,
      env: { ...process.env, OPENAI_API_KEY: "", OPENAI_BASE_URL: "", AGENT_TOOLS_WEB_TOKEN: "start-web-test-token" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    command.stdout!.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
    command.stderr!.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
    const opened = await waitFor(
      () => /Open (http:\/\/127\.0\.0\.1:\d+)\/\?token=(\S+)/.exec(output) ?? undefined,
      `the printed URL (output so far: ${output})`,
      120_000,
    );
    const [, gatewayUrl, token] = opened;
    expect(decodeURIComponent(token!)).toBe("start-web-test-token");
    const pids = /Gateway: process (\d+) .*executing host: process (\d+)/.exec(output);
    expect(pids).not.toBeNull();
    const gatewayPid = Number(pids![1]);
    expect(Number(pids![2])).toBe(command.pid);
    expect(gatewayPid).not.toBe(command.pid);
    // The gateway process is the gateway-only mode of the command.
    expect(readFileSync(`/proc/${gatewayPid}/cmdline`, "utf8").split("\0")).toContain("--gateway-only");

    const html = await fetch(`${gatewayUrl}/`).then((response) => response.text());
    expect(html).toContain("<div id=");

    const page = await TestPage.connect(gatewayUrl!, "start-web-test-token", "cmd-1");
    pages.push(page);
    const events = await page.runTurn("m1", "fix it please");
    expect(events.at(-1)).toEqual({ type: "turn-end", messageId: "m1", status: "answered" });
    expect(events.some((event) => event.type === "tool-end" && event.toolName === "Edit" && !event.isError)).toBe(true);

    const exited = new Promise<number | null>((resolve) => command!.once("exit", (code) => resolve(code)));
    command.kill("SIGINT");
    expect(await exited).toBe(0);
    await waitFor(() => !isAlive(gatewayPid), "the gateway process to end");
  });
});
