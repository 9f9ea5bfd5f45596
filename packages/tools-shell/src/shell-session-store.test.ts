import os from "node:os";
import { ExecaProcessRunner } from "@agent-tools/node";
import { ScriptedProcessRunner } from "@agent-tools/core/testing";
import { describe, expect, it } from "vitest";
import { SESSION_RETENTION_MS, ShellSessionStore } from "./shell-session-store.js";

describe("ShellSessionStore", () => {
  it("keeps a finished session for 10 minutes, then forgets it", async () => {
    const runner = new ScriptedProcessRunner((process) => {
      process.write("stdout", "hi\n");
      process.exit(0);
    });
    const store = new ShellSessionStore();
    const session = store.start({ id: "bash-a", command: "echo hi", cwd: os.tmpdir(), shell: "/bin/sh", runner });
    expect(await session.wait(0, 5_000)).toBe("terminal");
    expect(session.status).toBe("completed");
    expect(session.read(0).output).toEqual([{ stream: "stdout", text: "hi\n" }]);
    const finishedAt = session.finishedAt!;
    store.prune(finishedAt + SESSION_RETENTION_MS - 1);
    expect(store.size).toBe(1);
    store.prune(finishedAt + SESSION_RETENTION_MS);
    expect(store.size).toBe(0);
    expect(store.get("bash-a")).toBeUndefined();
    await store.close();
  });

  it("a killed scripted session ends as cancelled and a start after close is refused", async () => {
    const runner = new ScriptedProcessRunner(async (process) => {
      await process.sleep(60_000);
      process.exit(0);
    });
    const store = new ShellSessionStore({ maxSessions: 2 });
    const session = store.start({ id: "bash-b", command: "wait", cwd: os.tmpdir(), shell: "/bin/sh", runner });
    expect(await session.wait(0, 50)).toBe("yield");
    await session.terminate();
    expect(session.status).toBe("cancelled");
    expect(session.exitCode).toBe(-1);
    await store.close();
    expect(() => store.start({ id: "bash-c", command: "x", cwd: os.tmpdir(), shell: "/bin/sh", runner })).toThrow(/closed/);
  });

  it("a command that cannot start fails with the reason in its output", async () => {
    const runner = new ExecaProcessRunner();
    const store = new ShellSessionStore();
    const session = store.start({ id: "bash-d", command: "true", cwd: "/nonexistent/agent-tools-cwd", shell: "/bin/sh", runner });
    expect(await session.wait(0, 5_000)).toBe("terminal");
    expect(session.status).toBe("failed");
    expect(session.exitCode).toBe(127);
    expect(session.read(0).output[0]).toMatchObject({ stream: "stderr" });
    expect(session.read(0).output[0]!.text).toMatch(/could not start: .*(ENOENT|no such)/i);
    await store.close();
    await runner.close();
  });
});
