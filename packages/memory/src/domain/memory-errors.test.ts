import { describe, expect, it } from "vitest";
import { bodyTooLarge, conflict, dailyNotWritable, notFound, quotaExceeded, readOnlyMode, riskHardBlocked, slugInvalid } from "./memory-errors.js";

describe("memory error answers", () => {
  it("slug_invalid carries the suggestion only when there is one", () => {
    expect(slugInvalid("A B", "bad", "a-b")).toMatchObject({ error: "slug_invalid", suggestion: "a-b" });
    expect(slugInvalid("!!", "bad")).not.toHaveProperty("suggestion");
  });

  it("quota_exceeded suggests listing the scope", () => {
    const answer = quotaExceeded("project", 500);
    expect(answer.error).toBe("quota_exceeded");
    expect(answer.message).toContain("500");
    expect(answer.suggested_next_call).toMatchObject({ action: "list", scope: "project" });
    expect(JSON.parse(JSON.stringify(answer))).toEqual(answer);
  });

  it("risk_hard_blocked names the reasons", () => {
    const answer = riskHardBlocked(["aws_access_key", "github_token"]);
    expect(answer.error).toBe("risk_hard_blocked");
    expect(answer.message).toContain("aws_access_key, github_token");
    expect(answer.message).toContain("Nothing was stored");
  });

  it("body_too_large states the limit and the size", () => {
    const answer = bodyTooLarge(8192, 9000);
    expect(answer).toMatchObject({ error: "body_too_large" });
    expect(answer.message).toContain("9000");
    expect(answer.message).toContain("8192");
  });

  it("daily journals, read-only mode, missing entries and conflicts", () => {
    expect(dailyNotWritable().message).toContain("daily journals are append-managed");
    expect(readOnlyMode()).toEqual({ error: "read_only", message: "MemoryManager is read-only in this context." });
    expect(notFound("global/dark-mode")).toMatchObject({ error: "not_found" });
    expect(notFound("global/dark-mode").message).toContain("global/dark-mode");
    expect(conflict("global/dark-mode").message).toMatch(/Read it again and retry/);
  });
});
