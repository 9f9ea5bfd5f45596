/**
 * One test's world: its own temp workspace, its own web example (gateway,
 * executing host with the scripted demo model, built page) on 127.0.0.1, and
 * its own browser context and page on it.
 */
import type { Browser, BrowserContext, Page } from "playwright-core";
import type { ConversationEvent, GatewayToPageMessage } from "../../../src/protocol/messages.js";
import { startWebExample } from "../../../src/start-web-example.js";
import { PAGE_TEST_IDS } from "../../../src/protocol/page-test-ids.js";
import { PAGE_TIMEOUT_MS } from "./chat-page.js";
import { PAGE_DIST_DIR } from "./paths.js";
import { createSampleWorkspace, type SampleWorkspace } from "./sample-workspace.js";

/** The running example as {@link startWebExample} returns it. */
export type RunningWebExample = Awaited<ReturnType<typeof startWebExample>>;

/** Options of {@link openExampleSession}. */
export interface ExampleSessionOptions {
  /** The URL the page opens; default the example's own `url`. */
  pageUrl?: (example: RunningWebExample) => string;
  /** Wait for the page's host status to show the connected host; default true. */
  waitForHost?: boolean;
}

/** What a test works with; `close()` releases all of it. */
export interface ExampleSession {
  readonly workspace: SampleWorkspace;
  readonly example: RunningWebExample;
  readonly context: BrowserContext;
  readonly page: Page;
  /** Errors the page logged or threw, for failure messages. */
  readonly pageErrors: string[];
  /** Every message the page received from the gateway, over all its sockets (reloads included), in arrival order. */
  readonly received: GatewayToPageMessage[];
  /** Closes the page, the example and deletes the workspace. */
  close(): Promise<void>;
}

/**
 * Starts an example on a fresh sample workspace and opens its page.
 *
 * @example
 * const session = await openExampleSession(browser);
 * try { await sendMessage(session.page, "fix the discount bug"); } finally { await session.close(); }
 */
export async function openExampleSession(browser: Browser, options: ExampleSessionOptions = {}): Promise<ExampleSession> {
  const workspace = createSampleWorkspace();
  let example: RunningWebExample | undefined;
  let context: BrowserContext | undefined;
  try {
    example = await startWebExample({ workdir: workspace.workdir, port: 0, pageDir: PAGE_DIST_DIR });
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    context.setDefaultTimeout(PAGE_TIMEOUT_MS);
    const page = await context.newPage();
    const pageErrors: string[] = [];
    page.on("pageerror", (error) => pageErrors.push(`page error: ${error.message}`));
    page.on("console", (message) => {
      // Failed requests are reported with their URL below.
      if (message.type() === "error" && !message.text().startsWith("Failed to load resource")) pageErrors.push(`console error: ${message.text()}`);
    });
    page.on("response", (response) => {
      if (response.status() >= 400 && new URL(response.url()).pathname !== "/favicon.ico") pageErrors.push(`HTTP ${response.status()} for ${response.url()}`);
    });
    const received: GatewayToPageMessage[] = [];
    page.on("websocket", (socket) => {
      socket.on("framereceived", (frame) => {
        if (typeof frame.payload !== "string") return;
        try {
          received.push(JSON.parse(frame.payload) as GatewayToPageMessage);
        } catch {
          pageErrors.push(`the gateway sent a frame that is not JSON: ${frame.payload.slice(0, 200)}`);
        }
      });
    });
    await page.goto(options.pageUrl ? options.pageUrl(example) : example.url);
    const running = example;
    const browserContext = context;
    const session: ExampleSession = {
      workspace,
      example: running,
      context: browserContext,
      page,
      pageErrors,
      received,
      close: async () => {
        await browserContext.close().catch(() => undefined);
        await running.close();
        workspace.remove();
      },
    };
    if (options.waitForHost !== false) await waitForConnectedHost(page);
    return session;
  } catch (error) {
    await context?.close().catch(() => undefined);
    await example?.close().catch(() => undefined);
    workspace.remove();
    throw error;
  }
}

/** Waits until the page's host status reads `connected` (its socket is open and the executing host attached). */
export async function waitForConnectedHost(page: Page): Promise<void> {
  await page.locator(`[data-testid="${PAGE_TEST_IDS.hostStatus}"][data-status="connected"]`).waitFor({ state: "visible", timeout: PAGE_TIMEOUT_MS });
}

/** The conversation events among the messages a page received, in arrival order (replays included). */
export function conversationEvents(received: readonly GatewayToPageMessage[]): ConversationEvent[] {
  return received.flatMap((message) => (message.type === "event" ? [message.event] : []));
}
