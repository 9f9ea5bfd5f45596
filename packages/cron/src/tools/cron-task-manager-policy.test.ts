/**
 * CronTaskManager records the calling registry's rules with each task it
 * creates or changes, and refuses tasks those rules do not allow: a workdir
 * outside the workspace and the write roots, http tasks without network,
 * literal non-public targets outside the host's allow-list.
 */
import fs from "node:fs";
import path from "node:path";
import { SdkError, type SandboxState } from "@agent-tools/core";
import { describe, expect, it } from "vitest";
import { InMemoryCronStore } from "../ports/in-memory-cron-store.js";
import { setup, temporaryDirectory } from "./__fixtures__/cron-registry.js";
import { createCronTaskManagerTool } from "./cron-task-manager-tool.js";

const BASH = { action: "create", name: "backup", cron: "0 0 3 * * *", type: "bash", script: "./backup.sh" };
const HTTP = { action: "create", name: "ping", cron: "0 */5 * * * *", type: "http", requests: [{ url: "https://example.com/hook" }] };

/** A sandbox state that confines nothing (this file never runs a command): what the tool records is the settings. */
function sandboxState(allowNetwork: boolean): SandboxState {
  return { requested: true, settings: { enabled: true, allowNetwork, hiddenPaths: ["/secret"] }, unavailable: "not started in this test" };
}

function layout() {
  const base = temporaryDirectory();
  for (const name of ["workspace/sub", "shared/jobs", "reference", "outside"]) fs.mkdirSync(path.join(base, name), { recursive: true });
  const workspace = path.join(base, "workspace");
  fs.symlinkSync(path.join(base, "outside"), path.join(workspace, "escape"));
  fs.symlinkSync(path.join(workspace, "sub"), path.join(workspace, "alias"));
  return {
    workspace,
    outside: path.join(base, "outside"),
    shared: path.join(base, "shared"),
    reference: path.join(base, "reference"),
    additionalRoots: [
      { alias: "shared", path: path.join(base, "shared"), access: "write" as const },
      { alias: "reference", path: path.join(base, "reference"), access: "read" as const },
    ],
  };
}

