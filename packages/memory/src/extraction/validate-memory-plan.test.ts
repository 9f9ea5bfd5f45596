import { describe, expect, it } from "vitest";
import { MEMORY_PLAN_REJECTION_CODES, type MemoryPlanContext, validateMemoryPlan } from "./validate-memory-plan.js";

const context: MemoryPlanContext = { projectScopeAllowed: true, writtenThisTurn: new Set(), rejectedSlugs: new Set() };
const write = { action: "write", slug: "editor-theme", type: "user", description: "Prefers dark mode", body: "Dark mode everywhere." };

function rejectionOf(item: unknown, itemContext: MemoryPlanContext = context) {
  const result = validateMemoryPlan({ status: "updated", items: [item] }, itemContext);
  expect(result.accepted).toEqual([]);
  expect(result.rejected).toHaveLength(1);
  return result.rejected[0];
}

describe("validateMemoryPlan accepts", () => {
  it("a write, normalised to camelCase with the defaults filled in", () => {
    const result = validateMemoryPlan(
      {
        status: "updated",
        note: "  one fact  ",
        items: [
          {
            ...write,
            slug: "Editor_Theme",
            confidence: "high",
            source_quote: "I always use dark mode",
            reasoning: "stated preference",
            aliases: ["Dark_Mode", "not valid!", "dark-mode"],
            supersedes: "old-theme",
            conflicts_with: ["light-theme"],
            extra: "ignored",
          },
        ],
      },
      context,
    );
    expect(result).toEqual({
      status: "updated",
      note: "one fact",
      rejected: [],
      accepted: [
        {
          index: 0,
          action: "write",
          slug: "editor-theme",
          scope: "global",
          type: "user",
          description: "Prefers dark mode",
          body: "Dark mode everywhere.",
          mode: "merge",
          confidence: "high",
          sourceQuote: "I always use dark mode",
          reasoning: "stated preference",
          aliases: ["dark-mode"],
          supersedes: "old-theme",
          conflictsWith: ["light-theme"],
        },
      ],
    });
  });

  it("update, accept, delete and append_daily, and the plan as JSON text", () => {
    const result = validateMemoryPlan(
      JSON.stringify({
        status: "updated",
        items: [
          { action: "update", slug: "a-entry", body: "more", mode: "replace", scope: "project" },
          { action: "accept", slug: "b-entry" },
          { action: "delete", slug: "c-entry", scope: "project" },
          { action: "append_daily", body: "- worked on the parser" },
          { action: "append_daily", slug: "daily-2026-01-02", body: "- earlier" },
        ],
      }),
      context,
    );
    expect(result.rejected).toEqual([]);
    expect(result.accepted.map((item) => [item.action, item.slug, item.scope, item.mode])).toEqual([
      ["update", "a-entry", "project", "replace"],
      ["accept", "b-entry", "global", "merge"],
      ["delete", "c-entry", "project", "merge"],
      ["append_daily", undefined, "global", "merge"],
      ["append_daily", "daily-2026-01-02", "global", "merge"],
    ]);
  });

  it("cuts source_quote, reasoning and note to their limits", () => {
    const result = validateMemoryPlan(
      { status: "noop", note: "n".repeat(300), items: [{ ...write, source_quote: "q".repeat(100), reasoning: "r".repeat(300) }] },
      context,
    );
    expect(result.note).toHaveLength(200);
    expect(result.accepted[0].sourceQuote).toHaveLength(80);
    expect(result.accepted[0].reasoning).toHaveLength(240);
  });

  it("a noop plan without items", () => {
    expect(validateMemoryPlan({ status: "noop" }, context)).toEqual({ status: "noop", accepted: [], rejected: [] });
    expect(validateMemoryPlan({ status: "noop", items: [] }, context)).toEqual({ status: "noop", accepted: [], rejected: [] });
  });
});

