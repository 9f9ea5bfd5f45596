import { type IncomingMessage, type Server, createServer, get } from "node:http";
import type { AddressInfo } from "node:net";
import { brotliCompressSync, deflateSync, gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decodedBody } from "./decoded-body.js";

const TEXT = "the same words, every encoding";
const BODIES: Record<string, [string | undefined, Buffer]> = {
  "/plain": [undefined, Buffer.from(TEXT)],
  "/gzip": ["gzip", gzipSync(TEXT)],
  "/x-gzip": [" X-GZIP ", gzipSync(TEXT)],
  "/deflate": ["deflate", deflateSync(TEXT)],
  "/br": ["br", brotliCompressSync(TEXT)],
  "/unknown": ["zstd", Buffer.from("left as sent")],
  "/broken": ["gzip", Buffer.from("not gzip at all")],
};

let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer((request, response) => {
    const [encoding, body] = BODIES[request.url ?? ""] ?? [undefined, Buffer.alloc(0)];
    if (encoding !== undefined) response.setHeader("content-encoding", encoding);
    response.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

function fetchRaw(path: string): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => get(`${base}${path}`, { agent: false }, resolve).on("error", reject));
}

async function bodyText(path: string): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of decodedBody(await fetchRaw(path))) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

describe("decodedBody", () => {
  it.each(["/plain", "/gzip", "/x-gzip", "/deflate", "/br"])("decompresses %s", async (path) => {
    expect(await bodyText(path)).toBe(TEXT);
  });

  it("returns the response itself for an encoding it does not know", async () => {
    const response = await fetchRaw("/unknown");
    expect(decodedBody(response)).toBe(response);
    expect(await bodyText("/unknown")).toBe("left as sent");
  });

  it("fails the read when the body is not what its encoding says", async () => {
    await expect(bodyText("/broken")).rejects.toThrow();
  });

  it("passes an error on the response on to the reader", async () => {
    const response = await fetchRaw("/gzip");
    const stream = decodedBody(response);
    response.destroy(new Error("connection lost"));
    await expect(
      (async () => {
        for await (const _ of stream) {
          // drain
        }
      })(),
    ).rejects.toThrow("connection lost");
  });
});
