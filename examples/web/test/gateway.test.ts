import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { type Gateway, startGateway } from "../src/gateway/start-gateway.js";
import { WEB_PROTOCOL_VERSION } from "../src/protocol/messages.js";
import type { ConversationEvent, GatewayToHostMessage } from "../src/protocol/messages.js";
import { TestPage, pageUrl, upgradeOutcome, waitFor } from "./gateway-test-client.js";

const TOKEN = "test-token-0123456789";
const HOST_TOKEN = "host-token-0123456789";

/** A stand-in executing host: a raw `ws` client that sends what the test says and records commands. */
class FakeHost {
  readonly received: GatewayToHostMessage[] = [];
  private constructor(readonly socket: WebSocket) {
    socket.on("message", (data) => this.received.push(JSON.parse(data.toString()) as GatewayToHostMessage));
  }
  static async connect(gateway: Gateway, hello = true): Promise<FakeHost> {
    const socket = new WebSocket(`ws://127.0.0.1:${gateway.port}/host?token=${HOST_TOKEN}`);
    await new Promise<void>((resolve, reject) => {
      socket.once("open", () => resolve());
      socket.once("error", reject);
    });
    const host = new FakeHost(socket);
    if (hello) host.socket.send(JSON.stringify({ type: "host-hello", protocol: WEB_PROTOCOL_VERSION, model: "fake", workdir: "/fake" }));
    return host;
  }
  event(conversationId: string, event: ConversationEvent): void {
    this.socket.send(JSON.stringify({ type: "event", conversationId, event }));
  }
  notice(conversationId: string, index: number): void {
    this.event(conversationId, { type: "notice", level: "info", message: `n${index}` });
  }
  async close(): Promise<void> {
    if (this.socket.readyState === WebSocket.CLOSED) return;
    await new Promise<void>((resolve) => {
      this.socket.once("close", () => resolve());
      this.socket.close();
    });
  }
}

function noticeNumbers(page: TestPage): number[] {
  return page.events.map((entry) => (entry.event.type === "notice" ? Number(entry.event.message.slice(1)) : -1));
}

