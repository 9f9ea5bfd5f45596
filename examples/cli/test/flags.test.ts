import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runCliCapturing } from "./run-cli-capturing.js";
import { type FakeChatCompletionsServer, startFakeChatCompletionsServer } from "./fake-chat-completions-server.js";

describe("CLI flags reach the registry and the loop", () => {
  let scratch: string;
  let workdir: string;
  let docs: string;
  let server: FakeChatCompletionsServer | undefined;

  beforeEach(() => {
    scratch = realpathSync(mkdtempSync(path.join(os.tmpdir(), "cli-flags-")));
    workdir = path.join(scratch, "project");
    docs = path.join(scratch, "docs");
    mkdirSync(workdir);
    mkdirSync(docs);
    writeFileSync(path.join(docs, "guide.md"), "# Guide\nUse root paths.\n");
  });
  afterEach(async () => {
    await server?.close();
    server = undefined;
    rmSync(scratch, { recursive: true, force: true });
  });

  it("--add-dir grants a read-only root that Read can use and Write cannot", async () => {
    server = await startFakeChatCompletionsServer((request, index) => {
      if (index === 0) {
        expect(request.body.messages[0]!.content).toContain("root://docs/ (read-only)");
        return {
          toolCalls: [
            { id: "r", name: "Read", arguments: JSON.stringify({ path: "root://docs/guide.md" }) },
            { id: "w", name: "Write", arguments: JSON.stringify({ path: "root://docs/new.md", content: "x" }) },
          ],
        };
      }
      return { content: "done" };
    });
    const run = await runCliCapturing(
      ["--base-url", server.baseUrl, "--workdir", workdir, "--add-dir", `docs=${docs}`, "--yes", "--json", "read the guide"],
      scratch,
    );
    expect(run.code).toBe(0);
    const ends = run.events.filter((event) => event.type === "tool-end");
    expect(ends.find((event) => event.callId === "r")).toMatchObject({ isError: false, text: expect.stringContaining("Use root paths.") });
    expect(ends.find((event) => event.callId === "w")).toMatchObject({ isError: true, text: expect.stringMatching(/read-only/) });
  });

  it("--scope cron offers no sessions, ProcessWait or task tools", async () => {
    server = await startFakeChatCompletionsServer(() => ({ content: "nothing to do" }));
    const run = await runCliCapturing(["--base-url", server.baseUrl, "--workdir", workdir, "--scope", "cron", "--json", "hi"], scratch);
    expect(run.code).toBe(0);
    const offered = server.requests[0]!.body.tools!.map((tool) => tool.function.name);
    expect(offered).toEqual(expect.arrayContaining(["Read", "Write", "Edit", "Glob", "Grep", "Bash"]));
    for (const name of ["ProcessWait", "ProcessStop", "TaskCreate", "TaskUpdate", "TaskList"]) expect(offered).not.toContain(name);
    expect(run.events[0]).toMatchObject({ type: "session-start", runtimeScope: "cron" });
  });

  it("--max-turns stops a model that never answers, with exit code 3", async () => {
    server = await startFakeChatCompletionsServer((_request, index) => ({
      toolCalls: [{ id: `g${index}`, name: "Glob", arguments: JSON.stringify({ pattern: `**/*.${index}` }) }],
    }));
    const run = await runCliCapturing(["--base-url", server.baseUrl, "--workdir", workdir, "--max-turns", "2", "--json", "loop"], scratch);
    expect(run.code).toBe(3);
    expect(server.requests).toHaveLength(2);
    expect(run.events.at(-1)).toMatchObject({ type: "session-end", status: "max-turns", turns: 2, toolCalls: 2 });
  });

  for (const fixes of [true, false]) {
    it(`with a configured model and no prompt, gives the model the demo task and checks it with the sample's tests (${fixes ? "fixed" : "not fixed"})`, async () => {
      server = await startFakeChatCompletionsServer((request, index) => {
        if (index === 0) {
          expect(request.body.messages[1]!.content).toMatch(/discount/);
          if (!fixes) return { content: "I cannot help." };
          // A real model would send an exact old_string: the file is CRLF.
          const edit = { path: "src/pricing.js", old_string: "return amount - percent;", new_string: "return amount - (amount * percent) / 100;" };
          return { toolCalls: [{ id: "e", name: "Edit", arguments: JSON.stringify(edit) }] };
        }
        return { content: "Fixed." };
      });
      const run = await runCliCapturing(["--base-url", server.baseUrl, "--yes", "--json"], scratch);
      expect(run.code).toBe(fixes ? 0 : 1);
      expect(run.events.at(-2)).toMatchObject({
        type: "notice",
        message: fixes
          ? expect.stringMatching(/tests pass \(tests 7, pass 7, fail 0\)/)
          : expect.stringMatching(/tests still fail \(tests 7, pass 4, fail 3\)/),
      });
      expect(run.events.at(-1)).toMatchObject({ type: "session-end", status: "answered" });
    });
  }

  it("rejects a bad flag or a bad root with a usage error (exit 2)", async () => {
    const bad = await runCliCapturing(["--scope", "weekly"], scratch);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--scope must be chat or cron/);
    const root = await runCliCapturing(["--base-url", "http://127.0.0.1:9/v1", "--workdir", workdir, "--add-dir", `Bad Alias=${docs}`, "hi"], scratch);
    expect(root.code).toBe(2);
    expect(root.stderr).toMatch(/alias/);
    const help = await runCliCapturing(["--help"], scratch);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/--add-dir alias=path\[:ro\|rw\]/);
  });
});
