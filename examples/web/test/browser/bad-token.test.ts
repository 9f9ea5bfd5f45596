/**
 * A page opened with a wrong token: the gateway refuses its WebSocket, so the
 * page never gets the conversation, says it cannot reach the gateway, and
 * cannot send.
 */
import { describe, expect, it } from "vitest";
import WebSocket from "ws";
import { PAGE_TEST_IDS } from "../../src/protocol/page-test-ids.js";
import { BROWSER_TEST_TIMEOUT_MS, useChromium, withExampleSession } from "./harness/browser-suite.js";
import { byTestId, saveScreenshot, shownText, waitForText } from "./harness/chat-page.js";
import { chromiumAvailability } from "./harness/chromium.js";

const availability = chromiumAvailability();
const WRONG_TOKEN = "not-the-gateway-token";

/** The HTTP status the gateway answers a `/page` WebSocket upgrade with, or "open" when it accepts it. */
function upgradeStatus(gatewayUrl: string, token: string): Promise<number | "open"> {
  const url = new URL("/page", gatewayUrl);
  url.protocol = "ws:";
  url.searchParams.set("token", token);
  url.searchParams.set("conversation", "bad-token-check");
  url.searchParams.set("after", "0");
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url);
    socket.once("open", () => {
      socket.close();
      resolve("open");
    });
    socket.once("unexpected-response", (_request, response) => {
      resolve(response.statusCode ?? 0);
      socket.terminate();
    });
    socket.once("error", (error) => reject(error));
  });
}

describe.skipIf(availability.skip)("web example in Chromium: wrong token", { timeout: BROWSER_TEST_TIMEOUT_MS }, () => {
  const browser = useChromium();

  it("shows that the page cannot connect and refuses to send", async () => {
    await withExampleSession(
      browser(),
      "bad-token",
      async (session) => {
        const { page, example } = session;
        // The page tried, was refused, and says so.
        const status = byTestId(page, PAGE_TEST_IDS.hostStatus);
        // From "connecting…" to the refusal: the browser cannot see the 401, so the page names the likely causes.
        await waitForText(status, /cannot reach|unreachable/i, "the host status to say the gateway cannot be reached");
        expect(await status.getAttribute("data-status")).toBe("disconnected");
        const shown = await shownText(status);
        expect(shown).toMatch(/token/i);
        expect(shown).not.toContain(example.workdir);

        // Nothing of the conversation reached the page, and it cannot send.
        expect(session.received.filter((message) => message.type === "welcome")).toEqual([]);
        await byTestId(page, PAGE_TEST_IDS.chatInput).fill("please fix the bug");
        expect(await byTestId(page, PAGE_TEST_IDS.sendButton).isDisabled()).toBe(true);
        await saveScreenshot(page, "bad-token");

        // The gateway refuses the wrong token with 401 and accepts the right one.
        expect(await upgradeStatus(example.gatewayUrl, WRONG_TOKEN)).toBe(401);
        expect(await upgradeStatus(example.gatewayUrl, example.pageToken)).toBe("open");
      },
      {
        pageUrl: (example) => {
          const url = new URL(example.url);
          url.searchParams.set("token", WRONG_TOKEN);
          return url.toString();
        },
        waitForHost: false,
      },
    );
  });
});