describe("gateway", () => {
  let gateway: Gateway;
  let pageDir: string;
  const closers: Array<() => Promise<void>> = [];

  beforeEach(async () => {
    pageDir = mkdtempSync(path.join(os.tmpdir(), "web-gateway-page-"));
    gateway = await startGateway({ pageToken: TOKEN, hostToken: HOST_TOKEN, pageDir });
  });
  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close();
    await gateway.close();
    rmSync(pageDir, { recursive: true, force: true });
  });

  const page = async (conversation: string, after?: number) => {
    const opened = await TestPage.connect(gateway.url, TOKEN, conversation, after);
    closers.push(() => opened.close());
    return opened;
  };
  const host = async (hello = true) => {
    const opened = await FakeHost.connect(gateway, hello);
    closers.push(() => opened.close());
    return opened;
  };

  it("refuses upgrades without the right token (401), from another origin (403), or without a valid conversation (400)", async () => {
    const base = `ws://127.0.0.1:${gateway.port}`;
    expect(await upgradeOutcome(pageUrl(gateway.url, undefined, "c1"))).toBe(401);
    expect(await upgradeOutcome(pageUrl(gateway.url, "wrong-token-0123456789", "c1"))).toBe(401);
    expect(await upgradeOutcome(`${base}/host`)).toBe(401);
    expect(await upgradeOutcome(`${base}/host?token=${HOST_TOKEN}x`)).toBe(401);
    // Each token opens its own endpoint only: the page's URL cannot make its holder the host.
    expect(await upgradeOutcome(`${base}/host?token=${TOKEN}`)).toBe(403);
    expect(await upgradeOutcome(pageUrl(gateway.url, HOST_TOKEN, "c1"))).toBe(403);
    expect(await upgradeOutcome(pageUrl(gateway.url, TOKEN, "c1"), { origin: "http://evil.example" })).toBe(403);
    expect(await upgradeOutcome(pageUrl(gateway.url, TOKEN, "c1"), { origin: `http://127.0.0.1:${gateway.port + 1}` })).toBe(403);
    expect(await upgradeOutcome(pageUrl(gateway.url, TOKEN, "bad id!"))).toBe(400);
    expect(await upgradeOutcome(`${base}/other?token=${TOKEN}`)).toBe(404);
    expect(await upgradeOutcome(pageUrl(gateway.url, TOKEN, "c1"), { origin: `http://127.0.0.1:${gateway.port}` })).toBe("open");
    expect(await upgradeOutcome(pageUrl(gateway.url, TOKEN, "c1"), { origin: `http://localhost:${gateway.port}` })).toBe("open");
  });

  it("will not start with one token for both endpoints", async () => {
    await expect(startGateway({ token: TOKEN, pageDir } as never)).rejects.toThrow(/pageToken and hostToken/);
    await expect(startGateway({ pageToken: TOKEN, hostToken: TOKEN, pageDir })).rejects.toThrow(/must differ/);
    await expect(startGateway({ pageToken: TOKEN, hostToken: "short", pageDir })).rejects.toThrow(/hostToken of at least 8 characters/);
  });

  it("welcomes a page, replays what it missed after a reconnect (in order, nothing missing, no duplicates), then streams live", async () => {
    const fake = await host();
    const first = await page("c1");
    expect(first.messages[0]).toMatchObject({ type: "welcome", protocol: WEB_PROTOCOL_VERSION, conversationId: "c1", latestSeq: 0 });
    // The hello may reach the gateway before or after this page: the welcome or a host-status says so.
    await waitFor(
      () => first.messages.some((message) => (message.type === "host-status" || message.type === "welcome") && message.host?.model === "fake"),
      "the host in welcome or host-status",
    );
    for (let index = 1; index <= 5; index += 1) fake.notice("c1", index);
    await waitFor(() => first.events.length === 5, "5 live events");
    await first.close();
    // Events while the page is away, and in another conversation (not for this page).
    for (let index = 6; index <= 9; index += 1) fake.notice("c1", index);
    fake.notice("other", 100);
    const seen = first.events.at(-1)!.seq;
    const again = await page("c1", seen);
    await waitFor(() => again.events.length === 4, "4 replayed events");
    expect(again.messages[0]).toMatchObject({ type: "welcome", host: { model: "fake", workdir: "/fake" } });
    fake.notice("c1", 10);
    await waitFor(() => again.events.length === 5, "a live event after the replay");
    expect(again.events.map((entry) => entry.seq)).toEqual([6, 7, 8, 9, 10]);
    expect(noticeNumbers(again)).toEqual([6, 7, 8, 9, 10]);
    // A fresh page (after=0) gets everything from 1.
    const fresh = await page("c1");
    await waitFor(() => fresh.events.length === 10, "the full replay");
    expect(fresh.events.map((entry) => entry.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(noticeNumbers(fresh)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    const other = await page("other");
    await waitFor(() => other.events.length === 1, "the other conversation's event");
    expect(other.events[0]!.seq).toBe(1);
  });

  it("forwards valid page commands to the host and answers bad ones (or no host) with an error", async () => {
    const alone = await page("c2");
    alone.send({ type: "user-message", conversationId: "c2", messageId: "m1", text: "hi" });
    await waitFor(() => alone.messages.find((message) => message.type === "error" && /No executing host/.test(message.message)), "no-host error");

    const fake = await host();
    await waitFor(() => alone.messages.some((message) => message.type === "host-status" && message.host !== null), "host-status");
    alone.send({ type: "user-message", conversationId: "c2", messageId: "m1", text: "hi" });
    alone.send({ type: "stop", conversationId: "c2" });
    alone.send({ type: "approval-answer", conversationId: "c2", requestId: "r1", approved: true });
    await waitFor(() => fake.received.length === 3, "three forwarded commands");
    expect(fake.received).toEqual([
      { type: "user-message", conversationId: "c2", messageId: "m1", text: "hi" },
      { type: "stop", conversationId: "c2" },
      { type: "approval-answer", conversationId: "c2", requestId: "r1", approved: true },
    ]);

    const errorsBefore = alone.messages.filter((message) => message.type === "error").length;
    alone.socket.send("not json");
    alone.socket.send(JSON.stringify({ type: "rm-rf", conversationId: "c2" }));
    alone.socket.send(JSON.stringify({ type: "user-message", conversationId: "c3", messageId: "m", text: "x" }));
    alone.socket.send(JSON.stringify({ type: "user-message", conversationId: "c2", messageId: "m" }));
    alone.socket.send(JSON.stringify({ type: "approval-answer", conversationId: "c2", requestId: "r1", approved: "yes" }));
    await waitFor(() => alone.messages.filter((message) => message.type === "error").length === errorsBefore + 5, "five errors");
    expect(fake.received).toHaveLength(3);

    await fake.close();
    await waitFor(() => alone.messages.at(-1)?.type === "host-status" && (alone.messages.at(-1) as { host: unknown }).host === null, "host gone");
  });

  it("keeps one host at a time: a second is refused with 409 until the first is gone", async () => {
    const first = await host();
    expect(await upgradeOutcome(`ws://127.0.0.1:${gateway.port}/host?token=${HOST_TOKEN}`)).toBe(409);
    await first.close();
    // The gateway may see the close a moment after the client does: retry until it accepts.
    let outcome: number | "open" = 409;
    const deadline = Date.now() + 30_000;
    while (outcome === 409 && Date.now() < deadline) outcome = await upgradeOutcome(`ws://127.0.0.1:${gateway.port}/host?token=${HOST_TOKEN}`);
    expect(outcome).toBe("open");
  });

  it("bounds each conversation's replay buffer by dropping its oldest turns", async () => {
    await gateway.close();
    gateway = await startGateway({ pageToken: TOKEN, hostToken: HOST_TOKEN, pageDir, replayLimits: { maxEvents: 6 } });
    const fake = await host();
    const turn = (id: string) => {
      fake.event("c4", { type: "turn-start", messageId: id, text: id });
      fake.notice("c4", 0);
      fake.event("c4", { type: "turn-end", messageId: id, status: "answered" });
    };
    const watcher = await page("c4");
    turn("a");
    turn("b");
    turn("c");
    await waitFor(() => watcher.events.length === 9, "nine live events");
    const replay = await page("c4");
    expect(replay.messages[0]).toMatchObject({ type: "welcome", latestSeq: 9, firstSeq: 4 });
    await waitFor(() => replay.events.length === 6, "the two newest turns");
    expect(replay.events.map((entry) => entry.seq)).toEqual([4, 5, 6, 7, 8, 9]);
    expect(replay.events[0]!.event).toEqual({ type: "turn-start", messageId: "b", text: "b" });
  });

  it("forgets the least recently active conversation past maxConversations, never one a page watches", async () => {
    await gateway.close();
    gateway = await startGateway({ pageToken: TOKEN, hostToken: HOST_TOKEN, pageDir, maxConversations: 2 });
    const fake = await host();
    const watched = await page("kept");
    fake.notice("kept", 1);
    fake.notice("old", 2);
    fake.notice("new", 3);
    // Events reach the gateway in order: once "kept" has a second event, all before it were handled.
    fake.notice("kept", 4);
    await waitFor(() => watched.events.length === 2, "the watched conversation's events");
    const old = await page("old");
    const fresh = await page("new");
    expect(old.messages[0]).toMatchObject({ type: "welcome", latestSeq: 0 });
    expect(fresh.messages[0]).toMatchObject({ type: "welcome", latestSeq: 1 });
  });

  it("serves the built page and its assets with content types, and nothing outside the page directory", async () => {
    writeFileSync(path.join(pageDir, "index.html"), "<!doctype html><title>page</title>");
    mkdirSync(path.join(pageDir, "assets"));
    writeFileSync(path.join(pageDir, "assets", "app-123.js"), "console.log(1)");
    const secretDir = mkdtempSync(path.join(os.tmpdir(), "web-gateway-secret-"));
    closers.push(async () => rmSync(secretDir, { recursive: true, force: true }));
    writeFileSync(path.join(secretDir, "secret.txt"), "secret");
    symlinkSync(path.join(secretDir, "secret.txt"), path.join(pageDir, "assets", "link.txt"));
    writeFileSync(path.join(pageDir, ".env"), "TOKEN=1");

    const index = await fetch(`${gateway.url}/?token=${TOKEN}`);
    expect(index.status).toBe(200);
    expect(index.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(await index.text()).toContain("<title>page</title>");
    const script = await fetch(`${gateway.url}/assets/app-123.js`);
    expect(script.status).toBe(200);
    expect(script.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(await script.text()).toBe("console.log(1)");

    const secretName = path.basename(secretDir);
    for (const bad of [`/..%2f${secretName}/secret.txt`, `/%2e%2e/${secretName}/secret.txt`, "/assets/link.txt", "/.env", "/missing.js", "/assets"]) {
      const response = await fetch(`${gateway.url}${bad}`);
      expect([bad, response.status]).toEqual([bad, 404]);
      expect(await response.text()).not.toContain("secret");
    }
    expect((await fetch(`${gateway.url}/`, { method: "POST" })).status).toBe(405);
  });

  it("says how to build the page when it is missing", async () => {
    const response = await fetch(`${gateway.url}/`);
    expect(response.status).toBe(503);
    expect(await response.text()).toMatch(/vite build/);
  });
});
