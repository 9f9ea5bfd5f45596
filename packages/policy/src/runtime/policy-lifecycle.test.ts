import { realpathSync } from "node:fs";
import os from "node:os";
import { type Logger, createPathPolicy } from "@agent-tools/core";
import type { ApprovalVocabulary } from "@agent-tools/core/internal";
import type { ToolCallPolicyEnvironment } from "@agent-tools/core/policy";
import { describe, expect, it } from "vitest";
import { createPermissionPolicy } from "./create-permission-policy.js";

const workdir = realpathSync(os.tmpdir());

function environment(warnings: string[]): ToolCallPolicyEnvironment {
  const vocabulary: ApprovalVocabulary = {
    toolNames: new Set(["Bash", "Read"]),
    toolNamePrefixes: ["mcp_github_"],
    serverIds: new Set(),
    groupIds: new Set(),
    knownKeys: new Set(),
  };
  const logger: Logger = { debug: () => undefined, info: () => undefined, warn: (message) => void warnings.push(message), error: () => undefined };
  return {
    paths: createPathPolicy({ workdir }),
    workdir,
    dataDir: `${workdir}/.data`,
    vocabulary: () => vocabulary,
    approval: undefined,
    metadataOf: () => ({ groupId: "shell", kind: "execute", isReadOnly: false, displayCategory: "shell" }) as never,
    processRunner: () => undefined,
    logger,
  };
}

const call = {
  callId: "c",
  toolName: "Bash",
  input: { command: "git push" },
  metadata: { groupId: "shell", kind: "execute", isReadOnly: false, displayCategory: "shell" } as never,
};

describe("the policies of one factory", () => {
  it("share the shell parser until the last is closed; the factory then refuses", async () => {
    const factory = await createPermissionPolicy({ permissions: { deny: ["Bash(git push *)"] } });
    const first = factory(environment([]));
    const second = factory(environment([]));
    await first.close?.();
    expect(await second.explain(call)).toMatchObject({ decision: "deny", rule: "Bash(git push *)" });
    await second.close?.();
    expect(() => factory(environment([]))).toThrow(/call createPermissionPolicy again/);
  });

  it("a factory call that throws does not keep the parser", async () => {
    const factory = await createPermissionPolicy({ permissions: { allow: ["Bsh"] } });
    expect(() => factory(environment([]))).toThrow(/did you mean/i);
    expect(() => factory(environment([]))).toThrow(/call createPermissionPolicy again/);
  });

  it("checks matcher names of servers still to load when their tools arrive", async () => {
    const warnings: string[] = [];
    const factory = await createPermissionPolicy({
      hooks: { PreToolUse: [{ matcher: "mcp_github_create_isue", hooks: [{ type: "function", run: () => undefined }] }] },
    });
    const policy = factory(environment(warnings));
    policy.checkToolNames?.(["mcp_gitlab_x"]);
    expect(warnings).toEqual([]);
    policy.checkToolNames?.(["mcp_github_create_issue", "mcp_github_list"]);
    policy.checkToolNames?.(["mcp_github_create_issue"]);
    expect(warnings).toEqual([
      'The hook matcher name "mcp_github_create_isue" (hooks.PreToolUse[0].matcher) names no tool of the server that loaded (tools starting with "mcp_github_"); did you mean "mcp_github_create_issue"? Its hooks never run for it.',
    ]);
    await policy.close?.();
  });

  it("notify refuses an event it does not run", async () => {
    const factory = await createPermissionPolicy({});
    const policy = factory(environment([]));
    await expect(policy.notify?.("PreToolUse", {})).rejects.toThrow(/notify takes SessionStart/);
    expect(await policy.notify?.("SubagentStop", { agent_type: "explore" })).toEqual([]);
    await policy.close?.();
  });
});

describe("modes and hooks", () => {
  it("dontAsk denies a hook's ask and defer as it denies a rule's ask", async () => {
    for (const permissionDecision of ["ask", "defer"] as const) {
      const factory = await createPermissionPolicy({
        permissions: { allow: ["Bash"], defaultMode: "dontAsk" },
        hooks: { PreToolUse: [{ hooks: [{ type: "function", name: "asker", run: () => ({ hookSpecificOutput: { permissionDecision } }) }] }] },
      });
      const policy = factory(environment([]));
      const verdict = await policy.beforeCall(call, new AbortController().signal);
      expect(verdict.decision).toBe("deny");
      expect(verdict.reason).toMatch(/hook "asker".*dontAsk mode, so it is denied instead/);
      await policy.close?.();
    }
  });
});

describe("notify", () => {
  it("matches subagent hooks on agent_type and logs failures without throwing", async () => {
    const warnings: string[] = [];
    const seen: unknown[] = [];
    const factory = await createPermissionPolicy({
      sessionId: "s-9",
      hooks: {
        SubagentStart: [
          { matcher: "explore", hooks: [{ type: "function", name: "record", run: (input) => void seen.push(input) }] },
          {
            matcher: "plan",
            hooks: [
              {
                type: "function",
                name: "broken",
                run: () => {
                  throw new Error("oops");
                },
              },
            ],
          },
        ],
      },
    });
    const policy = factory(environment(warnings));
    expect(await policy.notify?.("SubagentStart", { agent_type: "explore", agent_id: "a1" })).toMatchObject([
      { event: "SubagentStart", hook: "record", kind: "function" },
    ]);
    expect(seen).toEqual([
      { agent_type: "explore", agent_id: "a1", hook_event_name: "SubagentStart", session_id: "s-9", cwd: workdir, permission_mode: "default" },
    ]);
    expect(await policy.notify?.("SubagentStart", { agent_type: "plan" })).toMatchObject([{ hook: "broken", error: "threw: oops" }]);
    expect(warnings).toEqual(['The SubagentStart hook "broken" failed (threw: oops); it is ignored.']);
    expect(await policy.notify?.("SubagentStart", {})).toEqual([]);
    expect(await policy.notify?.("SubagentStart", { agent_role: "explore" })).toMatchObject([{ hook: "record" }]);
    await policy.close?.();
  });
});
