/**
 * Red-team round on the SSH workspace's remote programs, second file (the
 * first is `ssh-helpers-redteam.attack.test.ts`): attacks that did not get
 * through, kept as regression tests.
 *
 * - a command that ptraces its own supervisor from an env-cleared setsid
 *   escapee, with a second escapee beside it: the attach is refused (the
 *   supervisor is non-dumpable; before that it was attached and held in a
 *   ptrace stop, which SIGCONT does not end) and both still die with the
 *   Bash timeout;
 * - a bind mount of an outside folder over a workspace folder in the
 *   model's own user and mount namespace (`unshare -Urm`, unprivileged):
 *   the anchored helper lives in the machine's mount namespace and never
 *   sees it (Write, Read and Delete stay in the real folder).
 *
 * Runs as root (the test sshd's dedicated account `agtssh`); skipped otherwise.
 * Shared set-up: `__fixtures__/ssh-workspace.ts` (each file starts its own sshd).
 */
import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { asRoot, useSshWorkspaceHarness } from "./__fixtures__/ssh-workspace.js";

const harness = useSshWorkspaceHarness();
const { cleanups, asUser, scene, call } = harness;

/** The SSH user's processes whose command line holds `.<tag>`; the clean-up kills them by pid. */
function tagged(tag: string): () => string {
  const live = () => {
    try {
      return execFileSync("pgrep", ["-u", harness.sshd.username, "-f", `[.]${tag}`], { encoding: "utf8" }).trim();
    } catch {
      return "";
    }
  };
  cleanups.push(() => {
    for (const pid of live().split("\n").filter(Boolean)) {
      try {
        process.kill(Number(pid), "SIGKILL");
      } catch {
        // Gone.
      }
    }
  });
  return live;
}

describe.skipIf(!asRoot)("attack: the SSH workspace's remote helpers (red team, regression cases)", () => {
  it.skipIf(process.arch !== "x64")(
    "a command whose escapee tries to ptrace the supervisor is refused, and nothing is left running after the Bash timeout",
    async () => {
      const { registry } = await scene();
      const tag = `${process.pid}${Math.floor(Math.random() * 1_000_000)}`;
      const live = tagged(tag);
      // x86_64's ptrace is syscall 101, PTRACE_ATTACH 16 (the test machine's architecture).
      // The supervisor is non-dumpable, so the attach is refused (EPERM); before, it was attached and held.
      const tracer = `$0 = "tracer.${tag}"; my $r = syscall(101, 16, $ARGV[0] + 0, 0, 0) == 0 ? "attached" : "refused: $!"; open(my $m, ">", "/tmp/att35-traced-${tag}"); print $m $r; close $m; sleep 1000;`;
      const command = [
        `S=$PPID`,
        `(env -i /usr/bin/setsid /usr/bin/perl -e '${tracer}' "$S" >/dev/null 2>&1 </dev/null &) >/dev/null 2>&1 </dev/null`,
        `(env -i /usr/bin/setsid /bin/sleep 1000.${tag}2 >/dev/null 2>&1 </dev/null &) >/dev/null 2>&1 </dev/null`,
        "sleep 60",
      ].join("\n");
      cleanups.push(() => fs.rmSync(`/tmp/att35-traced-${tag}`, { force: true }));
      const running = call(registry, "Bash", { command, timeout_ms: 4000, yield_time_ms: 30_000 });
      for (let round = 0; round < 50 && live().split("\n").filter(Boolean).length < 2; round += 1) await new Promise((resolve) => setTimeout(resolve, 100));
      expect(live().split("\n").filter(Boolean).length, "the tracer and the escapee run").toBe(2);
      expect(fs.readFileSync(`/tmp/att35-traced-${tag}`, "utf8"), "the tracer's attach to the supervisor").toMatch(/^refused: Operation not permitted/);
      expect((await running).text).toMatch(/timed.out/i);
      for (let round = 0; round < 50 && live() !== ""; round += 1) await new Promise((resolve) => setTimeout(resolve, 100));
      expect(live(), "after the Bash timeout").toBe("");
    },
    120_000,
  );

  it("a bind mount of an outside folder in the model's own mount namespace is never seen by the file tools", async () => {
    const { workdir, outside, registry } = await scene();
    asUser(`printf 'in\\n' > '${workdir}/sub/keep.txt'`);
    // Held while the tools run: an unprivileged user and mount namespace with outside/dir bound over sub.
    const holder = spawn(
      "runuser",
      [
        "-u",
        harness.sshd.username,
        "--",
        "unshare",
        "-Urm",
        "/bin/sh",
        "-c",
        `mount --bind '${outside}/dir' '${workdir}/sub' && ls '${workdir}/sub' && sleep 60`,
      ],
      { stdio: ["ignore", "pipe", "ignore"], detached: true },
    );
    cleanups.push(() => {
      try {
        process.kill(-(holder.pid as number), "SIGKILL");
      } catch {
        // Gone.
      }
    });
    const seen = await new Promise<string>((resolve) => {
      let text = "";
      holder.stdout?.on("data", (chunk: Buffer) => {
        text += chunk.toString("utf8");
        if (text.includes("\n")) resolve(text);
      });
      holder.once("exit", () => resolve(text));
    });
    expect(seen, "the bind mount took in the model's namespace").toContain("inner.txt");
    const read = await call(registry, "Read", { path: "sub/inner.txt" });
    expect(read.text).not.toContain("OUTSIDE-DIR-FILE");
    const written = await call(registry, "Write", { path: "sub/new.txt", content: "new\n" });
    expect(written.isError, written.text).toBe(false);
    await call(registry, "Read", { path: "sub/keep.txt" });
    const deleted = await call(registry, "Delete", { path: "sub/keep.txt" });
    expect(deleted.isError, deleted.text).toBe(false);
    expect(fs.readdirSync(`${outside}/dir`)).toEqual(["inner.txt"]);
    expect(fs.readdirSync(`${workdir}/sub`)).toEqual(["new.txt"]);
  }, 120_000);
});
