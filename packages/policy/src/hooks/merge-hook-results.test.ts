import { describe, expect, it } from "vitest";
import { checkHookSettings } from "./check-hook-settings.js";
import { dispatchHooks } from "./dispatch-hooks.js";
import type { HookInput, HookOutput, HookSettings } from "./hook-settings.js";
import { mergePermissionRequest, mergePostToolUse, mergePreToolUse } from "./merge-hook-results.js";

const input: HookInput = {
  hook_event_name: "PreToolUse",
  cwd: "/work",
  permission_mode: "default",
  tool_name: "Bash",
  tool_input: { command: "ls" },
  tool_use_id: "c",
};

function answering(name: string, output: HookOutput | (() => never), delayMs = 0) {
  return {
    type: "function" as const,
    name,
    run: async () => {
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      return typeof output === "function" ? output() : output;
    },
  };
}

async function run(settings: unknown, event: "PreToolUse" | "PermissionRequest" | "PostToolUse" = "PreToolUse") {
  return dispatchHooks(checkHookSettings(settings) as HookSettings, event, "Bash", {
    input: { ...input, hook_event_name: event },
    context: { workdir: "/work", signal: new AbortController().signal, running: new Set() },
  });
}

const decide = (permissionDecision: "allow" | "deny" | "ask" | "defer", reason?: string): HookOutput => ({
  hookSpecificOutput: { permissionDecision, ...(reason ? { permissionDecisionReason: reason } : {}) },
});

describe("dispatchHooks + mergePreToolUse", () => {
  it("runs matching hooks in parallel and reports them in declaration order", async () => {
    const started = performance.now();
    const results = await run({
      PreToolUse: [
        { matcher: "Bash", hooks: [answering("slow", decide("allow"), 400), answering("fast", decide("allow"), 0)] },
        { matcher: "Read", hooks: [answering("other", decide("deny"))] },
      ],
    });
    expect(performance.now() - started).toBeLessThan(750);
    expect(results.map((result) => result.name)).toEqual(["slow", "fast"]);
  });

  it("merges deny > ask > defer > allow, the first of equal rank giving the reason", async () => {
    const cases: [string[], string | undefined][] = [
      [["allow", "defer"], "defer"],
      [["defer", "ask", "allow"], "ask"],
      [["allow", "ask", "deny"], "deny"],
      [["allow", "allow"], "allow"],
      [[], undefined],
    ];
    for (const [decisions, expected] of cases) {
      const merged = mergePreToolUse(
        await run({ PreToolUse: [{ hooks: decisions.map((decision, index) => answering(`h${index}`, decide(decision as "allow", `r${index}`))) }] }),
      );
      expect(merged.decision).toBe(expected);
    }
    const merged = mergePreToolUse(await run({ PreToolUse: [{ hooks: [answering("a", decide("ask", "first")), answering("b", decide("ask", "second"))] }] }));
    expect(merged).toMatchObject({ decision: "ask", hook: "a", reason: 'The PreToolUse hook "a" asks for approval of this call: first' });
  });

  it("denies when a hook fails, naming it, and when it blocks or stops", async () => {
    const failed = mergePreToolUse(
      await run({
        PreToolUse: [
          {
            hooks: [
              answering("ok", decide("allow")),
              answering("broken", () => {
                throw new Error("boom");
              }),
            ],
          },
        ],
      }),
    );
    expect(failed).toMatchObject({ decision: "deny", hook: "broken", reason: 'The PreToolUse hook "broken" failed (threw: boom), so the call is denied.' });
    expect(failed.answers.map((answer) => [answer.hook, answer.decision, answer.error])).toEqual([
      ["ok", "allow", undefined],
      ["broken", undefined, "threw: boom"],
    ]);
    const blocked = mergePreToolUse(await run({ PreToolUse: [{ hooks: [answering("legacy", { decision: "block", reason: "nope" })] }] }));
    expect(blocked).toMatchObject({ decision: "deny", reason: 'The PreToolUse hook "legacy" denied this call: nope' });
    const stopped = mergePreToolUse(await run({ PreToolUse: [{ hooks: [answering("stop", { continue: false, stopReason: "halt", ...decide("allow") })] }] }));
    expect(stopped).toMatchObject({ decision: "deny", reason: 'The PreToolUse hook "stop" denied this call: halt' });
  });

  it("takes one rewrite, accepts equal rewrites, and denies different rewrites as ambiguous", async () => {
    const rewrite = (command: string): HookOutput => ({ hookSpecificOutput: { updatedInput: { command } } });
    const one = mergePreToolUse(await run({ PreToolUse: [{ hooks: [answering("a", rewrite("ls -la")), answering("b", decide("allow"))] }] }));
    expect(one).toMatchObject({ decision: "allow", updatedInput: { command: "ls -la" } });
    const same = mergePreToolUse(await run({ PreToolUse: [{ hooks: [answering("a", rewrite("ls -la")), answering("b", rewrite("ls -la"))] }] }));
    expect(same.decision).toBeUndefined();
    expect(same.updatedInput).toEqual({ command: "ls -la" });
    const different = mergePreToolUse(await run({ PreToolUse: [{ hooks: [answering("a", rewrite("ls -la")), answering("b", rewrite("ls -R"))] }] }));
    expect(different).toMatchObject({
      decision: "deny",
      reason: 'The PreToolUse hooks "a", "b" rewrote this call\'s input differently, so the call is denied as ambiguous.',
    });
    expect(different.updatedInput).toBeUndefined();
  });

  it("joins additionalContext in declaration order", async () => {
    const context = (text: string, delayMs: number) => answering(text, { hookSpecificOutput: { additionalContext: text } }, delayMs);
    const merged = mergePreToolUse(await run({ PreToolUse: [{ hooks: [context("one", 200), context("two", 0)] }] }));
    expect(merged.additionalContext).toBe("one\ntwo");
  });
});

