import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

// What a person sees: the demo runs in a real terminal (tmux) and the test
// reads the screen, colours included.
const exampleDir = fileURLToPath(new URL("..", import.meta.url));
const repoRoot = path.resolve(exampleDir, "../..");
// `node --import tsx`, not the `tsx` wrapper: the wrapper SIGKILLs its child when
// the child is slow (over 60 ms) to acknowledge a relayed Ctrl-C.
const node = process.execPath;
const socket = `agent-tools-cli-test-${process.pid}`;
const scratch = mkdtempSync(path.join(os.tmpdir(), "cli-tmux-"));

function tmux(...args: string[]): string {
  return execFileSync("tmux", ["-L", socket, "-f", path.join(scratch, "tmux.conf"), ...args], { encoding: "utf8" });
}

afterAll(() => {
  try {
    tmux("kill-server");
  } catch {
    // already gone
  }
  rmSync(scratch, { recursive: true, force: true });
});

const hasTmux = existsSync("/usr/bin/tmux") || existsSync("/usr/local/bin/tmux");

function startCli(session: string, flags: string): void {
  writeFileSync(path.join(scratch, "tmux.conf"), "set -g history-limit 20000\n");
  const command = [
    `cd ${JSON.stringify(repoRoot)}`,
    `env -u NO_COLOR -u FORCE_COLOR -u CI ${JSON.stringify(node)} --import tsx --conditions=@agent-tools/source examples/cli/src/main.ts ${flags}`,
    "echo CLI-EXIT=$?",
    "sleep 600",
  ].join("; ");
  tmux("new-session", "-d", "-s", session, "-x", "120", "-y", "50", command);
}

function screenOf(session: string, colours = false): string {
  return tmux("capture-pane", "-p", "-J", ...(colours ? ["-e"] : []), "-S", "-", "-t", session);
}

/** Every screen seen while waiting, for things that show only for a moment (the spinner). */
const seen: string[] = [];

async function waitForScreen(session: string, pattern: RegExp, timeoutMs = 100_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  let screen = "";
  while (Date.now() < deadline) {
    screen = screenOf(session);
    seen.push(screen);
    if (pattern.test(screen)) return screen;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`timed out waiting for ${pattern} on the screen:\n${screen}`);
}

/** The demo's temporary project directory, as the first notice names it. */
function demoDirectory(screen: string): string {
  const match = /sample project in (\S+)\/sample-shop/.exec(screen);
  if (!match) throw new Error(`no demo directory on the screen:\n${screen}`);
  return match[1]!;
}

describe.skipIf(!hasTmux)("the demo in a terminal", () => {
  it("shows tool lines, streamed test output and a coloured diff", async () => {
    startCli("demo", "--demo --yes");
    const screen = await waitForScreen("demo", /CLI-EXIT=\d+/);
    const coloured = screenOf("demo", true);

    expect(screen).toContain("CLI-EXIT=0");
    expect(existsSync(demoDirectory(screen))).toBe(false);
    // Tool lines with their one-line argument summaries.
    expect(screen).toMatch(/▸ TaskCreate "Find the discount bug"/);
    expect(screen).toMatch(/▸ Glob \*\*\/\*\.js/);
    expect(screen).toMatch(/▸ Grep \/applyDiscount\/ in src/);
    expect(screen).toMatch(/▸ Read src\/pricing\.js/);
    expect(screen).toMatch(/▸ Edit src\/pricing\.js/);
    expect(screen).toMatch(/matchStrategy: line-endings/);
    expect(screen).toMatch(/▸ Bash \$ node --test --test-reporter=spec/);
    expect(screen).toMatch(/▸ ProcessWait session bash-/);
    // The test run's output, streamed into the display.
    expect(screen).toMatch(/│ ✔ a 25% discount applies to the whole cart/);
    expect(screen).toMatch(/│ ℹ fail 0/);
    // The diff, with removed lines red and added lines green.
    expect(screen).toMatch(/- {3}return amount - percent;/);
    expect(screen).toMatch(/\+ {3}return amount - \(amount \* percent\) \/ 100;/);
    expect(coloured).toMatch(/\x1b\[31m- {3}return amount - percent;/);
    expect(coloured).toMatch(/\x1b\[32m\+ {3}return amount - \(amount \* percent\) \/ 100;/);
    // The task list and the final summary.
    expect(screen).toMatch(/\[x\] Run the tests/);
    expect(screen).toMatch(/✔ Done · \d+ turns · \d+ tool calls \(0 failed\) · [\d.]+s/);
    // A spinner ran while the tests ran, and left no residue on the final screen.
    expect(seen.some((shown) => /[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] running (Bash|ProcessWait) \d+\.\ds/.test(shown))).toBe(true);
    expect(screen).not.toMatch(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] (thinking|running)/);
  }, 120_000);

  it("asks the person before tools whose policy is ask", async () => {
    startCli("ask", "--demo");
    await waitForScreen("ask", /Allow Edit src\/pricing\.js\? \[y\]es \/ \[n\]o \/ \[a\]lways for Edit: ?$/m);
    tmux("send-keys", "-t", "ask", "a", "Enter");
    await waitForScreen("ask", /Allow Bash \$ node --test --test-reporter=spec\? .*: ?$/m);
    tmux("send-keys", "-t", "ask", "y", "Enter");
    const screen = await waitForScreen("ask", /CLI-EXIT=\d+/);
    expect(screen).toContain("CLI-EXIT=0");
    expect(screen.match(/permission: approved/g)).toHaveLength(2);
    // Read-only tools and the task tools never asked.
    expect(screen).not.toMatch(/Allow (Glob|Grep|Read|ProcessWait|TaskCreate|TaskUpdate)/);
  }, 120_000);

  it("cancels the running session on Ctrl-C and exits 130", async () => {
    startCli("stop", "--demo --yes");
    await waitForScreen("stop", /▸ (Bash|ProcessWait) /);
    tmux("send-keys", "-t", "stop", "C-c");
    const screen = await waitForScreen("stop", /CLI-EXIT=\d+/, 30_000);
    const tail = screen.slice(-1500);
    expect(tail, tail).toContain("CLI-EXIT=130");
    // The running shell call ends as cancelled: a stopped session, or a call aborted while it started.
    expect(tail, tail).toMatch(/▸ (Bash|ProcessWait) .*\n(.*\n)*? {2}(■ cancelled|✗ Cancelled)/);
    expect(tail, tail).toMatch(/■ Cancelled · \d+ turns/);
    // Cancelling still cleans up the temporary project.
    expect(existsSync(demoDirectory(screen))).toBe(false);
  }, 60_000);
});
