import { mkdtempSync, readFileSync, realpathSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { USAGE } from "../src/cli-options.js";
import { type FakeChatCompletionsServer, startFakeChatCompletionsServer } from "./fake-chat-completions-server.js";
import { runCliCapturing } from "./run-cli-capturing.js";

const exampleDir = fileURLToPath(new URL("..", import.meta.url));
const scratch = realpathSync(mkdtempSync(path.join(os.tmpdir(), "cli-approval-")));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("--yes applies only where the user typed it", () => {
  let server: FakeChatCompletionsServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it("the demo package script passes --yes-if-scripted, never a bare --yes", () => {
    const { scripts } = JSON.parse(readFileSync(path.join(exampleDir, "package.json"), "utf8")) as { scripts: Record<string, string> };
    expect(scripts.demo).toMatch(/ --yes-if-scripted$/);
    expect(scripts.demo).not.toMatch(/ (--yes|-y)( |$)/);
  });

  it("with --yes-if-scripted, a configured model still asks (and with no terminal is declined)", async () => {
    const workdir = mkdtempSync(path.join(scratch, "project-"));
    server = await startFakeChatCompletionsServer((_request, index) =>
      index === 0
        ? { toolCalls: [{ id: "call_write", name: "Write", arguments: JSON.stringify({ path: "x.txt", content: "x" }) }] }
        : { content: "Not allowed." },
    );
    const run = await runCliCapturing(["--base-url", server.baseUrl, "--workdir", workdir, "--yes-if-scripted", "--json", "write x"], scratch);
    expect(run.code).toBe(0);
    expect(run.events).toContainEqual(expect.objectContaining({ type: "notice", message: expect.stringMatching(/A real model is configured: .* ask first/) }));
    expect(run.events).toContainEqual(expect.objectContaining({ type: "approval", toolName: "Write", approved: false, by: "no-terminal" }));
    expect(() => readFileSync(path.join(workdir, "x.txt"))).toThrow();
  });

  it("with --yes-if-scripted, the offline scripted demo approves by itself", async () => {
    const run = await runCliCapturing(["--yes-if-scripted", "--json"], scratch);
    expect(run.code).toBe(0);
    const approvals = run.events.filter((event) => event.type === "approval");
    expect(approvals.map((event) => [event.toolName, event.approved, event.by])).toEqual([
      ["Edit", true, "flag"],
      ["Bash", true, "flag"],
    ]);
    expect(run.events.at(-1)).toMatchObject({ type: "session-end", status: "answered" });
  }, 60_000);

  it("--help names the data directory the code uses", () => {
    expect(USAGE).toMatch(
      /--data-dir <dir> +where the SDK keeps its files \(default: ~\/\.agent-tools; a\n +temporary directory when the demo's sample project is used\)/,
    );
    expect(USAGE).toContain("--yes-if-scripted");
  });
});
