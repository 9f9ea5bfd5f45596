/**
 * `WebFetch(domain:...)` deny rules against a model's WebFetch calls
 * (registry `executeToolCall`): other spellings of the denied host (case,
 * trailing dot, userinfo-free forms the URL parser rewrites, IDN) and
 * redirects WebFetch follows on its own as "the same site" (a leading
 * `www.` added or dropped). Only 127.0.0.1 servers behind a stub resolver.
 */
import fs from "node:fs";
import { type IncomingMessage, type ServerResponse, createServer } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { toolResultText } from "@agent-tools/core";
import { buildBuiltinToolRegistry } from "@agent-tools/sdk";
import { afterAll, describe, expect, it } from "vitest";

const temporary = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "attack-webfetch-policy-")));
const closers: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const close of closers.splice(0).reverse()) await close();
  fs.rmSync(temporary, { recursive: true, force: true });
});

/** One server for every name: `www.site.test` serves the secret, the others redirect as `route` says. */
async function serve(route: (request: IncomingMessage, response: ServerResponse, port: number) => void) {
  const hosts: string[] = [];
  const server = createServer((request, response) => {
    hosts.push(String(request.headers.host));
    route(request, response, port);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  closers.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  const port = (server.address() as AddressInfo).port;
  return { port, hosts };
}

let count = 0;
async function registryFor(port: number, deny: string[]) {
  count += 1;
  const names = ["site.test", "www.site.test", "xn--bcher-kva.test", "other.test"];
  const registry = await buildBuiltinToolRegistry({
    workdir: fs.mkdtempSync(path.join(temporary, "w-")),
    dataDir: path.join(temporary, `d${count}`),
    memory: false,
    webFetch: {
      allowHosts: names.map((name) => `${name}:${port}`),
      resolve: async (hostname: string) => {
        if (!names.includes(hostname.replace(/\.$/, ""))) throw Object.assign(new Error("not found"), { code: "ENOTFOUND" });
        return [{ address: "127.0.0.1", family: 4 as const }];
      },
      cache: false,
    },
    permissions: { deny },
    approval: { defaultDecision: "allow" },
  } as never);
  closers.push(() => registry.close());
  return async (url: string) => {
    const result = await registry.executeToolCall({ id: `f${++count}`, name: "WebFetch", arguments: { url } });
    return { isError: result.isError === true, text: toolResultText(result, "") };
  };
}

describe("WebFetch(domain:...) deny", () => {
  it("holds for other spellings of the denied host", async () => {
    const site = await serve((_request, response) => response.end("DENIED-HOST-CONTENT"));
    const fetchUrl = await registryFor(site.port, ["WebFetch(domain:www.site.test)", "WebFetch(domain:xn--bcher-kva.test)"]);
    for (const url of [
      `http://www.site.test:${site.port}/`,
      `http://WWW.SITE.TEST:${site.port}/`,
      `http://www.site.test.:${site.port}/`,
      `http://www.site.test%2E:${site.port}/`,
      `http://www%2Esite.test:${site.port}/`,
      `http://bücher.test:${site.port}/`,
      `http://BÜCHER.test:${site.port}/`,
    ]) {
      const result = await fetchUrl(url);
      expect(result.text, url).not.toContain("DENIED-HOST-CONTENT");
    }
    expect(site.hosts).toEqual([]);
  });

  // Was finding F4: WebFetch followed a redirect to the same host with `www.` added or dropped
  // without asking the permission rules; now only exactly the same host is followed.
  it("holds for a redirect WebFetch follows as the same site (www. added or dropped)", async () => {
    const site = await serve((request, response, port) => {
      const host = String(request.headers.host).replace(/:\d+$/, "");
      if (request.url === "/go") {
        response.writeHead(302, { location: `http://${host === "site.test" ? "www.site.test" : "site.test"}:${port}/secret` });
        response.end();
        return;
      }
      response.end(`CONTENT-OF-${host}`);
    });
    const denyWww = await registryFor(site.port, ["WebFetch(domain:www.site.test)"]);
    const viaBare = await denyWww(`http://site.test:${site.port}/go`);
    const denyBare = await registryFor(site.port, ["WebFetch(domain:site.test)"]);
    const viaWww = await denyBare(`http://www.site.test:${site.port}/go`);
    expect(viaBare.text).not.toContain("CONTENT-OF-www.site.test");
    expect(viaWww.text).not.toContain("CONTENT-OF-site.test");
  });
});
