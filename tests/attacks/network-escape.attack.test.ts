/**
 * The sandbox's network-off reaches every tool that opens connections for
 * the model, not only confined commands (issue 29, item 7's class): with
 * `sandbox: { allowNetwork: false }` (the default), HttpGetTest used to fetch
 * from the host's own network stack, so a model that Bash could not let out
 * read a loopback-only service (here a secret on 127.0.0.1) in one call.
 */
import http from "node:http";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toolResultText } from "../../packages/core/src/index.js";
import { buildBuiltinToolRegistry } from "../../packages/sdk/src/index.js";

const temporary = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "agent-tools-network-escape-")));
const SECRET = "loopback-only-secret-4711";
let server: http.Server;
let url = "";
let hits = 0;

beforeAll(async () => {
  server = http.createServer((_request, response) => {
    hits += 1;
    response.end(SECRET);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/admin`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  fs.rmSync(temporary, { recursive: true, force: true });
});

describe("HttpGetTest obeys the sandbox's network setting", () => {
  it("refuses every target when the registry's sandbox has no network (fake sandbox port: the settings are what counts)", async () => {
    const workdir = fs.mkdtempSync(path.join(temporary, "off-"));
    const registry = await buildBuiltinToolRegistry({
      workdir,
      dataDir: fs.mkdtempSync(path.join(temporary, "off-data-")),
      systemTools: ["HttpGetTest"],
      // A sandbox that cannot start still carries the registry's settings: the check must not depend on bubblewrap.
      ports: { sandbox: { requested: true, settings: { allowNetwork: false }, unavailable: "no bubblewrap in this test" } },
    });
    try {
      const before = hits;
      for (const target of [url, url.replace("127.0.0.1", "localhost"), "http://2130706433:1/"]) {
        const result = await registry.executeToolCall({ id: "1", name: "HttpGetTest", arguments: { url: target } });
        expect(result.isError).toBe(true);
        expect(toolResultText(result, "")).not.toContain(SECRET);
        expect(result.details).toMatchObject({ code: "permission_denied" });
      }
      expect(hits).toBe(before);
    } finally {
      await registry.close();
    }
  });

  it("refuses with the real sandbox option at its default (network off), whether or not bubblewrap can start here", async () => {
    const registry = await buildBuiltinToolRegistry({
      workdir: fs.mkdtempSync(path.join(temporary, "real-")),
      dataDir: fs.mkdtempSync(path.join(temporary, "real-data-")),
      systemTools: ["HttpGetTest"],
      sandbox: { enabled: true },
    });
    try {
      const before = hits;
      const result = await registry.executeToolCall({ id: "1", name: "HttpGetTest", arguments: { url } });
      expect(result).toMatchObject({ isError: true, details: { code: "permission_denied", sandboxNetwork: false } });
      expect(hits).toBe(before);
    } finally {
      await registry.close();
    }
  });

  it("still fetches when the sandbox allows the network, and without a sandbox (the control)", async () => {
    for (const ports of [{ sandbox: { requested: true as const, settings: { allowNetwork: true }, unavailable: "no bubblewrap in this test" } }, undefined]) {
      const registry = await buildBuiltinToolRegistry({
        workdir: fs.mkdtempSync(path.join(temporary, "on-")),
        dataDir: fs.mkdtempSync(path.join(temporary, "on-data-")),
        systemTools: ["HttpGetTest"],
        ...(ports === undefined ? {} : { ports }),
      });
      try {
        const result = await registry.executeToolCall({ id: "1", name: "HttpGetTest", arguments: { url } });
        expect(toolResultText(result, "")).toContain(SECRET);
      } finally {
        await registry.close();
      }
    }
  });
});
