import { describe, expect, it } from "vitest";
import { decideCleanup } from "./cleanup-decision.js";

const base = { runStatus: "completed" as const, retainWorktree: false, statusError: false, changed: true };

describe("decideCleanup", () => {
  it("always keeps the worktree of a failed or cancelled run, before any other rule", () => {
    expect(decideCleanup({ ...base, runStatus: "failed", applyStatus: "applied" })).toEqual({ action: "keep", reason: "agent_failed" });
    expect(decideCleanup({ ...base, runStatus: "cancelled", changed: false })).toEqual({ action: "keep", reason: "agent_cancelled" });
    expect(decideCleanup({ ...base, runStatus: "running", changed: false })).toEqual({ action: "keep", reason: "agent_running" });
  });
  it("1. keeps a retained worktree even when applied", () => {
    expect(decideCleanup({ ...base, retainWorktree: true, applyStatus: "applied" })).toEqual({ action: "keep", reason: "retain_worktree" });
  });
  it("2. keeps it when the status could not be read", () => {
    expect(decideCleanup({ ...base, statusError: true, changed: false })).toEqual({ action: "keep", reason: "status_error" });
  });
  it("3. keeps it when the apply failed", () => {
    expect(decideCleanup({ ...base, applyStatus: "failed" })).toEqual({ action: "keep", reason: "apply_failed" });
  });
  it("4. removes it when applied", () => {
    expect(decideCleanup({ ...base, applyStatus: "applied" })).toEqual({ action: "remove", reason: "applied" });
  });
  it("5. removes it when the changes were already applied", () => {
    expect(decideCleanup({ ...base, applyStatus: "skipped", skipReason: "already_applied" })).toEqual({ action: "remove", reason: "already_applied" });
  });
  it("6. removes it when nothing changed", () => {
    expect(decideCleanup({ ...base, changed: false, applyStatus: "skipped", skipReason: "no_changes" })).toEqual({ action: "remove", reason: "unchanged" });
  });
  it("7. otherwise keeps it with unapplied changes", () => {
    expect(decideCleanup({ ...base, applyStatus: "skipped", skipReason: "apply_policy_none" })).toEqual({ action: "keep", reason: "unapplied_changes" });
    expect(decideCleanup({ ...base, applyStatus: "skipped", skipReason: "explicit_apply_paths_mismatch" })).toEqual({
      action: "keep",
      reason: "unapplied_changes",
    });
    expect(decideCleanup({ ...base, applyStatus: "skipped", skipReason: "empty_patch" })).toEqual({ action: "keep", reason: "unapplied_changes" });
  });
});
