import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { type Server, createServer } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { type Logger, SdkError, ToolError, type ToolBundle, type ToolDefinition, createToolRegistry, defineTool } from "@agent-tools/core";
import { ExecaProcessRunner } from "@agent-tools/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import type { HookInput, HookSettings } from "../hooks/hook-settings.js";
import type { LayeredPermissionSettings, PermissionSettings } from "../rules/permission-settings.js";
import { createPermissionPolicy } from "./create-permission-policy.js";

const work = realpathSync(mkdtempSync(path.join(os.tmpdir(), "policy-runtime-")));
const runner = new ExecaProcessRunner();
let server: Server;
let base: string;
const httpAnswers = new Map<string, unknown>();
const httpSeen: HookInput[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      httpSeen.push(JSON.parse(Buffer.concat(chunks).toString("utf8")) as HookInput);
      response.setHeader("content-type", "application/json");
      response.end(JSON.stringify(httpAnswers.get(request.url ?? "") ?? {}));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await runner.close();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  rmSync(work, { recursive: true, force: true });
});

/** A node script in the temp dir, run by this very node. */
function script(name: string, source: string): string {
  const file = path.join(work, name);
  writeFileSync(file, source);
  return `"${process.execPath}" "${file}"`;
}

/** A stand-in Bash tool (the rules judge input.command; it runs nothing) and a tool that always fails. */
function tools(ran: unknown[]): ToolDefinition[] {
  return [
    defineTool({
      name: "Bash",
      description: "Runs a command (test stand-in).",
      inputSchema: z.object({ command: z.string().max(200) }),
      metadata: { isReadOnly: false },
      execute: (input: { command: string }) => {
        ran.push(input);
        return { content: `ran ${input.command}` };
      },
    }),
    defineTool({
      name: "Fail",
      description: "Always fails.",
      inputSchema: z.object({}),
      metadata: { isReadOnly: true },
      execute: () => {
        throw new ToolError("not_found", "nothing there");
      },
    }),
  ];
}

interface Setup {
  permissions?: PermissionSettings | LayeredPermissionSettings;
  hooks?: HookSettings;
  onAsk?: () => boolean;
  logger?: Logger;
}

async function registryWith(setup: Setup) {
  const ran: unknown[] = [];
  const asked: string[] = [];
  const policy = await createPermissionPolicy({
    ...(setup.permissions === undefined ? {} : { permissions: setup.permissions }),
    ...(setup.hooks === undefined ? {} : { hooks: setup.hooks }),
    sessionId: "s-1",
  });
  const bundle: ToolBundle = { id: "test", trusted: true, listTools: () => tools(ran) };
  const registry = createToolRegistry({
    workdir: work,
    dataDir: path.join(work, ".data"),
    bundles: [bundle],
    policy,
    ports: { processRunner: runner },
    ...(setup.logger === undefined ? {} : { logger: setup.logger }),
    approval: {
      onAsk: (request) => {
        asked.push(request.toolName);
        return setup.onAsk?.() ?? false;
      },
    },
  });
  const bash = (command: unknown) => registry.executeToolCall({ id: "c1", name: "Bash", arguments: { command } });
  return { registry, ran, asked, bash };
}

const allowHook = { type: "function" as const, name: "approve", run: () => ({ hookSpecificOutput: { permissionDecision: "allow" as const } }) };
const textOf = (result: { content: { type: string; text?: string }[] }) => result.content.map((block) => block.text ?? "").join("");

