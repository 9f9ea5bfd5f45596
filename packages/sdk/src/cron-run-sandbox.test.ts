import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { CommandSandbox, SandboxState } from "@agent-tools/core";
import type { CronTaskPolicy } from "@agent-tools/cron";
import { afterAll, describe, expect, it } from "vitest";
import { createCronRunSandbox, cronRunAdditionalRoots, cronRunSandboxSettings } from "./cron-run-sandbox.js";

const temporary = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "agent-tools-cron-run-sandbox-")));
afterAll(() => fs.rmSync(temporary, { recursive: true, force: true }));

const policy = (overrides: Partial<CronTaskPolicy> = {}): CronTaskPolicy => ({ workspace: temporary, roots: [], allowedPrivateNetworks: [], ...overrides });

/** A sandbox that confines nothing: these tests look at the state and policy handed to it. */
const passThrough: CommandSandbox = { mechanism: "test", confine: (options) => options };
const own = (settings: SandboxState["settings"]): SandboxState => ({ requested: true, sandbox: passThrough, settings });

describe("cronRunSandboxSettings", () => {
  it("keeps the task's settings and lets the scheduler's only narrow them", () => {
    const merged = cronRunSandboxSettings(
      { enabled: true, allowNetwork: true, hiddenPaths: ["/a"], writableRoots: ["/cache"] },
      { enabled: true, allowNetwork: false, hiddenPaths: ["/b"], writableRoots: ["/wide"] },
    );
    expect(merged).toEqual({ enabled: true, allowNetwork: false, hiddenPaths: ["/a", "/b"], writableRoots: ["/cache"] });
    // A registry without a sandbox allows the network; the scheduler's settings then rule.
    expect(cronRunSandboxSettings(undefined, { enabled: true, allowNetwork: true, hiddenPaths: [] })).toMatchObject({ allowNetwork: true, hiddenPaths: [] });
    expect(cronRunSandboxSettings({ enabled: true, hiddenPaths: [] }, { enabled: true, allowNetwork: true, hiddenPaths: [] }).allowNetwork).toBe(false);
  });
});

describe("createCronRunSandbox", () => {
  it("runs unconfined only when neither the task's registry nor the scheduler asked for a sandbox", async () => {
    const runs = createCronRunSandbox({ own: async () => undefined });
    expect(await runs.stateFor(policy())).toBeUndefined();
    expect(await runs.bashSandbox.confinementFor({ policy: policy(), writableRoots: [temporary], readOnlyRoots: [] })).toBeUndefined();
  });

  it("probes bubblewrap for a task whose registry had a sandbox, and fails closed when it cannot start", async () => {
    const missing = path.join(temporary, "no-such-bwrap");
    const runs = createCronRunSandbox({ own: async () => undefined, bubblewrapPath: missing });
    const state = await runs.stateFor(policy({ sandbox: { enabled: true } }));
    expect(state?.unavailable).toMatch(/bubblewrap was not found/);
    const confinement = await runs.bashSandbox.confinementFor({
      policy: policy({ sandbox: { enabled: true } }),
      writableRoots: [temporary],
      readOnlyRoots: [],
    });
    expect(confinement).toEqual({ unavailable: state?.unavailable });
  });

  it("confines with the given roots and the merged settings, the dataDir masked", async () => {
    const dataDir = path.join(temporary, "data");
    const shared = path.join(temporary, "shared");
    fs.mkdirSync(dataDir);
    fs.mkdirSync(shared);
    const runs = createCronRunSandbox({ own: async () => own({ enabled: true, allowNetwork: true, hiddenPaths: [] }), dataDir });
    const confinement = await runs.bashSandbox.confinementFor({
      policy: policy({ sandbox: { enabled: true, hiddenPaths: [] } }),
      writableRoots: [temporary],
      readOnlyRoots: [shared],
    });
    expect(confinement).toMatchObject({
      sandbox: passThrough,
      policy: { writableRoots: [temporary], readOnlyRoots: [shared], allowNetwork: false, maskedDirectories: [dataDir] },
    });
  });
});

describe("cronRunAdditionalRoots", () => {
  it("keeps the live roots that neither hold the workdir nor lie inside it, pinned to their recorded path", () => {
    const recorded = policy({
      roots: [
        { alias: "shared", path: "/srv/shared", access: "write" },
        { alias: "jobs", path: "/srv/jobs", access: "write" },
        { alias: "docs", path: "/srv/docs", access: "read" },
        { alias: "gone", path: "/srv/gone", access: "read" },
      ],
    });
    expect(cronRunAdditionalRoots(recorded, ["/srv/shared", "/srv/jobs", "/srv/docs"], "/srv/jobs/nightly")).toEqual([
      { alias: "shared", path: "/srv/shared", canonicalPath: "/srv/shared", access: "write" },
      { alias: "docs", path: "/srv/docs", canonicalPath: "/srv/docs", access: "read" },
    ]);
  });
});
