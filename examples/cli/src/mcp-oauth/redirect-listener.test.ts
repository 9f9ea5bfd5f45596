import net from "node:net";
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { createTerminalOAuthAuthorization, startRedirectListener } from "./redirect-listener.js";

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

function capture() {
  const output = new PassThrough();
  let text = "";
  output.on("data", (chunk) => (text += chunk));
  const until = async (pattern: RegExp) => {
    while (!pattern.test(text)) await new Promise((resolve) => output.once("data", resolve));
  };
  return { output, text: () => text, until };
}

describe("CLI OAuth redirect listener", () => {
  it("prints the sign-in URL, listens on the redirect_uri's port, answers a page and returns the callback URL", async () => {
    const port = await freePort();
    const redirectUri = `http://127.0.0.1:${port}/oauth/callback`;
    const authorizationUrl = `https://auth.example/authorize?client_id=c&redirect_uri=${encodeURIComponent(redirectUri)}&state=s1`;
    const screen = capture();
    const onAuthorization = createTerminalOAuthAuthorization({ output: screen.output });
    const answer = onAuthorization({ serverId: "remote", authorizationUrl, signal: new AbortController().signal });
    await screen.until(/Waiting for the redirect/);
    expect(screen.text()).toContain(authorizationUrl);
    expect((await fetch(`http://127.0.0.1:${port}/elsewhere`)).status).toBe(404);
    const page = await fetch(`${redirectUri}?code=abc&state=s1`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Signed in");
    expect(await answer).toEqual({ callbackUrl: `${redirectUri}?code=abc&state=s1` });
    // The listener is gone once the redirect arrived.
    await expect(fetch(redirectUri)).rejects.toThrow();
  });

  it("fails after the timeout, and when the signal aborts, closing the listener", async () => {
    const port = await freePort();
    const authorizationUrl = `https://auth.example/authorize?redirect_uri=${encodeURIComponent(`http://127.0.0.1:${port}/cb`)}`;
    const screen = capture();
    const timed = createTerminalOAuthAuthorization({ output: screen.output, timeoutMs: 50 });
    await expect(timed({ serverId: "remote", authorizationUrl, signal: new AbortController().signal })).rejects.toThrow(
      /No sign-in redirect for MCP server remote within 0 s/,
    );
    const controller = new AbortController();
    const waiting = createTerminalOAuthAuthorization({ output: screen.output })({ serverId: "remote", authorizationUrl, signal: controller.signal });
    await screen.until(/Waiting for the redirect[\s\S]*Waiting for the redirect/);
    controller.abort();
    await expect(waiting).rejects.toThrow(/was cancelled/);
    await expect(fetch(`http://127.0.0.1:${port}/cb`)).rejects.toThrow();
  });

  it("refuses a redirect URL that is not loopback http, and takes port 0 as any free port", async () => {
    await expect(startRedirectListener("https://example.com/cb")).rejects.toThrow(/not a loopback http URL/);
    const listener = await startRedirectListener("http://127.0.0.1:0/cb");
    expect(listener.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/cb$/);
    expect(listener.url).not.toContain(":0/");
    await listener.close();
  });
});
