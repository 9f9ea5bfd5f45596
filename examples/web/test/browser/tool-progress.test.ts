/**
 * Progress of any tool: a host tool (not a built-in) reports structured
 * progress through `onUpdate` while it runs; the executing host forwards it
 * and the page shows it in the running card, then drops it when the call
 * ends. The tool waits for a file the test writes, so the running state is
 * held as long as the test needs it, without timing.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { defineTool } from "@agent-tools/core";
import { ScriptedModelClient } from "@agent-tools/core/testing";
import { buildBuiltinToolRegistry } from "@agent-tools/sdk";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createGatewayToken } from "../../src/gateway/gateway-token.js";
import { startGateway } from "../../src/gateway/start-gateway.js";
import { connectExecutingHost } from "../../src/host/connect-executing-host.js";
import { PAGE_TEST_IDS } from "../../src/protocol/page-test-ids.js";
import { BROWSER_TEST_TIMEOUT_MS, useChromium } from "./harness/browser-suite.js";
import { PAGE_TIMEOUT_MS, byTestId, saveScreenshot, sendMessage, shownText, toolCardOf, waitForTurnStatus } from "./harness/chat-page.js";
import { chromiumAvailability } from "./harness/chromium.js";
import { waitForConnectedHost } from "./harness/example-session.js";
import { PAGE_DIST_DIR } from "./harness/paths.js";
import { waitUntil } from "./harness/wait-until.js";

const availability = chromiumAvailability();

describe.skipIf(availability.skip)("web example in Chromium: progress of a running tool", { timeout: BROWSER_TEST_TIMEOUT_MS }, () => {
  const browser = useChromium();

  it("shows a host tool's onUpdate progress in its running card and drops it when the call ends", async () => {
    const root = mkdtempSync(path.join(os.tmpdir(), "agent-tools-web-progress-"));
    const release = path.join(root, "release");
    const Scan = defineTool({
      name: "Scan",
      description: "Scans files, reporting progress.",
      inputSchema: z.object({}),
      execute: async (_input, context) => {
        context.onUpdate({ data: { message: "scanned 1 files, 0 matches" } });
        context.onUpdate({ data: { message: "scanned 12 files, 3 matches", scanned: 12, matches: 3 } });
        await waitUntil("the test to release the scan", () => existsSync(release) || context.signal.aborted, { timeoutMs: PAGE_TIMEOUT_MS });
        return { content: "scanned 12 files, 3 matches" };
      },
    });
    let calls = 0;
    const model = new ScriptedModelClient({
      id: "progress-test",
      respond: () => {
        calls += 1;
        if (calls === 1) return { text: "Scanning.", toolCalls: [{ id: "scan_1", name: "Scan", arguments: "{}" }], finishReason: "tool-calls" };
        return { text: "Scan done.", toolCalls: [], finishReason: "stop" };
      },
    });
    const pageToken = createGatewayToken();
    const hostToken = createGatewayToken();
    const gateway = await startGateway({ pageToken, hostToken, port: 0, pageDir: PAGE_DIST_DIR });
    const workdir = path.join(root, "work");
    const dataDir = path.join(root, "data");
    mkdirSync(workdir);
    mkdirSync(dataDir);
    const registry = await buildBuiltinToolRegistry({ workdir, dataDir, tools: [Scan] });
    const host = connectExecutingHost({ gatewayUrl: gateway.url, hostToken, registry, model, modelName: "progress test" });
    const context = await browser().newContext({ viewport: { width: 1000, height: 700 } });
    try {
      const page = await context.newPage();
      await page.goto(`${gateway.url}/?token=${encodeURIComponent(pageToken)}`);
      await waitForConnectedHost(page);
      await sendMessage(page, "scan");
      const card = toolCardOf(page, "scan_1");
      const progress = byTestId(card, PAGE_TEST_IDS.toolProgress);
      await expect.poll(() => progress.count(), { timeout: PAGE_TIMEOUT_MS }).toBe(1);
      await expect.poll(() => shownText(progress), { timeout: PAGE_TIMEOUT_MS }).toBe("scanned 12 files, 3 matches");
      expect(await card.getAttribute("data-status")).toBe("running");
      await saveScreenshot(page, "tool-progress-running");
      writeFileSync(release, "");
      expect(await waitForTurnStatus(page, "answered", "aborted", "model-error", "max-turns")).toBe("answered");
      expect(await card.getAttribute("data-status")).toBe("done");
      expect(await progress.count()).toBe(0);
      expect(await shownText(byTestId(card, PAGE_TEST_IDS.toolResult))).toContain("scanned 12 files, 3 matches");
    } finally {
      writeFileSync(release, "");
      await context.close();
      await host.close();
      await registry.close();
      await gateway.close();
      rmSync(root, { recursive: true, force: true });
    }
  });
});
