import { afterEach, describe, expect, it } from "vitest";
import { checkNulByte } from "./command-guards.js";
import { createHarness, detailsOf, textOf } from "./__fixtures__/harness.js";

let harness: ReturnType<typeof createHarness>;
afterEach(async () => {
  await harness?.cleanup();
});

const NUL_MESSAGE = /NUL bytes? .*cannot be passed to a shell command/;

describe("NUL bytes in shell tool arguments", () => {
  it("synchronous Bash refuses a command with a NUL byte before spawning", async () => {
    harness = createHarness("cron");
    const result = await harness.call("Bash", { command: "echo a\u0000b" });
    expect(result.isError).toBe(true);
    expect(detailsOf(result)).toMatchObject({ code: "invalid_arguments", guard: "nul" });
    expect(textOf(result)).toMatch(NUL_MESSAGE);
    expect(textOf(result)).not.toMatch(/unexpectedly/);
  });

  it("resumable Bash refuses a command with a NUL byte before spawning", async () => {
    harness = createHarness("chat");
    const result = await harness.call("Bash", { command: "printf x\u0000; sleep 1" });
    expect(detailsOf(result)).toMatchObject({ code: "invalid_arguments", guard: "nul" });
    expect(textOf(result)).toMatch(NUL_MESSAGE);
  });

  it("ManagedProcess refuses a command with a NUL byte before spawning", async () => {
    harness = createHarness("chat");
    const result = await harness.call("ManagedProcess", { action: "start", command: "node\u0000 -e 1" });
    expect(detailsOf(result)).toMatchObject({ code: "invalid_arguments", guard: "nul" });
    expect(textOf(result)).toMatch(NUL_MESSAGE);
    const status = await harness.call("ManagedProcess", { action: "status" });
    expect(detailsOf(status).processes).toEqual([]);
  });

  it("refuses a NUL byte in cwd clearly", async () => {
    harness = createHarness("chat");
    for (const [name, args] of [
      ["Bash", { command: "pwd", cwd: "sub\u0000dir" }],
      ["ManagedProcess", { action: "start", command: "pwd", cwd: "a\u0000" }],
    ] as const) {
      const result = await harness.call(name, args);
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(/NUL byte/);
      expect(textOf(result)).not.toMatch(/unexpectedly/);
    }
  });

  it("checkNulByte names the argument and the position", () => {
    expect(checkNulByte("Bash", "command", "ok")).toBeUndefined();
    expect(checkNulByte("Bash", "command", "ab\u0000c")).toMatch(/Bash `command` contains a NUL byte \(at character 3\)/);
  });
});

describe("createShellToolBundle env", () => {
  it("refuses a host env with a NUL byte or a bad name as SdkError invalid_options", async () => {
    const { createShellToolBundle } = await import("./shell-tool-bundle.js");
    expect(() => createShellToolBundle({ env: { GOOD: "a\u0000b" } })).toThrow(/without NUL bytes/);
    expect(() => createShellToolBundle({ env: { "A=B": "x" } })).toThrow(expect.objectContaining({ code: "invalid_options" }));
    await createShellToolBundle({ env: { GOOD: "fine" } }).close?.();
  });
});