describe("mergePermissionRequest", () => {
  const behavior = (value: "allow" | "deny", message?: string): HookOutput => ({
    hookSpecificOutput: { decision: { behavior: value, ...(message ? { message } : {}) } },
  });

  it("deny (or a failure) beats allow; nothing leaves it to the host", async () => {
    expect(mergePermissionRequest(await run({ PermissionRequest: [{ hooks: [answering("a", behavior("allow"))] }] }, "PermissionRequest"))).toMatchObject({
      decision: "allow",
    });
    expect(
      mergePermissionRequest(
        await run(
          { PermissionRequest: [{ hooks: [answering("a", behavior("allow")), answering("b", behavior("deny", "not on fridays"))] }] },
          "PermissionRequest",
        ),
      ),
    ).toMatchObject({ decision: "deny", reason: 'The PermissionRequest hook "b" denied this call: not on fridays' });
    const failing = answering("c", () => {
      throw new Error("x");
    });
    expect(
      mergePermissionRequest(await run({ PermissionRequest: [{ hooks: [answering("a", behavior("allow")), failing] }] }, "PermissionRequest")).decision,
    ).toBe("deny");
    expect(mergePermissionRequest(await run({ PermissionRequest: [{ hooks: [answering("a", {})] }] }, "PermissionRequest")).decision).toBeUndefined();
  });
});

describe("mergePostToolUse", () => {
  it("takes the first replacement, collects blocks and context, and reports failures", async () => {
    const merged = mergePostToolUse(
      await run(
        {
          PostToolUse: [
            {
              hooks: [
                answering("redact", { hookSpecificOutput: { updatedToolOutput: "[redacted]", additionalContext: "redacted a key" } }),
                answering("second", { hookSpecificOutput: { updatedToolOutput: "other" } }),
                answering("lint", { decision: "block", reason: "lint errors" }),
                answering("broken", () => {
                  throw new Error("bad");
                }),
              ],
            },
          ],
        },
        "PostToolUse",
      ),
      "PostToolUse",
    );
    expect(merged).toMatchObject({
      updatedToolOutput: "[redacted]",
      ignoredReplacements: ["second"],
      blocks: ['The PostToolUse hook "lint" blocked this result: lint errors'],
      additionalContext: "redacted a key",
      failures: [{ hook: "broken", error: "threw: bad" }],
    });
  });
});
