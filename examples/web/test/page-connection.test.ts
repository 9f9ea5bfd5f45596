import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { WebSocket, WebSocketServer } from "ws";
import { pageSocketUrl, randomId, readConnectionParams, urlWithConversation } from "../src/page/connection-params.js";
import { PageConnection, type WebSocketLike, reconnectDelayMs } from "../src/page/page-connection.js";
import type { SocketStatus } from "../src/page/view-state.js";
import type { GatewayToPageMessage, PageCommand } from "../src/protocol/messages.js";

/** A stand-in gateway: a real WebSocket server whose reaction to each connection the test scripts. */
interface FakeGateway {
  url: string;
  connections: { after: number; socket: WebSocket }[];
  commands: PageCommand[];
  close(): Promise<void>;
}

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function startFakeGateway(onConnection: (socket: WebSocket, after: number, index: number) => void): Promise<FakeGateway> {
  const server = new WebSocketServer({ host: "127.0.0.1", port: 0 });
  await new Promise<void>((resolve) => server.once("listening", () => resolve()));
  const gateway: FakeGateway = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/?token=t`,
    connections: [],
    commands: [],
    close: () =>
      new Promise<void>((resolve) => {
        for (const client of server.clients) client.terminate();
        server.close(() => resolve());
      }),
  };
  server.on("connection", (socket, request) => {
    const url = new URL(request.url ?? "/", "http://x");
    expect(url.pathname).toBe("/page");
    expect(url.searchParams.get("token")).toBe("t");
    const after = Number(url.searchParams.get("after"));
    gateway.connections.push({ after, socket });
    socket.on("message", (data) => gateway.commands.push(JSON.parse(String(data)) as PageCommand));
    onConnection(socket, after, gateway.connections.length - 1);
  });
  cleanups.push(() => gateway.close());
  return gateway;
}

function send(socket: WebSocket, message: GatewayToPageMessage): void {
  socket.send(JSON.stringify(message));
}

function welcome(latestSeq: number): GatewayToPageMessage {
  return { type: "welcome", protocol: 1, conversationId: "c1", host: { model: "demo", workdir: "/w" }, latestSeq };
}

function event(seq: number): GatewayToPageMessage {
  return { type: "event", conversationId: "c1", seq, event: { type: "notice", level: "info", message: `event ${seq}` } };
}

function connect(gateway: FakeGateway) {
  const messages: GatewayToPageMessage[] = [];
  const statuses: SocketStatus[] = [];
  const params = { token: "t", conversationId: "c1" };
  const connection = new PageConnection({
    url: (after) => pageSocketUrl(gateway.url, params, after),
    onMessage: (message) => messages.push(message),
    onStatus: (status) => statuses.push(status),
    createSocket: (url) => new WebSocket(url) as unknown as WebSocketLike,
    delayMs: () => 20,
  });
  cleanups.push(() => connection.close());
  connection.start();
  return { connection, messages, statuses };
}

async function waitFor(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const seqs = (messages: GatewayToPageMessage[]) => messages.flatMap((message) => (message.type === "event" ? [message.seq] : []));

describe("PageConnection", () => {
  it("asks for the whole replay first, then reconnects after a drop asking only for what it missed", async () => {
    const gateway = await startFakeGateway((socket, after, index) => {
      if (index === 0) {
        send(socket, welcome(3));
        for (let seq = after + 1; seq <= 3; seq += 1) send(socket, event(seq));
        // The connection drops once the page has the three events.
        setTimeout(() => socket.terminate(), 50);
      } else {
        send(socket, welcome(5));
        for (let seq = after + 1; seq <= 5; seq += 1) send(socket, event(seq));
      }
    });
    const { connection, messages, statuses } = connect(gateway);
    await waitFor(() => seqs(messages).length === 5, "five events");
    expect(gateway.connections.map((entry) => entry.after)).toEqual([0, 3]);
    expect(seqs(messages)).toEqual([1, 2, 3, 4, 5]);
    expect(connection.lastSeq).toBe(5);
    expect(statuses.slice(0, 4)).toEqual(["connecting", "open", "closed", "connecting"]);
  });

  it("starts over from the first event when the gateway's history is behind the page (a restarted gateway)", async () => {
    const gateway = await startFakeGateway((socket, after, index) => {
      if (index === 0) {
        send(socket, welcome(4));
        for (let seq = 1; seq <= 4; seq += 1) send(socket, event(seq));
        setTimeout(() => socket.terminate(), 50);
      } else {
        // The new gateway only has one event.
        send(socket, welcome(1));
        if (after === 0) send(socket, event(1));
      }
    });
    const { connection, messages } = connect(gateway);
    await waitFor(() => gateway.connections.length >= 3 && seqs(messages).length === 5, "the replay from 0");
    expect(gateway.connections.map((entry) => entry.after)).toEqual([0, 4, 0]);
    expect(seqs(messages)).toEqual([1, 2, 3, 4, 1]);
    expect(connection.lastSeq).toBe(1);
  });

  it("sends commands only while open and stops reconnecting once closed", async () => {
    const gateway = await startFakeGateway((socket) => send(socket, welcome(0)));
    const { connection, messages } = connect(gateway);
    expect(connection.send({ type: "stop", conversationId: "c1" })).toBe(false);
    await waitFor(() => messages.length === 1, "the welcome");
    expect(connection.send({ type: "approval-answer", conversationId: "c1", requestId: "r1", approved: true })).toBe(true);
    await waitFor(() => gateway.commands.length === 1, "the command");
    expect(gateway.commands).toEqual([{ type: "approval-answer", conversationId: "c1", requestId: "r1", approved: true }]);
    connection.close();
    expect(connection.send({ type: "stop", conversationId: "c1" })).toBe(false);
    // A control connection is dropped and comes back; by then a closed connection that still reconnected would have too.
    const control = connect(gateway);
    await waitFor(() => gateway.connections.length === 2, "the control connection");
    gateway.connections[1]!.socket.terminate();
    await waitFor(() => control.messages.length === 2, "the control's reconnect");
    expect(gateway.connections.map((entry) => entry.after)).toEqual([0, 0, 0]);
  });

  it("backs off from 250 ms doubling to at most 5 s", () => {
    expect([0, 1, 2, 3, 4, 5, 30].map(reconnectDelayMs)).toEqual([250, 500, 1000, 2000, 4000, 5000, 5000]);
  });
});

describe("connection parameters", () => {
  it("reads the token and conversation from the URL, and generates a valid id when there is none", () => {
    expect(readConnectionParams("http://127.0.0.1:8080/?token=abc&conversation=c-1")).toEqual({ token: "abc", conversationId: "c-1", generated: false });
    const generated = readConnectionParams("http://127.0.0.1:8080/?token=abc&conversation=bad%20id");
    expect(generated.generated).toBe(true);
    expect(generated.conversationId).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(randomId()).not.toBe(randomId());
    expect(urlWithConversation("http://h/?token=abc", "c9")).toBe("http://h/?token=abc&conversation=c9");
  });

  it("builds the /page socket URL on the page's host with ws or wss", () => {
    expect(pageSocketUrl("http://127.0.0.1:8080/index.html?token=x#top", { token: "a b", conversationId: "c1" }, 7)).toBe(
      "ws://127.0.0.1:8080/page?token=a+b&conversation=c1&after=7",
    );
    expect(pageSocketUrl("https://example.org/app/", { token: "t", conversationId: "c1" }, 0)).toBe("wss://example.org/page?token=t&conversation=c1&after=0");
  });
});
