import { type Server, type ServerResponse, createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { ToolError } from "@agent-tools/core";
import { afterEach, describe, expect, it } from "vitest";
import { registryContract } from "../ports/__fixtures__/skill-registry-contract.js";
import { sampleItems } from "../ports/__fixtures__/skill-registry-items.js";
import { LocalSkillRegistry } from "../ports/local-skill-registry.js";
import { startSkillRegistryServer } from "../testing/skill-registry-server.js";
import { HttpSkillRegistry, type SkillRegistryFetch } from "./http-skill-registry.js";

registryContract("HttpSkillRegistry over startSkillRegistryServer", async () => {
  const server = await startSkillRegistryServer(new LocalSkillRegistry(sampleItems()));
  return { registry: new HttpSkillRegistry({ baseUrl: `${server.url}/` }), close: () => server.close() };
});

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** A raw server answering every request with `respond`. */
async function rawServer(respond: (response: ServerResponse, url: string) => void): Promise<string> {
  const server: Server = createServer((request, response) => respond(response, request.url ?? ""));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  closers.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function failure(promise: Promise<unknown>): Promise<ToolError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(ToolError);
  return error as ToolError;
}

const search = { query: "pdf", sort: "downloads", limit: 5 } as const;

describe("HttpSkillRegistry", () => {
  it("sends the bearer token; a wrong or missing one is permission_denied with the server's message", async () => {
    const server = await startSkillRegistryServer(new LocalSkillRegistry(sampleItems()), { token: "s3cret" });
    closers.push(() => server.close());
    expect((await new HttpSkillRegistry({ baseUrl: server.url, token: "s3cret" }).search(search)).items).toHaveLength(4);
    for (const token of [undefined, "wrong"]) {
      const error = await failure(new HttpSkillRegistry({ baseUrl: server.url, token }).search(search));
      expect(error.code).toBe("permission_denied");
      expect(error.message).toBe('The skill registry answered 401 to the search for "pdf": A valid bearer token is required.');
      expect(error.details).toEqual({ status: 401 });
    }
  });

  it("uses the injected fetch with the protocol's URLs", async () => {
    const server = await startSkillRegistryServer(new LocalSkillRegistry(sampleItems()));
    closers.push(() => server.close());
    const urls: string[] = [];
    const recording: SkillRegistryFetch = (url, init) => {
      urls.push(url);
      return fetch(url, init);
    };
    const registry = new HttpSkillRegistry({ baseUrl: server.url, fetch: recording });
    await registry.search({ query: "pdf forms", sort: "stars", limit: 2 });
    await registry.download({ slug: "pdf", owner: "acme", version: "1.0.0" });
    await registry.download({ slug: "docx" });
    expect(urls).toEqual([
      `${server.url}/v1/skills?q=pdf+forms&sort=stars&limit=2`,
      `${server.url}/v1/skills/pdf/archive?owner=acme&version=1.0.0`,
      `${server.url}/v1/skills/docx/archive`,
    ]);
  });

  it("refuses a declared body over the cap without reading it", async () => {
    const server = await startSkillRegistryServer(new LocalSkillRegistry(sampleItems()));
    closers.push(() => server.close());
    const error = await failure(new HttpSkillRegistry({ baseUrl: server.url, maxBytes: 50 }).download({ slug: "docx" }));
    expect(error.code).toBe("too_large");
    expect(error.message).toMatch(/larger than 50 bytes/);
  });

  it("stops reading a streamed body past the cap", async () => {
    let written = 0;
    let closed = false;
    const url = await rawServer((response) => {
      response.writeHead(200, { "content-type": "application/zip", "x-skill-version": "1" });
      const timer = setInterval(() => {
        if (response.destroyed || written > 50_000_000) {
          clearInterval(timer);
          closed = response.destroyed;
          response.end();
          return;
        }
        written += 64 * 1024;
        response.write(Buffer.alloc(64 * 1024));
      }, 1);
    });
    const error = await failure(new HttpSkillRegistry({ baseUrl: url, maxBytes: 200_000 }).download({ slug: "big" }));
    expect(error.code).toBe("too_large");
    await expect.poll(() => closed, { timeout: 5_000 }).toBe(true);
    expect(written).toBeLessThan(10_000_000);
  });

  it("maps statuses to codes with the status and the server's message", async () => {
    const answers: Record<string, [number, string]> = {
      "/v1/skills?q=a&sort=downloads&limit=5": [500, JSON.stringify({ error: "database is down" })],
      "/v1/skills?q=b&sort=downloads&limit=5": [429, "slow down"],
      "/v1/skills?q=c&sort=downloads&limit=5": [418, ""],
      "/v1/skills?q=d&sort=downloads&limit=5": [413, JSON.stringify({ message: "too much" })],
      "/v1/skills?q=e&sort=downloads&limit=5": [400, JSON.stringify({ error: "bad cursor" })],
    };
    const url = await rawServer((response, path) => {
      const [status, body] = answers[path] ?? [404, "{}"];
      response.writeHead(status);
      response.end(body);
    });
    const registry = new HttpSkillRegistry({ baseUrl: url });
    const cases: Array<[string, string, string]> = [
      ["a", "unavailable", 'answered 500 to the search for "a": database is down'],
      ["b", "unavailable", 'answered 429 to the search for "b": slow down'],
      ["c", "other", 'answered 418 to the search for "c": I\'m a Teapot'],
      ["d", "too_large", 'answered 413 to the search for "d": too much'],
      ["e", "invalid_arguments", 'answered 400 to the search for "e": bad cursor'],
    ];
    for (const [query, code, message] of cases) {
      const error = await failure(registry.search({ ...search, query }));
      expect([error.code, error.message]).toEqual([code, `The skill registry ${message}`]);
    }
  });

  it("reports invalid answers: a page that is not JSON, a download without its headers", async () => {
    const url = await rawServer((response, path) => {
      response.writeHead(200);
      response.end(path.startsWith("/v1/skills?") ? "<html>" : "PK");
    });
    const registry = new HttpSkillRegistry({ baseUrl: url });
    expect((await failure(registry.search(search))).message).toMatch(/invalid answer to the search for "pdf": the page is not \{ items, nextCursor\? \}/);
    expect((await failure(registry.download({ slug: "x" }))).message).toMatch(/x-skill-version or x-skill-entry header is missing/);
  });

  it("times out a silent server, and tells a caller's abort apart", async () => {
    const url = await rawServer(() => undefined);
    const timedOut = await failure(new HttpSkillRegistry({ baseUrl: url, timeoutMs: 150 }).search(search));
    expect(timedOut.code).toBe("timeout");
    expect(timedOut.message).toMatch(/did not answer the search for "pdf" within 150 ms/);
    const controller = new AbortController();
    const pending = new HttpSkillRegistry({ baseUrl: url }).download({ slug: "pdf", signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    const cancelled = await failure(pending);
    expect(cancelled.code).toBe("cancelled");
  });

  it("is unavailable when nothing listens", async () => {
    const url = await rawServer(() => undefined);
    await closers.pop()?.();
    const error = await failure(new HttpSkillRegistry({ baseUrl: url }).search(search));
    expect(error.code).toBe("unavailable");
    expect(error.message).toMatch(new RegExp(`registry at ${url} could not be reached for the search for "pdf": .*ECONNREFUSED`));
  });
});

describe("startSkillRegistryServer", () => {
  it("answers 400 for a bad sort or limit, 404 for unknown routes, 405 for other methods", async () => {
    const server = await startSkillRegistryServer(new LocalSkillRegistry(sampleItems()));
    closers.push(() => server.close());
    const bad = await fetch(`${server.url}/v1/skills?sort=random`);
    expect([bad.status, await bad.json()]).toEqual([400, { error: "sort must be one of downloads, stars, installs, updated, newest." }]);
    expect((await fetch(`${server.url}/v1/skills?limit=21`)).status).toBe(400);
    expect((await fetch(`${server.url}/v2`)).status).toBe(404);
    expect((await fetch(`${server.url}/v1/skills`, { method: "POST" })).status).toBe(405);
    const conflict = await fetch(`${server.url}/v1/skills/pdf/archive`);
    expect(conflict.status).toBe(409);
    expect(await conflict.json()).toMatchObject({ owners: ["acme", "globex"] });
  });
});
