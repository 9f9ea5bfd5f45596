import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { SAMPLE_TEST_COMMAND } from "../src/demo/sample-project.js";
import { runCliCapturing } from "./run-cli-capturing.js";

const scratch = realpathSync(mkdtempSync(path.join(os.tmpdir(), "cli-settings-e2e-")));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function writeSettings(name: string, settings: unknown): string {
  const file = path.join(scratch, name);
  writeFileSync(file, typeof settings === "string" ? settings : JSON.stringify(settings, null, 2));
  return file;
}

/**
 * A real command hook: reads the hook input from stdin, appends its tool_name
 * to `log`, and after 300 ms answers `{}` (no opinion). With `timeout: 5`
 * (seconds) it finishes in time; read as 5 ms it would time out and deny.
 */
function loggingHookCommand(log: string): string {
  const script = [
    "let s='';",
    "process.stdin.on('data',(d)=>{s+=d;}).on('end',()=>{",
    "require('fs').appendFileSync(process.argv[1],JSON.parse(s).tool_name+'\\n');",
    "setTimeout(()=>process.stdout.write('{}'),300);",
    "});",
  ].join("");
  return `'${process.execPath}' -e "${script}" '${log}'`;
}

describe("--settings and --explain on the offline demo", () => {
  it("explains every call, applies the file's rules (the test run is denied, the Edit allowed without a question) and runs hooks once", async () => {
    const hookLog = path.join(scratch, "hook.log");
    const settings = writeSettings("settings.json", {
      $schema: "https://json.schemastore.org/claude-code-settings.json",
      model: "opus",
      env: { CI: "1" },
      permissions: { allow: ["Edit(src/**)"], deny: ["Bash(node --test *)"] },
      hooks: { PreToolUse: [{ matcher: "Read", hooks: [{ type: "command", command: loggingHookCommand(hookLog), timeout: 5 }] }] },
    });
    const run = await runCliCapturing(["--settings", settings, "--explain", "--json", "--yes-if-scripted"], scratch);

    // The other keys of a Claude Code settings file are named once, on stderr.
    expect(run.stderr).toBe(`agent-tools-cli: --settings ${settings}: this CLI ignores model, env (it reads only permissions and hooks).\n`);
    const policies = run.events.filter((event) => event.type === "policy");
    const starts = run.events.filter((event) => event.type === "tool-start");
    // One explanation per call, each right after its call's tool-start.
    expect(policies.map((event) => event.callId)).toEqual(starts.map((event) => event.callId));
    for (const policy of policies) {
      const index = run.events.indexOf(policy);
      expect(run.events[index - 1]).toMatchObject({ type: "tool-start", callId: policy.callId });
      expect(Object.keys(policy).sort()).toEqual(expect.arrayContaining(["callId", "decision", "hooks", "time", "toolName", "type"]));
    }

    // The demo's test run meets the deny rule: explained, then denied, and the model is told which rule.
    const bashPolicy = policies.find((event) => event.toolName === "Bash");
    expect(bashPolicy).toMatchObject({
      decision: "deny",
      rule: "Bash(node --test *)",
      layer: expect.any(String),
      reason: expect.stringContaining("Bash(node --test *)"),
    });
    const bashEnd = run.events.find((event) => event.type === "tool-end" && event.toolName === "Bash");
    expect(bashEnd).toMatchObject({
      callId: bashPolicy!.callId,
      isError: true,
      arguments: { command: SAMPLE_TEST_COMMAND },
      text: expect.stringContaining("Bash(node --test *)"),
    });
    expect(run.events.some((event) => event.type === "tool-end" && event.toolName === "ProcessWait")).toBe(false);

    // The Edit is allowed by the file's rule: no approval question (the demo alone asks for Edit and Bash).
    expect(policies.find((event) => event.toolName === "Edit")).toMatchObject({ decision: "allow", rule: "Edit(src/**)" });
    expect(run.events.find((event) => event.type === "tool-end" && event.toolName === "Edit")).toMatchObject({ isError: false });
    expect(run.events.filter((event) => event.type === "approval")).toEqual([]);

    // The Read hook ran once, for the call (not for its explanation), with the input on stdin and its timeout in seconds.
    expect(policies.find((event) => event.toolName === "Read")).toMatchObject({ hooks: [] });
    expect(run.events.find((event) => event.type === "tool-end" && event.toolName === "Read")).toMatchObject({ isError: false });
    expect(readFileSync(hookLog, "utf8")).toBe("Read\n");

    // Without its test run the demo cannot prove the fix: it says so and exits 1.
    expect(run.events).toContainEqual(
      expect.objectContaining({ type: "notice", level: "error", message: expect.stringMatching(/^The demo did not succeed: Bash failed/) }),
    );
    expect(run.events.at(-1)).toMatchObject({ type: "session-end", status: "answered" });
    expect(run.code).toBe(1);
  }, 60_000);

  it("shows the explanation as a line under each call in the terminal display", async () => {
    const settings = writeSettings("deny-bash.json", { permissions: { deny: ["Bash(node --test *)"] } });
    const run = await runCliCapturing(["--settings", settings, "--explain", "--yes-if-scripted"], scratch);
    const lines = run.stdout.split("\n");
    const bash = lines.findIndex((line) => /^▸ Bash /.test(line));
    expect(bash).toBeGreaterThan(0);
    expect(lines[bash + 1]).toMatch(/^ {2}policy: deny · rule "Bash\(node --test \*\)"/);
    expect(lines[lines.findIndex((line) => /^▸ Glob /.test(line)) + 1]).toMatch(/^ {2}policy: allow/);
    expect(run.code).toBe(1);
  }, 60_000);

  it("a mistyped rule stops the CLI with a usage error before anything runs", async () => {
    const settings = writeSettings("typo.json", { permissions: { allow: ["bash(npm test)"] } });
    const run = await runCliCapturing(["--settings", settings, "--json", "--yes-if-scripted"], scratch);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^agent-tools-cli: .*bash\(npm test\).*Bash/);
    expect(run.events.some((event) => event.type === "tool-start")).toBe(false);
  }, 60_000);

  it("a file that is not JSON, or a hook a file cannot give, is a usage error naming the file", async () => {
    const broken = writeSettings("broken.json", '{ "permissions": ');
    const brokenRun = await runCliCapturing(["--settings", broken, "--json"], scratch);
    expect(brokenRun.code).toBe(2);
    expect(brokenRun.stderr).toMatch(new RegExp(`^agent-tools-cli: --settings ${broken.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}: cannot read it as JSON`));
    expect(brokenRun.stdout).toBe("");
    const prompt = writeSettings("prompt-hook.json", { hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "prompt", prompt: "safe?" }] }] } });
    const promptRun = await runCliCapturing(["--settings", prompt, "--json"], scratch);
    expect(promptRun.code).toBe(2);
    expect(promptRun.stderr).toContain(`--settings ${prompt}: hooks.PreToolUse[0].hooks[0] has type "prompt"`);
  });
});
