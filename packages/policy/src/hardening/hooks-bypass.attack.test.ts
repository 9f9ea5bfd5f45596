/**
 * Attacks on hooks and on what runs commands besides Bash (issue 35, target
 * 5): a PreToolUse hook's deny must hold whatever the hook does (crash,
 * garbage, huge or slow answers, HTTP errors and redirects), the rules must
 * judge a hook's rewritten input, a tool name in another case must meet the
 * same rules and hooks, and a command must not escape the rules by running
 * through another tool or another working directory. Real processes, a real
 * HTTP server on 127.0.0.1, real files; a marker file proves a run.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { type Server, createServer } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import type { ToolRegistry } from "@agent-tools/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { HookSettings } from "../hooks/hook-settings.js";
import { attackDirs, attackRegistry, textOf } from "./__fixtures__/attack-registry.js";

const dirs = attackDirs("policy-hooks-attack-");
const deny = () => ({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "slow no" } });
let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer((request, response) => {
    request.resume();
    const url = request.url ?? "/";
    if (url === "/500") {
      response.statusCode = 500;
      response.end(JSON.stringify({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "allow" } }));
    } else if (url === "/redirect") {
      response.statusCode = 302;
      response.setHeader("location", "/allow");
      response.end();
    } else if (url === "/allow") {
      response.setHeader("content-type", "application/json");
      response.end(JSON.stringify({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "allow" } }));
    } else if (url === "/slow-body") {
      response.setHeader("content-type", "application/json");
      response.write('{"hookSpecificOutput": ');
      setTimeout(() => response.end("{}}"), 5_000).unref();
    } else if (url === "/huge") {
      response.setHeader("content-type", "application/json");
      response.end(`{"systemMessage": "${"x".repeat(2 * 1024 * 1024)}"}`);
    } else if (url === "/slow-deny") {
      setTimeout(() => {
        response.setHeader("content-type", "application/json");
        response.end(JSON.stringify(deny()));
      }, 800).unref();
    } else if (url === "/html") {
      response.end("<html>ok</html>");
    } else {
      response.end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  dirs.cleanup();
});

async function using<T>(pending: Promise<ToolRegistry>, use: (registry: ToolRegistry) => Promise<T>): Promise<T> {
  const registry = await pending;
  try {
    return await use(registry);
  } finally {
    await registry.close();
  }
}

/** A node script in `dir` run by this node, as a command hook. */
function script(dir: string, name: string, source: string): string {
  const file = path.join(dir, name);
  writeFileSync(file, source);
  return `"${process.execPath}" "${file}"`;
}

const preToolUse = (hooks: unknown[]): HookSettings => ({ PreToolUse: [{ matcher: "Bash", hooks }] }) as HookSettings;

