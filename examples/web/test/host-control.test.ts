import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type Gateway, startGateway } from "../src/gateway/start-gateway.js";
import { type StartedHost, startHost } from "../src/host/start-host.js";
import { APPROVE_DEMO_FILE } from "../src/host/web-demo-model.js";
import type { ApprovalRequestEvent, ApprovalResolvedEvent, ConversationEvent } from "../src/protocol/messages.js";
import { createGatewayTokens } from "../src/gateway/gateway-token.js";
import { type WebExample, startWebExample } from "../src/start-web-example.js";
import { TestPage, waitFor } from "./gateway-test-client.js";

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** The pid the "long" command printed first, from any streamed output or result text. */
function printedPid(events: ConversationEvent[]): number | undefined {
  const text = JSON.stringify(events);
  const match = /pid (\d+)/.exec(text);
  return match ? Number(match[1]) : undefined;
}

const isRequest = (event: ConversationEvent): event is ApprovalRequestEvent => event.type === "approval-request";
const isResolved = (event: ConversationEvent): event is ApprovalResolvedEvent => event.type === "approval-resolved";

describe("executing host: stop, approvals, reconnect", () => {
  let web: WebExample | undefined;
  const closers: Array<() => Promise<void>> = [];

  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close();
    await web?.close();
    web = undefined;
  });

  const open = async (conversation: string) => {
    web ??= await startWebExample();
    const page = await TestPage.connect(web.gatewayUrl, web.pageToken, conversation);
    closers.push(() => page.close());
    return page;
  };

  it('stop during "long" aborts the turn and ends the Bash process tree', async () => {
    const page = await open("stop-1");
    page.send({ type: "user-message", conversationId: "stop-1", messageId: "m1", text: "run something long" });
    const pid = await waitFor(() => printedPid(page.events.map((entry) => entry.event)), "the long command's pid");
    expect(isAlive(pid)).toBe(true);
    await waitFor(() => JSON.stringify(page.events).includes("line 2 of 120"), "two streamed lines");
    page.send({ type: "stop", conversationId: "stop-1" });
    const end = await page.waitForEvent((event) => event.type === "turn-end", "turn-end");
    expect(end).toEqual({ type: "turn-end", messageId: "m1", status: "aborted" });
    await waitFor(() => !isAlive(pid), `process ${pid} to end`);
    // The conversation goes on after a stop.
    const next = await page.runTurn("m2", "hello");
    expect(next.at(-1)).toEqual({ type: "turn-end", messageId: "m2", status: "answered" });
  });

  it('"approve" asks the page; an approved Write runs', async () => {
    const page = await open("approve-1");
    page.send({ type: "user-message", conversationId: "approve-1", messageId: "m1", text: "approve" });
    const request = await page.waitForEvent(isRequest, "approval-request");
    expect(request).toMatchObject({ toolName: "Write", arguments: { path: APPROVE_DEMO_FILE } });
    expect(existsSync(path.join(web!.workdir, APPROVE_DEMO_FILE))).toBe(false);
    page.send({ type: "approval-answer", conversationId: "approve-1", requestId: request.requestId, approved: true });
    await page.waitForEvent((event) => event.type === "turn-end", "turn-end");
    const resolved = page.events.map((entry) => entry.event).filter(isResolved);
    expect(resolved).toEqual([{ type: "approval-resolved", requestId: request.requestId, approved: true, by: "user" }]);
    expect(readFileSync(path.join(web!.workdir, APPROVE_DEMO_FILE), "utf8")).toMatch(/approved/);
    const write = page.events.map((entry) => entry.event).find((event) => event.type === "tool-end" && event.toolName === "Write");
    expect(write).toMatchObject({ isError: false });
  });

  it('"approve" declined: the Write does not run and the model is told', async () => {
    const page = await open("approve-2");
    page.send({ type: "user-message", conversationId: "approve-2", messageId: "m1", text: "approve" });
    const request = await page.waitForEvent(isRequest, "approval-request");
    page.send({ type: "approval-answer", conversationId: "approve-2", requestId: request.requestId, approved: false });
    await page.waitForEvent((event) => event.type === "turn-end", "turn-end");
    const events = page.events.map((entry) => entry.event);
    expect(events.filter(isResolved)).toEqual([{ type: "approval-resolved", requestId: request.requestId, approved: false, by: "user" }]);
    expect(events.find((event) => event.type === "tool-end" && event.toolName === "Write")).toMatchObject({
      isError: true,
      text: expect.stringMatching(/declined/),
    });
    expect(existsSync(path.join(web!.workdir, APPROVE_DEMO_FILE))).toBe(false);
    // A late answer to the resolved request changes nothing.
    page.send({ type: "approval-answer", conversationId: "approve-2", requestId: request.requestId, approved: true });
    const after = await page.runTurn("m2", "hello");
    expect(after.filter(isResolved)).toEqual([]);
  });

  it("stop while an approval is pending cancels it (declined) and ends the turn", async () => {
    const page = await open("approve-3");
    page.send({ type: "user-message", conversationId: "approve-3", messageId: "m1", text: "approve" });
    const request = await page.waitForEvent(isRequest, "approval-request");
    page.send({ type: "stop", conversationId: "approve-3" });
    const resolved = await page.waitForEvent(isResolved, "approval-resolved");
    expect(resolved).toEqual({ type: "approval-resolved", requestId: request.requestId, approved: false, by: "cancelled" });
    expect(await page.waitForEvent((event) => event.type === "turn-end", "turn-end")).toMatchObject({ status: "aborted" });
    expect(existsSync(path.join(web!.workdir, APPROVE_DEMO_FILE))).toBe(false);
  });

  it("reconnects to a restarted gateway and keeps serving", async () => {
    const { pageToken, hostToken } = createGatewayTokens();
    let gateway: Gateway = await startGateway({ pageToken, hostToken });
    const port = gateway.port;
    closers.push(() => gateway.close());
    const host: StartedHost = await startHost({ gatewayUrl: gateway.url, hostToken });
    closers.push(() => host.close());
    await host.connected;
    const before = await TestPage.connect(gateway.url, pageToken, "re-1");
    expect((await before.runTurn("m1", "hello")).at(-1)).toMatchObject({ type: "turn-end", status: "answered" });
    await gateway.close();
    await waitFor(() => before.closed, "the page to see the gateway go");
    gateway = await startGateway({ pageToken, hostToken, port });
    const after = await TestPage.connect(gateway.url, pageToken, "re-1");
    closers.push(() => after.close());
    await waitFor(
      () => after.messages.some((message) => (message.type === "welcome" || message.type === "host-status") && message.host?.model === "scripted demo"),
      "the host to reconnect",
    );
    const events = await after.runTurn("m2", "fix it please");
    expect(events.at(-1)).toMatchObject({ type: "turn-end", status: "answered" });
    expect(readFileSync(path.join(host.workdir, "src/pricing.js"), "utf8")).toContain("(amount * percent) / 100");
  });
});