describe("validateMemoryPlan rejects, one code per rule", () => {
  it("invalid-action", () => {
    expect(rejectionOf({ ...write, action: "rename" })).toMatchObject({ index: 0, code: "invalid-action" });
    expect(rejectionOf("write")).toMatchObject({ code: "invalid-action" });
    expect(rejectionOf({ ...write, slug: "daily-2026-01-02" })).toMatchObject({ code: "invalid-action" });
  });

  it("missing-slug (absent, or breaking the slug rule with a suggestion)", () => {
    expect(rejectionOf({ action: "delete" })).toMatchObject({ code: "missing-slug" });
    const invalid = rejectionOf({ ...write, slug: "dark mode!" });
    expect(invalid).toMatchObject({ code: "missing-slug", slug: "dark mode!" });
    expect(invalid.message).toContain('"dark-mode"');
    expect(rejectionOf({ action: "append_daily", slug: "notes", body: "x" })).toMatchObject({ code: "missing-slug" });
  });

  it("missing-type-for-write", () => {
    expect(rejectionOf({ ...write, type: undefined })).toMatchObject({ code: "missing-type-for-write", slug: "editor-theme" });
    expect(rejectionOf({ ...write, type: "daily" }).message).toContain("append_daily");
    expect(rejectionOf({ action: "update", slug: "a-entry", type: "secret", body: "x" })).toMatchObject({ code: "missing-type-for-write" });
  });

  it("missing-description-for-write", () => {
    expect(rejectionOf({ ...write, description: "  " })).toMatchObject({ code: "missing-description-for-write" });
    expect(rejectionOf({ ...write, description: "d".repeat(121) })).toMatchObject({ code: "missing-description-for-write" });
  });

  it("missing-body-for-write", () => {
    expect(rejectionOf({ ...write, body: " \n" })).toMatchObject({ code: "missing-body-for-write" });
    expect(rejectionOf({ action: "update", slug: "a-entry" })).toMatchObject({ code: "missing-body-for-write" });
  });

  it("invalid-scope", () => {
    expect(rejectionOf({ ...write, scope: "auto" })).toMatchObject({ code: "invalid-scope" });
    expect(rejectionOf({ action: "append_daily", scope: "project", body: "x" })).toMatchObject({ code: "invalid-scope" });
  });

  it("project-scope-gate", () => {
    expect(rejectionOf({ ...write, scope: "project" }, { ...context, projectScopeAllowed: false })).toMatchObject({ code: "project-scope-gate" });
    expect(validateMemoryPlan({ status: "updated", items: [write] }, { ...context, projectScopeAllowed: false }).accepted).toHaveLength(1);
  });

  it("rejected-slug-no-override", () => {
    const rejectedContext = { ...context, rejectedSlugs: new Set(["editor-theme"]) };
    expect(rejectionOf(write, rejectedContext)).toMatchObject({ code: "rejected-slug-no-override" });
    expect(rejectionOf({ ...write, override_reject: "   " }, rejectedContext)).toMatchObject({ code: "rejected-slug-no-override" });
    const overridden = validateMemoryPlan({ status: "updated", items: [{ ...write, override_reject: "User repeated it today" }] }, rejectedContext);
    expect(overridden.accepted[0]).toMatchObject({ overrideReject: "User repeated it today" });
  });

  it("duplicate-slug-in-plan (against earlier accepted items only)", () => {
    const result = validateMemoryPlan(
      {
        status: "updated",
        items: [
          { ...write, type: "nope" },
          write,
          { action: "update", slug: "Editor_Theme", body: "x" },
          { action: "append_daily", body: "a" },
          { action: "append_daily", body: "b" },
        ],
      },
      context,
    );
    expect(result.accepted.map((item) => item.index)).toEqual([1, 3]);
    expect(result.rejected.map((entry) => [entry.index, entry.code])).toEqual([
      [0, "missing-type-for-write"],
      [2, "duplicate-slug-in-plan"],
      [4, "duplicate-slug-in-plan"],
    ]);
  });

  it("already-written-this-turn", () => {
    expect(rejectionOf({ action: "delete", slug: "editor-theme" }, { ...context, writtenThisTurn: new Set(["editor-theme"]) })).toMatchObject({
      code: "already-written-this-turn",
    });
  });

  it("empty-daily-body", () => {
    expect(rejectionOf({ action: "append_daily" })).toMatchObject({ code: "empty-daily-body" });
    expect(rejectionOf({ action: "append_daily", body: "  " })).toMatchObject({ code: "empty-daily-body" });
  });

  it("body-too-large (UTF-8 bytes; 8 KB for entries, 32 KB for a daily line)", () => {
    expect(rejectionOf({ ...write, body: "é".repeat(4097) })).toMatchObject({ code: "body-too-large" });
    expect(validateMemoryPlan({ status: "updated", items: [{ ...write, body: "x".repeat(8192) }] }, context).accepted).toHaveLength(1);
    expect(validateMemoryPlan({ status: "updated", items: [{ action: "append_daily", body: "x".repeat(20_000) }] }, context).accepted).toHaveLength(1);
    expect(rejectionOf({ action: "append_daily", body: "x".repeat(32 * 1024 + 1) })).toMatchObject({ code: "body-too-large" });
  });

  it("has a test above for every code", () => {
    expect(MEMORY_PLAN_REJECTION_CODES).toHaveLength(12);
  });

  it("items past the eighth", () => {
    const items = Array.from({ length: 9 }, (_, index) => ({ action: "delete", slug: `entry-${index}` }));
    const result = validateMemoryPlan({ status: "updated", items }, context);
    expect(result.accepted).toHaveLength(8);
    expect(result.rejected).toMatchObject([{ index: 8, code: "invalid-action" }]);
  });
});

describe("validateMemoryPlan on an unreadable plan", () => {
  it("reports the problem and accepts nothing", () => {
    expect(validateMemoryPlan("{not json", context)).toMatchObject({ status: "noop", accepted: [], problem: expect.any(String) });
    expect(validateMemoryPlan({ status: "updated", items: "write" }, context)).toMatchObject({ status: "updated", problem: expect.any(String) });
  });
});