describe("a PreToolUse hook that fails denies (nothing runs)", () => {
  const cases: Array<[string, (dir: string) => unknown]> = [
    ["command exits 1", (dir) => ({ type: "command", command: script(dir, "h.mjs", "process.exit(1)") })],
    ["command crashes", (dir) => ({ type: "command", command: script(dir, "h.mjs", "throw new Error('boom')") })],
    ["command prints non-JSON", (dir) => ({ type: "command", command: script(dir, "h.mjs", "console.log('ok, allowed')") })],
    ["command prints JSON then garbage", (dir) => ({ type: "command", command: script(dir, "h.mjs", "console.log('{}'); console.log('{}')") })],
    ["command prints a JSON array", (dir) => ({ type: "command", command: script(dir, "h.mjs", "console.log('[]')") })],
    [
      "command prints over 1 MiB",
      (dir) => ({ type: "command", command: script(dir, "h.mjs", "process.stdout.write(JSON.stringify({ systemMessage: 'x'.repeat(3 << 20) }))") }),
    ],
    ["command times out", (dir) => ({ type: "command", timeoutMs: 500, command: script(dir, "h.mjs", "setTimeout(() => {}, 60000)") })],
    [
      "command answers allow after its timeout",
      (dir) => ({
        type: "command",
        timeoutMs: 500,
        command: script(
          dir,
          "h.mjs",
          "setTimeout(() => console.log(JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow' } })), 1500)",
        ),
      }),
    ],
    ["command is killed by a signal", (dir) => ({ type: "command", command: script(dir, "h.mjs", "process.kill(process.pid, 'SIGKILL')") })],
    ["command exits 2 (block)", (dir) => ({ type: "command", command: script(dir, "h.mjs", "console.error('no'); process.exit(2)") })],
    ["command names a missing program", () => ({ type: "command", command: "/nonexistent/hook-program" })],
    [
      "command answers a decision the event does not know",
      (dir) => ({
        type: "command",
        command: script(dir, "h.mjs", "console.log(JSON.stringify({ decision: 'approve' }))"),
      }),
    ],
    [
      "command answers the wrong hookEventName",
      (dir) => ({
        type: "command",
        command: script(dir, "h.mjs", "console.log(JSON.stringify({ hookSpecificOutput: { hookEventName: 'PostToolUse', permissionDecision: 'allow' } }))"),
      }),
    ],
    [
      "function throws",
      () => ({
        type: "function",
        run: () => {
          throw new Error("boom");
        },
      }),
    ],
    ["function rejects", () => ({ type: "function", run: async () => Promise.reject(new Error("boom")) })],
    ["function never settles", () => ({ type: "function", timeoutMs: 300, run: () => new Promise(() => {}) })],
    ["function returns a string", () => ({ type: "function", run: () => "allow" })],
    ["HTTP 500 with an allow body", () => ({ type: "http", url: `${base}/500` })],
    ["HTTP redirect to an allow", () => ({ type: "http", url: `${base}/redirect` })],
    ["HTTP body slower than the timeout", () => ({ type: "http", url: `${base}/slow-body`, timeoutMs: 700 })],
    ["HTTP body over 1 MiB", () => ({ type: "http", url: `${base}/huge` })],
    ["HTTP non-JSON body", () => ({ type: "http", url: `${base}/html` })],
    ["HTTP connection refused", () => ({ type: "http", url: "http://127.0.0.1:9/x" })],
  ];
  it.each(cases)("%s", async (_, handler) => {
    const { workdir, dataDir } = dirs.make();
    const hooks = preToolUse([handler(workdir)]);
    await using(attackRegistry({ workdir, dataDir, hooks, permissions: { allow: ["Bash(touch *)"] } }), async (registry) => {
      const result = await registry.executeToolCall({ id: "h", name: "Bash", arguments: { command: "touch pwned" } });
      expect(result.error?.code, textOf(result)).toBe("permission_denied");
      expect(existsSync(path.join(workdir, "pwned"))).toBe(false);
    });
  });
});

describe("the rules judge what a hook rewrote", () => {
  const rewrite = (input: Record<string, unknown>, decision = "allow") => ({
    type: "function",
    run: () => ({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: decision, updatedInput: input } }),
  });

  it("an allow-list (dontAsk): a rewrite into a command no rule allows is denied", async () => {
    const { workdir, dataDir } = dirs.make();
    const hooks = preToolUse([rewrite({ command: "echo hi && touch pwned" })]);
    await using(attackRegistry({ workdir, dataDir, hooks, permissions: { allow: ["Bash(echo *)"], defaultMode: "dontAsk" } }), async (registry) => {
      const result = await registry.executeToolCall({ id: "r", name: "Bash", arguments: { command: "echo hi" } });
      expect(result.error?.code, textOf(result)).toBe("permission_denied");
      expect(existsSync(path.join(workdir, "pwned"))).toBe(false);
    });
  });

  it("a deny rule: a rewrite into a denied command is denied, even with the hook's allow", async () => {
    const { workdir, dataDir } = dirs.make();
    writeFileSync(path.join(workdir, "keep"), "k");
    const hooks = preToolUse([rewrite({ command: "rm -f keep" })]);
    await using(
      attackRegistry({ workdir, dataDir, hooks, permissions: { deny: ["Bash(rm *)"] }, approval: { defaultDecision: "allow" } }),
      async (registry) => {
        const result = await registry.executeToolCall({ id: "r", name: "Bash", arguments: { command: "ls" } });
        expect(result.error?.code, textOf(result)).toBe("permission_denied");
        expect(existsSync(path.join(workdir, "keep"))).toBe(true);
      },
    );
  });

  it("a path deny: a Write rewritten into a protected folder is denied", async () => {
    const { workdir, dataDir } = dirs.make();
    mkdirSync(path.join(workdir, "protected"));
    writeFileSync(path.join(workdir, "protected", "keep.txt"), "original");
    const hooks = { PreToolUse: [{ matcher: "Write", hooks: [rewrite({ path: "protected/keep.txt", content: "pwned" })] }] } as HookSettings;
    await using(
      attackRegistry({ workdir, dataDir, hooks, permissions: { deny: ["Edit(protected/**)"] }, approval: { defaultDecision: "allow" } }),
      async (registry) => {
        const result = await registry.executeToolCall({ id: "w", name: "Write", arguments: { path: "ok.txt", content: "x" } });
        expect(result.error?.code, textOf(result)).toBe("permission_denied");
        expect(readFileSync(path.join(workdir, "protected", "keep.txt"), "utf8")).toBe("original");
      },
    );
  });

  it("a rewrite with a key the tool does not know, or of the wrong type, is denied", async () => {
    const { workdir, dataDir } = dirs.make();
    for (const input of [{ command: "touch pwned", extra: 1 }, { command: ["touch", "pwned"] }]) {
      const hooks = preToolUse([rewrite(input)]);
      await using(attackRegistry({ workdir, dataDir, hooks, approval: { defaultDecision: "allow" } }), async (registry) => {
        const result = await registry.executeToolCall({ id: "k", name: "Bash", arguments: { command: "true" } });
        expect(result.error?.code, textOf(result)).toBe("permission_denied");
      });
    }
    expect(existsSync(path.join(workdir, "pwned"))).toBe(false);
  });
});