describe("createPermissionPolicy: rules and hooks through the registry", () => {
  it("a deny rule beats a hook's allow, and explain names the rule and the hook's answer", async () => {
    const { registry, ran, bash } = await registryWith({
      permissions: { deny: ["Bash(rm -rf *)"] },
      hooks: { PreToolUse: [{ matcher: "Bash", hooks: [allowHook] }] },
    });
    const result = await bash("rm -rf build");
    expect(result.error?.code).toBe("permission_denied");
    expect(textOf(result)).toContain("Bash(rm -rf *)");
    expect(ran).toEqual([]);
    const explained = await registry.policy.explain({ name: "Bash", arguments: { command: "rm -rf build" } });
    expect(explained).toMatchObject({ decision: "deny", rule: "Bash(rm -rf *)", layer: "project" });
    expect(explained.hooks).toMatchObject([{ event: "PreToolUse", hook: "approve", kind: "function", decision: "allow" }]);
    expect((await bash("ls")).isError).toBe(false);
    await registry.close();
  });

  it("a bare deny rule takes the tool out of the registry's tools, hooks or not", async () => {
    const { registry, ran, bash } = await registryWith({ permissions: { deny: ["Bash"] }, hooks: { PreToolUse: [{ hooks: [allowHook] }] } });
    expect(registry.tools.map((tool) => tool.name)).toEqual(["Fail"]);
    expect((await bash("ls")).isError).toBe(true);
    expect(ran).toEqual([]);
    await registry.close();
    const plan = await registryWith({ permissions: { defaultMode: "plan" } });
    expect(plan.registry.tools.map((tool) => tool.name)).toEqual(["Fail"]);
    await plan.registry.close();
  });

  it("a hook's deny (a command exiting 2) beats a rule's allow, naming the hook and its stderr", async () => {
    const command = script("no-git.mjs", `process.stderr.write("no git today"); process.exit(2);`);
    const { registry, ran, bash } = await registryWith({
      permissions: { allow: ["Bash(git status)"] },
      hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", name: "no-git", command }] }] },
    });
    const result = await bash("git status");
    expect(result.error?.code).toBe("permission_denied");
    expect(textOf(result)).toBe('The PreToolUse hook "no-git" denied this call: no git today');
    expect(ran).toEqual([]);
    await registry.close();
  });

  it("an HTTP hook's allow skips a rule's ask; its ask forces an ask where a rule allows", async () => {
    httpAnswers.set("/allow", { hookSpecificOutput: { permissionDecision: "allow", permissionDecisionReason: "reviewed" } });
    httpAnswers.set("/ask", { hookSpecificOutput: { permissionDecision: "ask", permissionDecisionReason: "check with a human" } });
    const skip = await registryWith({
      permissions: { ask: ["Bash(npm *)"] },
      hooks: { PreToolUse: [{ hooks: [{ type: "http", name: "review", url: `${base}/allow` }] }] },
    });
    expect((await skip.bash("npm test")).isError).toBe(false);
    expect(skip.asked).toEqual([]);
    expect(httpSeen.at(-1)).toMatchObject({
      hook_event_name: "PreToolUse",
      tool_name: "Bash",
      tool_input: { command: "npm test" },
      session_id: "s-1",
      cwd: work,
    });
    await skip.registry.close();
    const force = await registryWith({
      permissions: { allow: ["Bash(ls)"] },
      hooks: { PreToolUse: [{ hooks: [{ type: "http", url: `${base}/ask` }] }] },
      onAsk: () => true,
    });
    expect((await force.bash("ls")).isError).toBe(false);
    expect(force.asked).toEqual(["Bash"]);
    expect(await force.registry.policy.explain({ name: "Bash", arguments: { command: "ls" } })).toMatchObject({
      decision: "ask",
      layer: "hook",
      reason: 'The PreToolUse hook "http#0" asks for approval of this call: check with a human',
    });
    await force.registry.close();
  });

  it("a rewritten input is validated again, and the rules judge the rewrite", async () => {
    const rewrite = (command: unknown) => ({ type: "function" as const, name: "rewrite", run: () => ({ hookSpecificOutput: { updatedInput: { command } } }) });
    const invalid = await registryWith({ hooks: { PreToolUse: [{ hooks: [rewrite(42)] }] } });
    const refused = await invalid.bash("ls");
    expect(refused.error?.code).toBe("permission_denied");
    expect(textOf(refused)).toContain("rewrote the Bash input to one that is not valid");
    expect(invalid.ran).toEqual([]);
    await invalid.registry.close();
    const denied = await registryWith({
      permissions: { allow: ["Bash(ls)"], deny: ["Bash(rm *)"] },
      hooks: { PreToolUse: [{ hooks: [rewrite("rm -rf /")] }] },
    });
    const deniedResult = await denied.bash("ls");
    expect(textOf(deniedResult)).toContain("Bash(rm *)");
    expect(denied.ran).toEqual([]);
    await denied.registry.close();
    const allowed = await registryWith({ permissions: { allow: ["Bash(git status)"] }, hooks: { PreToolUse: [{ hooks: [rewrite("git status")] }] } });
    expect((await allowed.bash("git stauts")).isError).toBe(false);
    expect(allowed.ran).toEqual([{ command: "git status" }]);
    await allowed.registry.close();
  });

  it("a hook that hangs, crashes or prints garbage denies, naming it", async () => {
    const hang = script("hang.mjs", "setInterval(() => {}, 1000);");
    const crash = script("crash.mjs", 'throw new Error("hook bug");');
    const garbage = script("garbage.mjs", 'console.log("sure, go ahead");');
    const cases: [string, string, number | undefined, RegExp][] = [
      ["hang", hang, 800, /^The PreToolUse hook "hang" failed \(timed out after 800 ms\), so the call is denied\.$/],
      ["crash", crash, undefined, /^The PreToolUse hook "crash" failed \(exited with code 1: .*hook bug.*\), so the call is denied\.$/],
      ["garbage", garbage, undefined, /^The PreToolUse hook "garbage" failed \(its answer is not JSON: "sure, go ahead\\n"\), so the call is denied\.$/],
    ];
    for (const [name, command, timeoutMs, expected] of cases) {
      const { registry, ran, bash } = await registryWith({
        permissions: { allow: ["Bash"] },
        hooks: { PreToolUse: [{ hooks: [{ type: "command", name, command, ...(timeoutMs === undefined ? {} : { timeoutMs }) }] }] },
      });
      const result = await bash("ls");
      expect(result.error?.code).toBe("permission_denied");
      expect(textOf(result)).toMatch(expected);
      expect(ran).toEqual([]);
      await registry.close();
    }
  });

  it("PostToolUse replaces the output, blocks and adds context; PostToolUseFailure sees the error", async () => {
    const seen: HookInput[] = [];
    const { registry } = await registryWith({
      permissions: { allow: ["Bash", "Fail"] },
      hooks: {
        PostToolUse: [
          {
            matcher: "Bash",
            hooks: [
              {
                type: "function",
                name: "redact",
                run: () => ({ hookSpecificOutput: { updatedToolOutput: "[redacted]", additionalContext: "a secret was redacted" } }),
              },
            ],
          },
          {
            matcher: "Bash",
            hooks: [{ type: "command", name: "lint", command: script("lint.mjs", 'process.stderr.write("3 lint errors"); process.exit(2);') }],
          },
        ],
        PostToolUseFailure: [{ hooks: [{ type: "function", run: (input) => void seen.push(input) }] }],
      },
    });
    const result = await registry.executeToolCall({ id: "c2", name: "Bash", arguments: { command: "cat .env" } });
    expect(result.isError).toBe(false);
    const text = textOf(result);
    expect(text).toContain("[redacted]");
    expect(text).not.toContain("ran cat .env");
    expect(text).toContain('The PostToolUse hook "lint" blocked this result: 3 lint errors');
    expect(text).toContain("a secret was redacted");
    const failed = await registry.executeToolCall({ id: "c3", name: "Fail", arguments: {} });
    expect(failed.isError).toBe(true);
    expect(seen).toMatchObject([{ hook_event_name: "PostToolUseFailure", tool_name: "Fail", error: "nothing there", tool_use_id: "c3" }]);
    await registry.close();
  });

  it("PermissionRequest hooks settle an ask before the host's onAsk", async () => {
    const behavior = (value: "allow" | "deny") => ({
      type: "function" as const,
      name: `always-${value}`,
      run: () => ({ hookSpecificOutput: { decision: { behavior: value, message: `${value} by hook` } } }),
    });
    const allowed = await registryWith({ permissions: { ask: ["Bash"] }, hooks: { PermissionRequest: [{ hooks: [behavior("allow")] }] } });
    expect((await allowed.bash("ls")).isError).toBe(false);
    expect(allowed.asked).toEqual([]);
    await allowed.registry.close();
    const denied = await registryWith({ permissions: { ask: ["Bash"] }, hooks: { PermissionRequest: [{ hooks: [behavior("deny")] }] }, onAsk: () => true });
    const result = await denied.bash("ls");
    expect(textOf(result)).toBe('The PermissionRequest hook "always-deny" denied this call: deny by hook');
    expect(denied.asked).toEqual([]);
    await denied.registry.close();
  });

  it("runs SessionStart and SessionEnd hooks, and explain can leave the hooks out", async () => {
    const events: HookInput[] = [];
    const record = { type: "function" as const, run: (input: HookInput) => void events.push(input) };
    let preRuns = 0;
    const { registry } = await registryWith({
      permissions: { allow: ["Bash(ls)"] },
      hooks: {
        SessionStart: [{ hooks: [record] }],
        SessionEnd: [{ hooks: [record] }],
        PreToolUse: [{ hooks: [{ type: "function", run: () => void (preRuns += 1) }] }],
      },
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await registry.policy.explain({ name: "Bash", arguments: { command: "ls" } }, { runHooks: false })).toMatchObject({
      decision: "allow",
      rule: "Bash(ls)",
      hooks: [],
    });
    expect(preRuns).toBe(0);
    await registry.close();
    expect(events.map((event) => event.hook_event_name)).toEqual(["SessionStart", "SessionEnd"]);
    expect(events[0]).toMatchObject({ session_id: "s-1", cwd: work, permission_mode: "default" });
  });

  it("refuses a matcher naming no tool, and command hooks without a process runner", async () => {
    await expect(registryWith({ hooks: { PreToolUse: [{ matcher: "bash", hooks: [allowHook] }] } })).rejects.toThrow(
      /"bash" names no tool of this registry \(did you mean "Bash"\?\)/,
    );
    const policy = await createPermissionPolicy({ hooks: { PreToolUse: [{ hooks: [{ type: "command", command: "true" }] }] } });
    const bundle: ToolBundle = { id: "test", trusted: true, listTools: () => tools([]) };
    expect(() => createToolRegistry({ workdir: work, dataDir: path.join(work, ".data"), bundles: [bundle], policy })).toThrow(/need a process runner/);
    await expect(createPermissionPolicy({ hook: {} } as never)).rejects.toThrow(SdkError);
    await expect(createPermissionPolicy({ hooks: { preToolUse: [] } } as never)).rejects.toThrow(/did you mean "PreToolUse"/);
    await expect(registryWith({ permissions: { allow: ["bash"] } })).rejects.toThrow(SdkError);
  });

  it("close kills the hook processes still running", async () => {
    const pidFile = path.join(work, "close.pid");
    const command = script(
      "close.mjs",
      `import { writeFileSync } from "node:fs"; writeFileSync(${JSON.stringify(pidFile)}, String(process.pid)); setInterval(() => {}, 1000);`,
    );
    const { registry, bash } = await registryWith({ hooks: { PreToolUse: [{ hooks: [{ type: "command", name: "slow", command }] }] } });
    const pending = bash("ls");
    for (let tries = 0; tries < 100 && !readFileSafe(pidFile); tries += 1) await new Promise((resolve) => setTimeout(resolve, 50));
    const started = performance.now();
    await registry.close();
    const result = await pending;
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(result.isError).toBe(true);
    expect(isAlive(Number(readFileSafe(pidFile)))).toBe(false);
  });
});

function readFileSafe(file: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return "";
  }
}

function isAlive(pid: number): boolean {
  const stat = readFileSafe(`/proc/${pid}/stat`);
  return stat !== "" && stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
}
