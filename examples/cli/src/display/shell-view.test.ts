import { describe, expect, it } from "vitest";
import { shellView } from "./shell-view.js";

describe("shellView", () => {
  it("reads a resumable session (running, with its id) and a finished one", () => {
    expect(shellView({ status: "running", session_id: "s7", exit_code: null, output: [{ stream: "stdout", text: "tick\n" }], duration_ms: 1200 })).toEqual({
      status: "running",
      sessionId: "s7",
      exitCode: null,
      durationMs: 1200,
      output: [{ stream: "stdout", text: "tick\n" }],
    });
    expect(shellView({ status: "failed", session_id: "s7", exit_code: 2, output: [{ stream: "stderr", text: "boom\n" }] })).toMatchObject({
      status: "failed",
      exitCode: 2,
      output: [{ stream: "stderr", text: "boom\n" }],
    });
  });

  it("reads the synchronous form (stdout/stderr, exitCode) and derives its status", () => {
    expect(shellView({ stdout: "ok\n", stderr: "", exitCode: 0 })).toMatchObject({
      status: "completed",
      exitCode: 0,
      output: [{ stream: "stdout", text: "ok\n" }],
    });
    expect(shellView({ stdout: "", stderr: "no\n", exitCode: 1 })).toMatchObject({ status: "failed", output: [{ stream: "stderr", text: "no\n" }] });
  });

  it("returns undefined for details that are not a shell result", () => {
    expect(shellView({ code: "invalid_arguments" })).toBeUndefined();
    expect(shellView(null)).toBeUndefined();
    expect(shellView("text")).toBeUndefined();
  });
});
