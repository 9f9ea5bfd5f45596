import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { TestPage, upgradeOutcome, waitFor } from "./gateway-test-client.js";
import { isProcessAlive } from "./browser/harness/processes.js";
import { type StartWebProcess, spawnStartWeb } from "./start-web-process.js";

describe("the start-web command (what npm run web starts)", () => {
  let command: StartWebProcess | undefined;
  const pages: TestPage[] = [];

  afterEach(async () => {
    for (const page of pages.splice(0)) await page.close();
    command?.kill();
    command = undefined;
  });

  it("runs the gateway as a process of its own, the host beside it, a demo turn through both, and Ctrl-C ends both", async () => {
    command = spawnStartWeb(["--port", "0"], { AGENT_TOOLS_WEB_TOKEN: "start-web-test-token", AGENT_TOOLS_WEB_HOST_TOKEN: "start-web-host-token" });
    const { gatewayUrl, token } = await command.opened();
    expect(token).toBe("start-web-test-token");
    // The page's token opens /page only; the host token is never printed.
    expect(command.output()).not.toContain("start-web-host-token");
    expect(await upgradeOutcome(`${gatewayUrl.replace(/^http/, "ws")}/host?token=${token}`)).toBe(403);
    const pids = /Gateway: process (\d+) .*executing host: process (\d+)/.exec(command.output());
    expect(pids).not.toBeNull();
    const gatewayPid = Number(pids![1]);
    expect(Number(pids![2])).toBe(command.child.pid);
    expect(gatewayPid).not.toBe(command.child.pid);
    // The gateway process is the gateway-only mode of the command.
    expect(readFileSync(`/proc/${gatewayPid}/cmdline`, "utf8").split("\0")).toContain("--gateway-only");

    const html = await fetch(`${gatewayUrl}/`).then((response) => response.text());
    expect(html).toContain('<div id="root">');

    const page = await TestPage.connect(gatewayUrl, token, "cmd-1");
    pages.push(page);
    const events = await page.runTurn("m1", "fix it please");
    expect(events.at(-1)).toEqual({ type: "turn-end", messageId: "m1", status: "answered" });
    expect(events.some((event) => event.type === "tool-end" && event.toolName === "Edit" && !event.isError)).toBe(true);

    expect(await command.interrupt()).toBe(0);
    await waitFor(() => !isProcessAlive(gatewayPid), "the gateway process to end");
  });
});
