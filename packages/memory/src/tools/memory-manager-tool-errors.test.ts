import { describe, expect, it } from "vitest";
import { inMemoryBackend, makeDirectories, setup, userEntry } from "./__fixtures__/memory-registry.js";

describe("MemoryManager refusals are tool errors: the same text, an error with a general code, the memory answer in details", () => {
  it("maps each refusal to a tool error code and recoverable, keeping the JSON answer the model reads", async () => {
    const { call } = await setup(inMemoryBackend, { entriesPerScope: 1 });
    const cases: [Record<string, unknown>, string, string, boolean][] = [
      [{ action: "read" }, "missing_arguments", "invalid_arguments", true],
      [userEntry("Dark Mode!", "x"), "slug_invalid", "invalid_arguments", true],
      [{ action: "read", slug: "no-such-entry" }, "not_found", "not_found", true],
      [userEntry("a-secret", "key: AKIAIOSFODNN7EXAMPLE"), "risk_hard_blocked", "permission_denied", true],
      [userEntry("too-big", "x".repeat(9_000)), "body_too_large", "too_large", true],
    ];
    for (const [args, memoryCode, code, recoverable] of cases) {
      const result = await call(args);
      expect(result.isError).toBe(true);
      const answer = JSON.parse(result.text);
      expect(answer.error).toBe(memoryCode);
      expect(result.error).toEqual({ code, message: result.text, recoverable });
      expect(result.details).toMatchObject({ code, kind: "memory", action: args.action, error: answer });
    }
    expect((await call(userEntry("first-one", "x"))).isError).toBe(false);
    const quota = await call(userEntry("second-one", "x"));
    expect(JSON.parse(quota.text)).toMatchObject({ error: "quota_exceeded" });
    expect(quota.error).toEqual({ code: "limit_reached", message: quota.text, recoverable: true });
  });

  it("read-only mode is permission_denied and not recoverable, with the fixed sentence", async () => {
    const reader = await setup(inMemoryBackend, { directories: makeDirectories(), mode: "ro", scope: "cron" });
    const result = await reader.call(userEntry("shared-fact", "changed"));
    expect(result.text).toBe("MemoryManager is read-only in this context.");
    expect(result.error).toEqual({ code: "permission_denied", message: "MemoryManager is read-only in this context.", recoverable: false });
    expect(result.details).toMatchObject({ kind: "memory", action: "write", error: { error: "read_only" } });
  });
});