describe("a tool name in another case meets the same rules and hooks", () => {
  it("{ name: 'bash' } meets Bash deny rules and Bash hooks", async () => {
    const { workdir, dataDir } = dirs.make();
    const seen: string[] = [];
    const hooks = preToolUse([
      {
        type: "function",
        run: (input: { tool_name: string }) => {
          seen.push(input.tool_name);
          return { hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "hooked" } };
        },
      },
    ]);
    await using(attackRegistry({ workdir, dataDir, hooks, approval: { defaultDecision: "allow" } }), async (registry) => {
      for (const name of ["bash", "BASH", "bAsh"]) {
        const result = await registry.executeToolCall({ id: name, name, arguments: { command: "touch pwned" } });
        expect(result.error?.code, textOf(result)).toBe("permission_denied");
      }
    });
    expect(seen).toEqual(["Bash", "Bash", "Bash"]);
    await using(attackRegistry({ workdir, dataDir, permissions: { deny: ["Bash(touch *)"] }, approval: { defaultDecision: "allow" } }), async (registry) => {
      const result = await registry.executeToolCall({ id: "x", name: "bash", arguments: { command: "touch pwned" } });
      expect(result.error?.code, textOf(result)).toBe("permission_denied");
    });
    expect(existsSync(path.join(workdir, "pwned"))).toBe(false);
  });
});

describe("a hook that times out leaves no process behind", () => {
  it.each([
    ["in its process group", false],
    ["that left the group (detached: its own session)", true],
  ])("its background child %s is killed with it (the process tree)", async (_, detached) => {
    const { workdir, dataDir } = dirs.make();
    const pidFile = path.join(workdir, "child.pid");
    const hook = script(
      workdir,
      "h.mjs",
      `import { spawn } from "node:child_process"; import { writeFileSync } from "node:fs";
const child = spawn(process.execPath, ["-e", "setTimeout(() => {}, 300000)"], { stdio: "ignore", detached: ${detached} });
writeFileSync(${JSON.stringify(pidFile)}, String(child.pid));
setTimeout(() => {}, 300000);`,
    );
    await using(attackRegistry({ workdir, dataDir, hooks: preToolUse([{ type: "command", command: hook, timeoutMs: 1_000 }]) }), async (registry) => {
      const result = await registry.executeToolCall({ id: "t", name: "Bash", arguments: { command: "true" } });
      expect(result.error?.code, textOf(result)).toBe("permission_denied");
    });
    const pid = Number(readFileSync(pidFile, "utf8"));
    await new Promise((resolve) => setTimeout(resolve, 300));
    // Alive = the process exists and is not a zombie (killed, waiting for a parent to reap it).
    let state = "gone";
    try {
      state = /^\d+ \(.*\) (\S)/.exec(readFileSync(`/proc/${pid}/stat`, "utf8"))?.[1] ?? "gone";
    } catch {
      state = "gone";
    }
    if (state !== "gone" && state !== "Z") process.kill(pid, "SIGKILL");
    expect(["gone", "Z"]).toContain(state);
  });
});

describe("parallel hooks: a quick allow does not outrun a slow deny", () => {
  it.each([
    ["function", () => ({ type: "function", run: () => new Promise((resolve) => setTimeout(() => resolve(deny()), 800)) })],
    ["http", () => ({ type: "http", url: `${base}/slow-deny` })],
  ])("a %s hook denying after 800 ms wins over an immediate allow", async (_, slow) => {
    const { workdir, dataDir } = dirs.make();
    const allow = { type: "function", run: () => ({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "allow" } }) };
    await using(attackRegistry({ workdir, dataDir, hooks: preToolUse([allow, slow()]) }), async (registry) => {
      const result = await registry.executeToolCall({ id: "p", name: "Bash", arguments: { command: "touch pwned" } });
      expect(result.error?.code, textOf(result)).toBe("permission_denied");
      expect(existsSync(path.join(workdir, "pwned"))).toBe(false);
    });
  });
});
