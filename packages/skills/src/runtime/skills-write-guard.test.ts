import { execFile, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bundleChild } from "./__fixtures__/bundle-child.js";
import { SkillsWriteGuard } from "./skills-write-guard.js";

const run = promisify(execFile);
const here = path.dirname(fileURLToPath(import.meta.url));
const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "agent-tools-skills-guard-")));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
let counterChild: { command: string; args: string[] };
beforeAll(async () => {
  counterChild = await bundleChild(path.join(here, "__fixtures__/guard-counter-child.ts"), root);
});

let serial = 0;
const freshRoot = () => {
  serial += 1;
  const dir = path.join(root, `r${serial}`);
  fs.mkdirSync(dir);
  return dir;
};
const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));
/** The pid of a process that has exited. */
const deadPid = () => spawnSync(process.execPath, ["-e", ""]).pid as number;

describe("SkillsWriteGuard", () => {
  it("runs the calls of one instance one at a time and removes the lock after each", async () => {
    const dir = freshRoot();
    const guard = new SkillsWriteGuard(dir);
    let inside = 0;
    let most = 0;
    const work = async () => {
      inside += 1;
      most = Math.max(most, inside);
      expect(fs.existsSync(path.join(dir, ".lock"))).toBe(true);
      await sleep(5);
      inside -= 1;
    };
    await Promise.all([guard.run(work), guard.run(work), guard.run(work)]);
    expect(most).toBe(1);
    expect(fs.existsSync(path.join(dir, ".lock"))).toBe(false);
  });

  it("records pid, hostname and time in the lock; releases it when fn throws, and later calls still run", async () => {
    const dir = freshRoot();
    const guard = new SkillsWriteGuard(dir);
    const failing = guard.run(async () => {
      const holder = JSON.parse(fs.readFileSync(path.join(dir, ".lock"), "utf8"));
      expect(holder).toMatchObject({ pid: process.pid, hostname: os.hostname() });
      expect(Math.abs(holder.acquiredAt - Date.now())).toBeLessThan(5_000);
      throw new Error("boom");
    });
    await expect(failing).rejects.toThrow("boom");
    expect(fs.existsSync(path.join(dir, ".lock"))).toBe(false);
    expect(await guard.run(async () => 42)).toBe(42);
  });

  it("excludes two instances of the same process through the lock file", async () => {
    const dir = freshRoot();
    const first = new SkillsWriteGuard(dir);
    const second = new SkillsWriteGuard(dir);
    const order: string[] = [];
    let entered: () => void = () => undefined;
    const inside = new Promise<void>((resolve) => {
      entered = resolve;
    });
    await Promise.all([
      first.run(async () => {
        order.push("first-start");
        entered();
        await sleep(60);
        order.push("first-end");
      }),
      inside.then(() => second.run(async () => order.push("second"))),
    ]);
    expect(order).toEqual(["first-start", "first-end", "second"]);
  });

  it("takes over a lock whose holder on this host is dead", async () => {
    const dir = freshRoot();
    fs.writeFileSync(path.join(dir, ".lock"), JSON.stringify({ pid: deadPid(), hostname: os.hostname(), acquiredAt: 1, token: "old" }));
    const guard = new SkillsWriteGuard(dir, { timeoutMs: 2_000 });
    const started = Date.now();
    expect(await guard.run(async () => JSON.parse(fs.readFileSync(path.join(dir, ".lock"), "utf8")).pid)).toBe(process.pid);
    expect(Date.now() - started).toBeLessThan(1_500);
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it("times out with unavailable naming a live holder, and on another host", async () => {
    const dir = freshRoot();
    const lock = path.join(dir, ".lock");
    // The parent of this test process is alive.
    fs.writeFileSync(lock, JSON.stringify({ pid: process.ppid, hostname: os.hostname(), acquiredAt: 0, token: "live" }));
    const guard = new SkillsWriteGuard(dir, { timeoutMs: 200 });
    await expect(guard.run(async () => "never")).rejects.toMatchObject({
      code: "unavailable",
      message: expect.stringContaining(`locked by process ${process.ppid} on ${os.hostname()} since 1970-01-01T00:00:00.000Z`),
    });
    fs.writeFileSync(lock, JSON.stringify({ pid: deadPid(), hostname: "elsewhere.example", acquiredAt: 0, token: "remote" }));
    await expect(guard.run(async () => "never")).rejects.toMatchObject({ code: "unavailable", message: expect.stringContaining("on elsewhere.example") });
    expect(JSON.parse(fs.readFileSync(lock, "utf8")).token).toBe("remote");
  });

  it("waits for a fresh unreadable lock but takes over an old one", async () => {
    const dir = freshRoot();
    const lock = path.join(dir, ".lock");
    fs.writeFileSync(lock, "");
    const guard = new SkillsWriteGuard(dir, { timeoutMs: 150, unreadableGraceMs: 10_000 });
    await expect(guard.run(async () => 1)).rejects.toMatchObject({ code: "unavailable", message: expect.stringContaining("cannot be read") });
    const old = new Date(Date.now() - 60_000);
    fs.utimesSync(lock, old, old);
    expect(await guard.run(async () => 2)).toBe(2);
    expect(fs.existsSync(lock)).toBe(false);
  });

  it("lets exactly one of several waiters take over the same stale lock", async () => {
    const dir = freshRoot();
    fs.writeFileSync(path.join(dir, ".lock"), JSON.stringify({ pid: deadPid(), hostname: os.hostname(), acquiredAt: 1, token: "old" }));
    let inside = 0;
    let most = 0;
    const guards = Array.from({ length: 6 }, () => new SkillsWriteGuard(dir));
    await Promise.all(
      guards.map((guard) =>
        guard.run(async () => {
          inside += 1;
          most = Math.max(most, inside);
          await sleep(5);
          inside -= 1;
        }),
      ),
    );
    expect(most).toBe(1);
  });

  it("excludes other processes: concurrent read-modify-write loses no update", async () => {
    const dir = freshRoot();
    await Promise.all([1, 2, 3].map(() => run(counterChild.command, [...counterChild.args, dir, "25"])));
    expect(fs.readFileSync(path.join(dir, "counter"), "utf8")).toBe("75");
    expect(fs.readdirSync(dir)).toEqual(["counter"]);
  }, 30_000);
});
