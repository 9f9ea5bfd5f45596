/**
 * Attacks on cron http tasks (issue 29, item 7, cron part), as a model
 * would make them: CronTaskManager through `executeToolCall`, fired by
 * `startBuiltinCronScheduler`, against real HTTP servers on 127.0.0.1 and
 * 127.0.0.2 (the only network on the test machines).
 *
 * http tasks follow the creating registry's network: none when its sandbox
 * has no network; otherwise only public addresses, in every numeric,
 * mapped and redirected form, unless the host allows private networks. A
 * refused request's log says why and shows no body.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildBuiltinToolRegistry } from "../../packages/sdk/src/index.js";
import { cron, directories, lastRunOutput, logsOf, runScheduler, storeLegacyTask, taskIdOf } from "./cron-attack-helpers.js";

describe("cron attacks: http tasks follow the creating registry's network, with an SSRF guard", () => {
  const SECRET = "SECRET-BODY-4f1c";
  const hits: string[] = [];
  let port = 0;
  let redirectPort = 0;
  const secretServer = http.createServer((request, response) => {
    hits.push(`${request.method} ${request.url}`);
    response.end(SECRET);
  });
  // 127.0.0.2: a host the tests allow on purpose, redirecting to the secret one on 127.0.0.1.
  const redirector = http.createServer((request, response) => {
    hits.push(`redirector ${request.url}`);
    if (request.url === "/ok") return void response.end("redirector ok");
    response.statusCode = 302;
    response.setHeader("location", request.url === "/to-decimal" ? `http://2130706433:${port}/via-redirect` : `http://127.0.0.1:${port}/via-redirect`);
    response.end("moved");
  });
  beforeAll(async () => {
    await new Promise<void>((resolve) => secretServer.listen(0, "127.0.0.1", resolve));
    port = (secretServer.address() as AddressInfo).port;
    await new Promise<void>((resolve) => redirector.listen(0, "127.0.0.2", resolve));
    redirectPort = (redirector.address() as AddressInfo).port;
  });
  afterAll(async () => {
    for (const server of [secretServer, redirector]) {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  const forms = () => [
    `http://127.0.0.1:${port}/plain`,
    `http://2130706433:${port}/decimal`,
    `http://0x7f000001:${port}/hex`,
    `http://0177.0.0.1:${port}/octal`,
    `http://127.1:${port}/short`,
    `http://[::ffff:127.0.0.1]:${port}/mapped`,
    `http://localhost:${port}/name`,
    `http://0.0.0.0:${port}/zero`,
  ];

  it("refuses http tasks on a registry whose sandbox has no network, at create and (for a stored task) at run", async () => {
    const { workdir, dataDir } = directories();
    const registry = await buildBuiltinToolRegistry({ workdir, dataDir, cron: {}, sandbox: { enabled: true } });
    try {
      const refused = await cron(registry, {
        action: "create",
        name: "exfil",
        cron: "* * * * * *",
        type: "http",
        requests: [{ url: `http://127.0.0.1:${port}/from-offline`, method: "GET" }],
      });
      expect(refused.isError).toBe(true);
      expect(refused.text).toMatch(/no network/);
    } finally {
      await registry.close();
    }
    hits.length = 0;
    const legacy = await storeLegacyTask(dataDir, { type: "http", requests: [{ id: "req-1", url: `http://127.0.0.1:${port}/legacy`, method: "GET" }] });
    expect(await runScheduler(dataDir, 1)).toEqual([false]);
    expect(hits).toEqual([]);
    const logs = await logsOf(dataDir, workdir, legacy);
    expect(logs).not.toContain(SECRET);
    expect(logs).toMatch(/no record of the roots, sandbox and network/);
  }, 60_000);

  it("refuses every literal loopback form when the task is created, naming the reason", async () => {
    const { workdir, dataDir } = directories();
    const registry = await buildBuiltinToolRegistry({ workdir, dataDir, cron: {} });
    try {
      for (const url of forms().filter((form) => !form.includes("localhost"))) {
        const refused = await cron(registry, { action: "create", name: "ssrf", cron: "* * * * * *", type: "http", requests: [{ url, method: "GET" }] });
        expect(refused.isError, url).toBe(true);
        expect(refused.text).toMatch(/is refused: .* is (a|an) .*, not a public address/);
      }
    } finally {
      await registry.close();
    }
  });

  it("refuses `localhost`, a redirect to loopback and every loopback form at run time: the log says why and holds no body", async () => {
    const { workdir, dataDir } = directories();
    // The redirector is allowed on purpose, so the redirect hop is what gets refused.
    const registry = await buildBuiltinToolRegistry({ workdir, dataDir, cron: { http: { allowedPrivateNetworks: ["127.0.0.2/32"] } } });
    let taskId: string;
    try {
      const requests = [
        { url: `http://localhost:${port}/name`, method: "GET" },
        { url: `http://127.0.0.2:${redirectPort}/to-plain`, method: "GET" },
        { url: `http://127.0.0.2:${redirectPort}/to-decimal`, method: "POST", body: "x" },
      ];
      const created = await cron(registry, { action: "create", name: "ssrf", cron: "* * * * * *", type: "http", requests, remaining_executions: 1 });
      expect(created.isError, created.text).toBe(false);
      taskId = taskIdOf(created.text);
    } finally {
      await registry.close();
    }
    // A task the host stored itself, with a policy that allows no private network: every literal form is checked at run time too.
    const stored = await storeLegacyTask(dataDir, {
      type: "http",
      requests: forms().map((url, index) => ({ id: `req-${index + 1}`, url, method: "GET" })),
      policy: { workspace: workdir, roots: [], allowedPrivateNetworks: [] },
    });
    hits.length = 0;
    expect(await runScheduler(dataDir, 2)).toEqual([false, false]);
    expect(hits.filter((hit) => !hit.startsWith("redirector"))).toEqual([]);
    expect(hits.sort()).toEqual(["redirector /to-decimal", "redirector /to-plain"]);
    // The log shows the first 600 characters of the output: read the whole runs through the store.
    const viaTool = await lastRunOutput(dataDir, taskId);
    expect(viaTool).not.toContain(SECRET);
    expect(viaTool).not.toContain("moved");
    expect(viaTool.match(/-> refused: /g)).toHaveLength(3);
    expect(viaTool).toMatch(/localhost resolves to 127\.0\.0\.1, a loopback address/);
    expect(viaTool).toMatch(/the redirect from .* to http:\/\/127\.0\.0\.1:\d+\/via-redirect was not followed/);
    const literal = await lastRunOutput(dataDir, stored);
    expect(literal).not.toContain(SECRET);
    expect(literal.match(/-> refused: /g)).toHaveLength(forms().length);
    expect(literal).toMatch(/127\.0\.0\.1 is a loopback address/);
    expect(literal).toMatch(/0\.0\.0\.0 is a "this network" address/);
    expect(literal).toMatch(/IPv4-mapped IPv6 address embedding 127\.0\.0\.1 \(loopback\)/);
  }, 60_000);

  it("reaches the same targets when the host allows the private networks on purpose", async () => {
    const { workdir, dataDir } = directories();
    const registry = await buildBuiltinToolRegistry({
      workdir,
      dataDir,
      cron: { http: { allowedPrivateNetworks: ["127.0.0.0/8", "::1/128", "0.0.0.0/32"] } },
    });
    let taskId: string;
    try {
      const requests = [...forms().map((url) => ({ url, method: "GET" })), { url: `http://127.0.0.2:${redirectPort}/to-decimal`, method: "GET" }];
      const created = await cron(registry, { action: "create", name: "allowed", cron: "* * * * * *", type: "http", requests, remaining_executions: 1 });
      expect(created.isError, created.text).toBe(false);
      taskId = taskIdOf(created.text);
    } finally {
      await registry.close();
    }
    hits.length = 0;
    expect(await runScheduler(dataDir, 1)).toEqual([true]);
    expect(hits).toEqual([
      "GET /plain",
      "GET /decimal",
      "GET /hex",
      "GET /octal",
      "GET /short",
      "GET /mapped",
      "GET /name",
      "GET /zero",
      "redirector /to-decimal",
      "GET /via-redirect",
    ]);
    expect(await logsOf(dataDir, workdir, taskId)).toContain("[success]");
  }, 60_000);

  it("refuses a bad allow-list entry when the registry is built", async () => {
    const { workdir, dataDir } = directories();
    await expect(buildBuiltinToolRegistry({ workdir, dataDir, cron: { http: { allowedPrivateNetworks: ["10.0.0.0/33"] } } })).rejects.toThrow(
      /allowedPrivateNetworks.*10\.0\.0\.0\/33/,
    );
    await expect(buildBuiltinToolRegistry({ workdir, dataDir, cron: { http: { allowPrivate: true } as never } })).rejects.toThrow(/allowPrivate/);
  });
});
