import { readFileSync } from "node:fs";
import path from "node:path";
import type { ToolEndEvent, ToolStartEvent } from "@agent-tools/example-cli/agent";
import { afterEach, describe, expect, it } from "vitest";
import type { ConversationEvent } from "../src/protocol/messages.js";
import { type WebExample, startWebExample } from "../src/start-web-example.js";
import { TestPage } from "./gateway-test-client.js";

function toolEvents(events: ConversationEvent[]) {
  return events.filter((event): event is ToolStartEvent | ToolEndEvent => event.type === "tool-start" || event.type === "tool-end");
}

describe("executing host through the gateway (scripted demo model)", () => {
  let web: WebExample | undefined;
  const pages: TestPage[] = [];

  afterEach(async () => {
    for (const page of pages.splice(0)) await page.close();
    await web?.close();
    web = undefined;
  });

  it('runs the "fix" flow: tasks, search, read, an Edit with a diff, the tests as a Bash session followed by ProcessWait', async () => {
    web = await startWebExample();
    const page = await TestPage.connect(web.gatewayUrl, web.pageToken, "fix-1");
    pages.push(page);
    const welcome = page.messages[0];
    expect(welcome).toMatchObject({ type: "welcome", conversationId: "fix-1", host: { model: "scripted demo", workdir: web.workdir }, latestSeq: 0 });

    const events = await page.runTurn("m1", "Please fix the discount bug");
    expect(events[0]).toEqual({ type: "turn-start", messageId: "m1", text: "Please fix the discount bug" });
    expect(events.at(-1)).toEqual({ type: "turn-end", messageId: "m1", status: "answered" });
    expect(events.some((event) => event.type === "model-text-delta")).toBe(true);

    const tools = toolEvents(events);
    const order = tools.filter((event) => event.type === "tool-start").map((event) => event.toolName);
    const firstIndex = (name: string) => order.indexOf(name);
    for (const name of ["TaskCreate", "Glob", "Grep", "Read", "Edit", "Bash", "ProcessWait"]) expect(order).toContain(name);
    expect(firstIndex("TaskCreate")).toBeLessThan(firstIndex("Read"));
    expect(firstIndex("Read")).toBeLessThan(firstIndex("Edit"));
    expect(firstIndex("Edit")).toBeLessThan(firstIndex("Bash"));
    expect(firstIndex("Bash")).toBeLessThan(firstIndex("ProcessWait"));
    // Every start has its end, none failed.
    const ends = tools.filter((event): event is ToolEndEvent => event.type === "tool-end");
    expect(ends.map((event) => event.callId).sort()).toEqual(
      tools
        .filter((event) => event.type === "tool-start")
        .map((event) => event.callId)
        .sort(),
    );
    expect(ends.filter((event) => event.isError)).toEqual([]);

    const edit = ends.find((event) => event.toolName === "Edit")!;
    const details = edit.details as Record<string, unknown>;
    expect(JSON.stringify(details)).toMatch(/line[-_ ]?endings/i);
    expect(JSON.stringify(details)).toContain("amount * percent");
    const bash = ends.find((event) => event.toolName === "Bash")!;
    expect(bash.text).toMatch(/session_id/);
    const lastWait = ends.filter((event) => event.toolName === "ProcessWait").at(-1)!;
    expect(lastWait.text).toMatch(/completed/);

    const fixed = readFileSync(path.join(web.workdir, "src/pricing.js"), "utf8");
    expect(fixed).toContain("amount - (amount * percent) / 100");
    expect(fixed).toContain("\r\n");

    // Numbered from 1 without gaps.
    expect(page.events.map((entry) => entry.seq)).toEqual(page.events.map((_, index) => index + 1));
  });

  it("continues the conversation: the second turn's model request carries the first turn", async () => {
    web = await startWebExample();
    const page = await TestPage.connect(web.gatewayUrl, web.pageToken, "chat-1");
    pages.push(page);
    const first = await page.runTurn("m1", "hello");
    const answer = first.find((event) => event.type === "model-end");
    expect(answer).toMatchObject({ type: "model-end", text: expect.stringContaining('"fix"') });
    const second = await page.runTurn("m2", "and again");
    expect(second.at(-1)).toEqual({ type: "turn-end", messageId: "m2", status: "answered" });
  });

  it("answers a message sent while a turn runs with a warning notice, not a second turn", async () => {
    web = await startWebExample();
    const page = await TestPage.connect(web.gatewayUrl, web.pageToken, "busy-1");
    pages.push(page);
    page.send({ type: "user-message", conversationId: "busy-1", messageId: "m1", text: "long" });
    await page.waitForEvent((event) => event.type === "tool-start" && event.toolName === "Bash", "the long Bash call");
    page.send({ type: "user-message", conversationId: "busy-1", messageId: "m2", text: "hello" });
    await page.waitForEvent((event) => event.type === "notice" && event.level === "warning", "the busy notice");
    page.send({ type: "stop", conversationId: "busy-1" });
    await page.waitForEvent((event) => event.type === "turn-end", "turn-end");
    expect(page.events.filter((entry) => entry.event.type === "turn-start")).toHaveLength(1);
  });
});
