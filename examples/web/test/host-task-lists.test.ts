import type { ToolEndEvent } from "@agent-tools/example-cli/agent";
import { afterEach, describe, expect, it } from "vitest";
import type { ConversationEvent } from "../src/protocol/messages.js";
import { type WebExample, startWebExample } from "../src/start-web-example.js";
import { TestPage } from "./gateway-test-client.js";

interface TaskDetails {
  taskId?: string;
  tasks: Array<{ id: string; subject: string }>;
}

/** The task lists the turn's TaskCreate calls reported, in order. */
function createdTasks(events: ConversationEvent[]): TaskDetails[] {
  return events
    .filter((event): event is ToolEndEvent => event.type === "tool-end" && event.toolName === "TaskCreate")
    .map((event) => {
      expect(event.isError).toBe(false);
      return event.details as TaskDetails;
    });
}

describe("executing host: task lists", () => {
  let web: WebExample | undefined;
  const pages: TestPage[] = [];

  afterEach(async () => {
    for (const page of pages.splice(0)) await page.close();
    await web?.close();
    web = undefined;
  });

  it("gives each conversation, and each turn of it, a task list of its own", async () => {
    web = await startWebExample();
    const first = await TestPage.connect(web.gatewayUrl, web.pageToken, "tasks-a");
    const second = await TestPage.connect(web.gatewayUrl, web.pageToken, "tasks-b");
    pages.push(first, second);

    const inFirst = createdTasks(await first.runTurn("m1", "fix"));
    expect(inFirst.map((details) => details.taskId)).toEqual(["1", "2", "3"]);

    // Another conversation on the same host, workdir and dataDir starts from an empty list.
    const inSecond = createdTasks(await second.runTurn("m1", "fix"));
    expect(inSecond.map((details) => details.taskId)).toEqual(["1", "2", "3"]);
    expect(inSecond[0]!.tasks).toHaveLength(1);

    // A new turn of the first conversation is a new run: its list starts empty too.
    const again = createdTasks(await first.runTurn("m2", "fix"));
    expect(again.map((details) => details.taskId)).toEqual(["1", "2", "3"]);
    expect(again[0]!.tasks).toHaveLength(1);
  });
});