describe("CronTaskManager: the registry's rules", () => {
  it("records the workspace, the roots, the sandbox settings and the allow-list with each task, and the canonical workdir", async () => {
    const { workspace, shared, reference, additionalRoots } = layout();
    const { call, store } = setup({
      workdir: workspace,
      additionalRoots,
      ports: { sandbox: sandboxState(true) },
      http: { allowedPrivateNetworks: ["10.20.0.0/16"] },
    });
    const result = await call({ ...BASH, workdir: path.join(workspace, "alias") });
    expect(result.isError, result.text).toBe(false);
    const task = await store.getTask(result.details.task?.id as string);
    expect(task?.workdir).toBe(path.join(workspace, "sub"));
    expect(task?.policy).toEqual({
      workspace,
      roots: [
        { alias: "shared", path: shared, access: "write" },
        { alias: "reference", path: reference, access: "read" },
      ],
      sandbox: { enabled: true, allowNetwork: true, hiddenPaths: ["/secret"] },
      allowedPrivateNetworks: ["10.20.0.0/16"],
    });
  });

  it("refuses a workdir outside the workspace and the write roots, at create and at update, naming what is allowed", async () => {
    const { workspace, outside, shared, reference, additionalRoots } = layout();
    const { call, store } = setup({ workdir: workspace, additionalRoots });
    const allowed = `the workspace ${workspace} and root://shared (${shared})`;
    const cases: Array<[string, string]> = [
      ["/", `workdir "/" is outside the directories this registry may write: ${allowed}.`],
      [`${workspace}/..`, `workdir "${workspace}/.." (it resolves to ${path.dirname(workspace)}) is outside`],
      [path.join(workspace, "escape"), `(it resolves to ${outside}) is outside`],
      [path.join(workspace, "escape", "new"), `(it resolves to ${outside}/new) is outside`],
      [outside, `workdir "${outside}" is outside`],
      [reference, `workdir "${reference}" is outside`],
    ];
    for (const [workdir, fragment] of cases) {
      const refused = await call({ ...BASH, workdir });
      expect(refused.isError, workdir).toBe(true);
      expect(refused.text).toContain(fragment);
      expect(refused.text).toContain("Give a directory inside one of them, or an empty string for the workspace.");
    }
    expect(await store.listTasks()).toEqual([]);
    for (const workdir of ["", path.join(workspace, "sub"), path.join(shared, "jobs"), path.join(workspace, "not-yet")]) {
      expect((await call({ ...BASH, workdir })).isError, workdir).toBe(false);
    }
    const id = (await call({ ...BASH, workdir: path.join(workspace, "sub") })).details.task?.id;
    const moved = await call({ action: "update", task_id: id, workdir: outside });
    expect(moved.isError).toBe(true);
    expect(moved.text).toContain("is outside the directories this registry may write");
    expect((await store.getTask(id as string))?.workdir).toBe(path.join(workspace, "sub"));
  });

  it("re-records the rules of the registry that changes a task, and checks the task against them unless it ends disabled", async () => {
    const wide = layout();
    const narrow = temporaryDirectory();
    const store = new InMemoryCronStore();
    const first = setup({ workdir: wide.workspace, store });
    const second = setup({ workdir: narrow, store, ports: { sandbox: sandboxState(false) } });
    const id = (await first.call({ ...BASH, workdir: path.join(wide.workspace, "sub") })).details.task?.id as string;
    // The narrow registry cannot keep it enabled: the workdir is outside its workspace.
    const renamed = await second.call({ action: "update", task_id: id, name: "renamed" });
    expect(renamed.isError).toBe(true);
    expect(renamed.text).toContain(`is outside the directories this registry may write: the workspace ${narrow}.`);
    // Disabling is allowed and records its rules; enabling from the first registry records the first one's again.
    expect((await second.call({ action: "update", task_id: id, enabled: false })).isError).toBe(false);
    expect((await store.getTask(id))?.policy).toMatchObject({ workspace: narrow, sandbox: { enabled: true, allowNetwork: false } });
    expect((await first.call({ action: "update", task_id: id, enabled: true })).isError).toBe(false);
    expect((await store.getTask(id))?.policy).toEqual({ workspace: wide.workspace, roots: [], allowedPrivateNetworks: [] });
  });

  it("refuses http tasks when the registry's sandbox has no network, at create and when a task becomes http", async () => {
    const { call } = setup({ ports: { sandbox: sandboxState(false) } });
    const refused = await call(HTTP);
    expect(refused.isError).toBe(true);
    expect(refused.text).toContain("http tasks are not available here: this registry's sandbox has no network (allowNetwork is off)");
    const id = (await call(BASH)).details.task?.id;
    const retyped = await call({ action: "update", task_id: id, type: "http", requests: [{ url: "https://example.com/hook" }] });
    expect(retyped.isError).toBe(true);
    expect(retyped.text).toContain("sandbox has no network");
    const online = setup({ ports: { sandbox: sandboxState(true) } });
    expect((await online.call(HTTP)).isError).toBe(false);
  });

  it("refuses literal non-public targets in any notation unless the host allows the network; names are checked when the task runs", async () => {
    const { call } = setup();
    for (const url of [
      "http://127.0.0.1/",
      "http://2130706433/",
      "http://0x7f000001/",
      "http://0177.0.0.1/",
      "http://127.1/",
      "http://[::ffff:127.0.0.1]/",
      "http://169.254.169.254/",
    ]) {
      const refused = await call({ ...HTTP, requests: [{ url: "https://example.com/ok" }, { url }] });
      expect(refused.isError, url).toBe(true);
      expect(refused.text).toMatch(/requests\[2\]\.url .* is refused: .*, not a public address\. http tasks reach public addresses only/);
    }
    expect((await call({ ...HTTP, requests: [{ url: "http://localhost:8080/" }] })).isError).toBe(false);
    const allowing = setup({ http: { allowedPrivateNetworks: ["127.0.0.0/8"] } });
    expect((await allowing.call({ ...HTTP, requests: [{ url: "http://2130706433/" }, { url: "http://[::ffff:127.0.0.1]/" }] })).isError).toBe(false);
    const refusedStill = await allowing.call({ ...HTTP, requests: [{ url: "http://10.0.0.1/" }] });
    expect(refusedStill.text).toContain("10.0.0.1 is a private address");
  });

  it("fails closed on a bad `http` option", () => {
    const store = new InMemoryCronStore();
    expect(() => createCronTaskManagerTool({ store, http: { allowedPrivateNetworks: ["10.0.0.0/33"] } })).toThrow(SdkError);
    expect(() => createCronTaskManagerTool({ store, http: { allowedPrivateNetworks: ["10.0.0.0/33"] } })).toThrow(
      /http\.allowedPrivateNetworks\[0\] "10\.0\.0\.0\/33" is not a CIDR block or IP address/,
    );
    expect(() => createCronTaskManagerTool({ store, http: { allowPrivate: true } as never })).toThrow(
      /unknown option allowPrivate; the only one is allowedPrivateNetworks/,
    );
    expect(() => createCronTaskManagerTool({ store, http: "all" as never })).toThrow(/http must be an object/);
  });
});
