import { isProcessAlive } from "@agent-tools/node/internal";
import { waitForPidFiles } from "@agent-tools/node/testing";
import { afterEach, describe, expect, it } from "vitest";
import { createHarness, detailsOf, textOf } from "./__fixtures__/harness.js";

let harness: ReturnType<typeof createHarness>;
afterEach(async () => {
  await harness?.cleanup();
});

describe("Bash (synchronous, cron scope)", () => {
  it("returns the # Shell header, command, stdout and stderr", async () => {
    harness = createHarness("cron");
    const result = await harness.call("Bash", { command: "echo hello; echo warn >&2" });
    expect(result.isError).toBe(false);
    const text = textOf(result);
    expect(text).toMatch(
      /^# Shell\nshell: \/bin\/(ba)?sh\nplatform: linux\nprofile: non-interactive\nshell_family: posix\nsandbox: none\ncwd: \.\nexit_code: 0\ntimed_out: false\ncancelled: false\nstdio_open_after_exit: false\ntimeout_ms: 120000\nduration_ms: \d+\n/,
    );
    expect(text).toContain("command:\necho hello; echo warn >&2\n");
    expect(text).toContain("stdout:\nhello\n");
    expect(text).toContain("stderr:\nwarn\n");
    expect(detailsOf(result)).toMatchObject({ exitCode: 0, stdout: "hello\n", stderr: "warn\n", timedOut: false, cancelled: false });
  });

  it("a non-zero exit is an error", async () => {
    harness = createHarness("cron");
    const result = await harness.call("Bash", { command: "exit 3" });
    expect(result.isError).toBe(true);
    expect(detailsOf(result).exitCode).toBe(3);
  });

  it("uses the provider's timeout table and kills the tree on timeout", async () => {
    harness = createHarness("cron", { providerId: "codex" });
    expect(harness.registry.tools[0]!.description).toContain("default 30000, at most 30000");
    const result = await harness.call("Bash", { command: "echo $$ > main.pid; tail -f /dev/null", timeout_ms: 10 });
    expect(result.isError).toBe(true);
    expect(detailsOf(result)).toMatchObject({ timedOut: true, timeout_ms: 1_000 });
    expect(textOf(result)).toContain("timed_out: true");
    const [pid] = await waitForPidFiles(harness.workdir, 1);
    expect(isProcessAlive(pid!)).toBe(false);
  });

  it("keeps the first 400 KiB of a stream and drains the rest", async () => {
    harness = createHarness("cron");
    const result = await harness.call("Bash", { command: "head -c 1000000 /dev/zero | tr '\\0' z; echo done >&2" });
    const details = detailsOf(result);
    expect(details.stdoutTruncated).toBe(true);
    expect(details.stdout.length).toBe(400 * 1024);
    expect(details.stdoutBytes).toBe(1_000_000);
    expect(details.stderr).toBe("done\n");
    expect(textOf(result)).toContain(`stdout (truncated: first ${400 * 1024} of 1000000 bytes):`);
  });

  it("reports pipes held open after the exit", async () => {
    harness = createHarness("cron");
    const result = await harness.call("Bash", { command: "(setsid sh -c 'echo $$ > holder.pid; exec sleep 5' &) ; echo hi" });
    expect(detailsOf(result)).toMatchObject({ stdioOpenAfterExit: true, exitCode: 0 });
    expect(result.isError).toBe(true);
    expect(detailsOf(result).stderr).toMatch(/still holds stdout\/stderr open/);
  });

  it("a cancelled call kills the tree and yields exit -1 with stderr Cancelled", async () => {
    harness = createHarness("cron");
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const result = await harness.call("Bash", { command: "echo $$ > main.pid; tail -f /dev/null" }, { signal: controller.signal });
    expect(result.isError).toBe(true);
    expect(detailsOf(result)).toMatchObject({ cancelled: true, exitCode: -1 });
    expect(detailsOf(result).stderr).toContain("Cancelled");
    const [pid] = await waitForPidFiles(harness.workdir, 1);
    expect(isProcessAlive(pid!)).toBe(false);
  });

  it("the host's command policy can refuse a command (the skills hook)", async () => {
    harness = createHarness("cron", { commandPolicies: [({ command }) => (command.includes("secret") ? "Reading secrets is not allowed." : undefined)] });
    const refused = await harness.call("Bash", { command: "cat secret.txt" });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toContain("Reading secrets is not allowed.");
    const removeLater = harness.bundle.addCommandPolicy(() => "everything refused");
    expect(textOf(await harness.call("Bash", { command: "true" }))).toContain("everything refused");
    removeLater();
    expect((await harness.call("Bash", { command: "true" })).isError).toBe(false);
  });
});
