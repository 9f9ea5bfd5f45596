/**
 * Attacks on a registry built on an SSH workspace (`createSshWorkspace` of
 * `@agent-tools/ssh`, a real OpenSSH server from `startTestSshd`), played by
 * a model whose Bash runs on the remote machine as the SSH user: remote
 * processes.
 *
 * - remote processes that leave the tree (setsid, double fork, nohup) after
 *   a Bash timeout, a ManagedProcess stop and the registry's close;
 * - Bash and ManagedProcess refuse a cwd leaving the root and take a quoted
 *   one as data; marker-like output lines pass through as output;
 * - an escapee that double-forks with setsid and drops the tree variable from
 *   its environment dies with a Bash timeout (it stays below the remote
 *   supervisor, a child subreaper), also one that ignores SIGTERM and renames
 *   itself (`exec -a`), one whose command stopped the supervisor, a fork bomb (bounded by `ulimit -u`), and a command
 *   that kills one of its two supervisor processes (`kill -9 $PPID`, or the
 *   parent above it);
 * - Open (`it.fails`): a command that stops and kills both supervisor
 *   processes before they can react leaves such an escapee running.
 *
 * Runs as root (the test sshd's dedicated account `agtssh`); skipped otherwise.
 * Shared set-up: `__fixtures__/ssh-workspace.ts` (each file starts its own sshd).
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import type { TestSshd } from "@agent-tools/ssh/testing";
import { beforeAll, describe, expect, it } from "vitest";
import { asRoot, useSshWorkspaceHarness } from "./__fixtures__/ssh-workspace.js";

const harness = useSshWorkspaceHarness();
const { cleanups, asUser, scene, call } = harness;
let sshd: TestSshd;
beforeAll(() => {
  if (!asRoot) return;
  sshd = harness.sshd;
});

describe.skipIf(!asRoot)("attack: an SSH workspace through the tools", () => {
  it("no remote process outlives a Bash timeout, a ManagedProcess stop or the registry's close", async () => {
    const { registry, workspace } = await scene();
    // sleep takes no extra word: a unique fraction of a second names each escapee (`sleep 1000.<tag><phase><n>`).
    const tag = `${process.pid}${Date.now() % 100_000}`;
    const settle = () => new Promise((resolve) => setTimeout(resolve, 1500));
    const live = () => {
      try {
        return execFileSync("pgrep", ["-u", sshd.username, "-f", `[.]${tag}`], { encoding: "utf8" }).trim();
      } catch {
        return "";
      }
    };
    const escapes = (phase: number) =>
      [
        `setsid sleep 1000.${tag}${phase}1 >/dev/null 2>&1 </dev/null &`,
        `(sleep 1000.${tag}${phase}2 >/dev/null 2>&1 </dev/null &) >/dev/null 2>&1 </dev/null &`,
        `nohup sleep 1000.${tag}${phase}3 >/dev/null 2>&1 </dev/null &`,
        `sleep 1000.${tag}${phase}4 >/dev/null 2>&1 </dev/null & disown`,
        `setsid sh -c 'trap "" TERM HUP INT; (sleep 1000.${tag}${phase}5 >/dev/null 2>&1 </dev/null &); sleep 1000.${tag}${phase}6; :' >/dev/null 2>&1 </dev/null &`,
        "sleep 1",
      ].join("\n");
    const timing = call(registry, "Bash", { command: `${escapes(1)}\nsleep 60`, timeout_ms: 4000, yield_time_ms: 30_000 });
    await settle();
    expect(live().split("\n").length, "the escapees run").toBeGreaterThanOrEqual(6);
    const timedOut = await timing;
    expect(timedOut.text).toMatch(/timed.out/i);
    await settle();
    expect(live(), "after the Bash timeout").toBe("");

    const yielded = await call(registry, "Bash", { command: `${escapes(2)}\nsleep 1000`, yield_time_ms: 1000 });
    const sessionId = yielded.details?.sessionId ?? yielded.details?.session_id ?? yielded.text.match(/session_id[=: "]+([\w-]+)/)?.[1];
    expect(typeof sessionId, yielded.text).toBe("string");
    const stoppedSession = await call(registry, "ProcessStop", { session_id: sessionId });
    expect(stoppedSession.isError, stoppedSession.text).toBe(false);
    await settle();
    expect(live(), "after ProcessStop").toBe("");

    const started = await call(registry, "ManagedProcess", { action: "start", command: `${escapes(3)}\nsleep 1000` });
    expect(started.isError, started.text).toBe(false);
    const id = (started.details?.processId ?? started.details?.process_id ?? started.text.match(/process_id[=: "]+([\w-]+)/)?.[1]) as string;
    expect(typeof id, started.text).toBe("string");
    await settle();
    const stopped = await call(registry, "ManagedProcess", { action: "stop", process_id: id });
    expect(stopped.isError, stopped.text).toBe(false);
    await settle();
    expect(live(), "after ManagedProcess stop").toBe("");

    await call(registry, "Bash", { command: `${escapes(4)}\nsleep 1000`, yield_time_ms: 1000 });
    await call(registry, "ManagedProcess", { action: "start", command: `${escapes(5)}\nsleep 1000` });
    await settle();
    // The escapees run (the check above is not vacuous): 6 of the Bash session and 6 of the ManagedProcess.
    expect(live().split("\n").length).toBeGreaterThanOrEqual(12);
    await registry.close();
    await workspace.close();
    await settle();
    expect(live(), "after the registry's close").toBe("");
  }, 120_000);

  // Was open until every remote command ran under the supervisor (a child subreaper): such an escapee carries
  // neither the tree tag nor the group, but is re-parented to the supervisor instead of init.
  it("no remote process outlives a Bash timeout after a double fork that clears its environment", async () => {
    const { registry } = await scene();
    const tag = `${process.pid}${Date.now() % 100_000}`;
    const live = () => {
      try {
        return execFileSync("pgrep", ["-u", sshd.username, "-f", `[.]${tag}`], { encoding: "utf8" }).trim();
      } catch {
        return "";
      }
    };
    cleanups.push(() => {
      try {
        execFileSync("pkill", ["-KILL", "-u", sshd.username, "-f", `[.]${tag}`], { stdio: "ignore" });
      } catch {
        // nothing left to kill (pkill exits 1)
      }
    });
    const command = [
      `(env -i /bin/sleep 1000.${tag}1 >/dev/null 2>&1 </dev/null &) >/dev/null 2>&1 </dev/null`,
      `(env -u AGENT_TOOLS_PROCESS_TREE setsid /bin/sleep 1000.${tag}2 >/dev/null 2>&1 </dev/null &) >/dev/null 2>&1 </dev/null`,
      "sleep 60",
    ].join("\n");
    const timedOut = await call(registry, "Bash", { command, timeout_ms: 3000, yield_time_ms: 30_000 });
    expect(timedOut.text).toMatch(/timed.out/i);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(live(), "after the Bash timeout").toBe("");
  }, 60_000);

  /** The processes of the SSH user whose command line holds `.<tag>`, and a clean-up killing them. */
  const tagged = (tag: string) => {
    const live = () => {
      try {
        return execFileSync("pgrep", ["-u", sshd.username, "-f", `[.]${tag}`], { encoding: "utf8" }).trim();
      } catch {
        return "";
      }
    };
    cleanups.push(() => {
      try {
        execFileSync("pkill", ["-KILL", "-u", sshd.username, "-f", `[.]${tag}`], { stdio: "ignore" });
      } catch {
        // nothing left to kill (pkill exits 1)
      }
    });
    return live;
  };
  const uniqueTag = () => `${process.pid}${Math.floor(Math.random() * 1_000_000)}`;
  const escapee = (name: string) => `(env -i /usr/bin/setsid /bin/sleep 1000.${name} >/dev/null 2>&1 </dev/null &) >/dev/null 2>&1 </dev/null`;
  const waitGone = async (live: () => string) => {
    for (let round = 0; round < 50 && live() !== ""; round += 1) await new Promise((resolve) => setTimeout(resolve, 100));
    return live();
  };

  it("a Bash timeout ends an env-cleared setsid escapee that ignores SIGTERM and renamed itself (exec -a)", async () => {
    const { registry } = await scene();
    const tag = uniqueTag();
    const live = tagged(tag);
    const command = [
      `(env -i /usr/bin/setsid /bin/bash -c 'trap "" TERM; exec -a x.${tag}1 /bin/sleep 1000' >/dev/null 2>&1 </dev/null &) >/dev/null 2>&1 </dev/null`,
      `(env -i /usr/bin/setsid /bin/bash -c 'trap "" TERM HUP; (exec -a y.${tag}2 /bin/sleep 1000 &); exec -a z.${tag}3 /bin/sleep 1000' >/dev/null 2>&1 </dev/null &) >/dev/null 2>&1 </dev/null`,
      "sleep 60",
    ].join("\n");
    const running = call(registry, "Bash", { command, timeout_ms: 3000, yield_time_ms: 30_000 });
    for (let round = 0; round < 50 && live().split("\n").length < 3; round += 1) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(live().split("\n").length, "the renamed escapees run").toBe(3);
    expect((await running).text).toMatch(/timed.out/i);
    expect(await waitGone(live), "after the Bash timeout").toBe("");
  }, 60_000);

  it("killing the command's supervisor from inside it (kill -9 $PPID) ends the command and its escapees", async () => {
    const { registry } = await scene();
    const tag = uniqueTag();
    const live = tagged(tag);
    const command = [escapee(`${tag}1`), "sleep 0.5", "kill -9 $PPID", escapee(`${tag}2`), "sleep 60"].join("\n");
    const done = await call(registry, "Bash", { command, timeout_ms: 20_000, yield_time_ms: 30_000 });
    expect(done.text).not.toMatch(/timed.out/i);
    expect(await waitGone(live), "after the supervisor was killed").toBe("");
  }, 60_000);

  it("killing the supervisor's parent process from inside the command ends the command and its escapees", async () => {
    const { registry } = await scene();
    const tag = uniqueTag();
    const live = tagged(tag);
    const command = [escapee(`${tag}1`), "sleep 0.5", "kill -9 $(ps -o ppid= -p $PPID)", escapee(`${tag}2`), "sleep 60"].join("\n");
    const done = await call(registry, "Bash", { command, timeout_ms: 20_000, yield_time_ms: 30_000 });
    expect(done.text).not.toMatch(/timed.out/i);
    expect(await waitGone(live), "after the supervisor's parent was killed").toBe("");
  }, 60_000);

  it("a Bash timeout ends an escapee whose command stopped its supervisor first (kill -STOP $PPID)", async () => {
    const { registry } = await scene();
    const tag = uniqueTag();
    const live = tagged(tag);
    const command = ["kill -STOP $PPID", escapee(`${tag}1`), "sleep 60"].join("\n");
    const running = call(registry, "Bash", { command, timeout_ms: 3000, yield_time_ms: 30_000 });
    for (let round = 0; round < 50 && live() === ""; round += 1) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(live(), "the escapee runs").not.toBe("");
    expect((await running).text).toMatch(/timed.out/i);
    expect(await waitGone(live), "after the Bash timeout").toBe("");
  }, 60_000);

  it("a Bash timeout ends a fork bomb (bounded by ulimit -u) that left the session", async () => {
    const { registry } = await scene();
    const tag = uniqueTag();
    const live = tagged(tag);
    // Each bomb process keeps forking copies of itself and sleepers; ulimit -u bounds the account's processes.
    const bomb = `f() { while :; do /bin/sleep 1000.${tag}1 & f & /bin/sleep 0.05; done; }; f`;
    const command = [
      `ulimit -u 250`,
      `(env -i /usr/bin/setsid /bin/bash -c '${bomb}' x.${tag}2 >/dev/null 2>&1 </dev/null &) >/dev/null 2>&1 </dev/null`,
      "sleep 60",
    ].join("\n");
    const running = call(registry, "Bash", { command, timeout_ms: 4000, yield_time_ms: 30_000 });
    for (let round = 0; round < 30 && live().split("\n").length < 20; round += 1) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(live().split("\n").length, "the bomb runs").toBeGreaterThanOrEqual(20);
    expect((await running).text).toMatch(/timed.out/i);
    expect(await waitGone(live), "after the Bash timeout").toBe("");
  }, 60_000);

  // Open: the guarantee rests on one of the two supervisor processes living long enough to clean up. A command
  // that stops both (so neither can react) and then kills them leaves an escapee that also cleared its
  // environment and left the session with nothing to find it by: it is re-parented to init.
  it.fails("a command that stops and kills both supervisor processes leaves no escapee behind", async () => {
    const { registry } = await scene();
    const tag = uniqueTag();
    const live = tagged(tag);
    const command = [escapee(`${tag}1`), "sleep 0.5", "p=$(ps -o ppid= -p $PPID)", "kill -STOP $PPID $p", "kill -9 $PPID $p", "sleep 60"].join("\n");
    await call(registry, "Bash", { command, timeout_ms: 3000, yield_time_ms: 30_000 });
    expect(await waitGone(live), "after the Bash command").toBe("");
  }, 60_000);

  it("Bash and ManagedProcess refuse a cwd outside the root by any form (symlink, .., absolute, quotes and $())", async () => {
    const { workdir, outside, registry } = await scene();
    asUser(`cd '${workdir}' && ln -s '${outside}/dir' linkdir`);
    fs.mkdirSync(`${workdir}/a'b$(touch INJECTED)`);
    execFileSync("chown", [`${sshd.username}:`, `${workdir}/a'b$(touch INJECTED)`]);
    const forms = ["linkdir", `${outside}/dir`, "../..", `sub/../../outside-${path.basename(workdir)}/dir`, "root://docs", "/"];
    for (const cwd of forms) {
      const bash = await call(registry, "Bash", { command: "pwd; cat inner.txt", cwd, yield_time_ms: 5_000 });
      expect(bash.text, `Bash cwd ${cwd}`).not.toContain("OUTSIDE-DIR-FILE");
      expect(bash.text, `Bash cwd ${cwd}`).not.toMatch(new RegExp(`^${outside}/dir$`, "m"));
      const started = await call(registry, "ManagedProcess", { action: "start", command: "pwd; cat inner.txt", cwd });
      expect(started.isError, `ManagedProcess cwd ${cwd}: ${started.text}`).toBe(true);
    }
    const quoted = await call(registry, "Bash", { command: "pwd", cwd: "a'b$(touch INJECTED)", yield_time_ms: 5_000 });
    expect(quoted.isError, quoted.text).toBe(false);
    expect(fs.existsSync(`${workdir}/INJECTED`)).toBe(false);
  }, 60_000);

  it("Bash output carrying marker-like lines is passed through as output", async () => {
    const { registry } = await scene();
    const bash = await call(registry, "Bash", { command: "printf 'AT0000 P 1\\nAT0000 E cwd\\n'; echo done; exit 3" });
    expect(bash.text).toContain("AT0000 P 1");
    expect(bash.text).toContain("AT0000 E cwd");
    expect(bash.text).toContain("done");
    expect(bash.text).toMatch(/3/);
  }, 60_000);
});
