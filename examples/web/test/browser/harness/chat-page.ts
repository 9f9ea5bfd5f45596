/**
 * What the browser tests read from and do on the chat page, by its
 * `data-testid`s (the page's contract in `src/protocol/page-test-ids.ts`).
 * Every read waits for its condition in the page; no fixed sleeps.
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Locator, Page } from "playwright-core";
import { PAGE_TEST_IDS } from "../../../src/protocol/page-test-ids.js";
import { SCREENSHOTS_DIR } from "./paths.js";
import { waitUntil } from "./wait-until.js";

/** How long a page condition may take on a loaded machine (the demo runs real tests and processes). */
export const PAGE_TIMEOUT_MS = 90_000;

/** One tool card as the page shows it. */
export interface ToolCardView {
  toolName: string;
  callId: string;
  /** `running` | `done` | `error` | `cancelled`. */
  status: string;
  text: string;
}

/** The page element with test id `id` (all of them when there are several). */
export function byTestId(page: Page | Locator, id: (typeof PAGE_TEST_IDS)[keyof typeof PAGE_TEST_IDS]): Locator {
  return page.getByTestId(id);
}

/** Types `text` into the chat input and presses the send button once the page can send. */
export async function sendMessage(page: Page, text: string): Promise<void> {
  const input = byTestId(page, PAGE_TEST_IDS.chatInput);
  await input.waitFor({ state: "visible", timeout: PAGE_TIMEOUT_MS });
  await input.fill(text);
  const send = byTestId(page, PAGE_TEST_IDS.sendButton);
  await waitUntil("the send button to be enabled", () => send.isEnabled(), { timeoutMs: PAGE_TIMEOUT_MS });
  await send.click();
}

/** The tool cards in page order. */
export async function readToolCards(page: Page): Promise<ToolCardView[]> {
  return byTestId(page, PAGE_TEST_IDS.toolCard).evaluateAll((cards) =>
    cards.map((card) => ({
      // biome-ignore lint/performance/useDomNodeTextContent: the tests check the rendered text a person sees (block elements on their own lines)
      text: (card as HTMLElement).innerText,
      toolName: card.getAttribute("data-tool-name") ?? "",
      callId: card.getAttribute("data-call-id") ?? "",
      status: card.getAttribute("data-status") ?? "",
    })),
  );
}

/** The tool card of the call `callId`. */
export function toolCardOf(page: Page, callId: string): Locator {
  return page.locator(`[data-testid="${PAGE_TEST_IDS.toolCard}"][data-call-id="${callId}"]`);
}

/** Waits until a tool card satisfies `predicate` and returns it. */
export async function waitForToolCard(page: Page, description: string, predicate: (card: ToolCardView) => boolean): Promise<ToolCardView> {
  return waitUntil(`a tool card: ${description}`, async () => (await readToolCards(page)).find(predicate), { timeoutMs: PAGE_TIMEOUT_MS });
}

/** The turn status element's `data-status` (`idle`, `running`, or how the last turn ended). */
export async function readTurnStatus(page: Page): Promise<string | null> {
  return byTestId(page, PAGE_TEST_IDS.turnStatus).getAttribute("data-status", { timeout: PAGE_TIMEOUT_MS });
}

/** Waits until the turn status reads one of `statuses`, and returns it. */
export async function waitForTurnStatus(page: Page, ...statuses: string[]): Promise<string> {
  return waitUntil(
    `the turn status to become ${statuses.join(" or ")}`,
    async () => {
      const status = await readTurnStatus(page);
      return status !== null && statuses.includes(status) ? status : undefined;
    },
    { timeoutMs: PAGE_TIMEOUT_MS },
  );
}

/** Waits until the visible text of `locator` (its first match) contains `expected`, and returns that text. */
export async function waitForText(locator: Locator, expected: string | RegExp, description?: string): Promise<string> {
  return waitUntil(
    description ?? `text ${String(expected)}`,
    async () => {
      if ((await locator.count()) === 0) return undefined;
      const text = await shownText(locator.first());
      return (typeof expected === "string" ? text.includes(expected) : expected.test(text)) ? text : undefined;
    },
    { timeoutMs: PAGE_TIMEOUT_MS },
  );
}

/** The text a person sees in `locator` (rendered: block elements on their own lines), not the raw DOM text. */
export async function shownText(locator: Locator): Promise<string> {
  // biome-ignore lint/performance/useDomNodeTextContent: the tests check the rendered text a person sees (block elements on their own lines)
  return locator.innerText();
}

/** One task of a task list: its shown text and `data-status`. */
export interface TaskItemView {
  text: string;
  status: string | null;
}

/** The items of a task list element, in order. */
export async function readTaskItems(taskList: Locator): Promise<TaskItemView[]> {
  return byTestId(taskList, PAGE_TEST_IDS.taskItem).evaluateAll((items) =>
    items.map((item) => ({
      // biome-ignore lint/performance/useDomNodeTextContent: the tests check the rendered text a person sees (block elements on their own lines)
      text: (item as HTMLElement).innerText,
      status: item.getAttribute("data-status"),
    })),
  );
}

/** The visible texts of every element with test id `id`. */
export async function readTexts(page: Page | Locator, id: (typeof PAGE_TEST_IDS)[keyof typeof PAGE_TEST_IDS]): Promise<string[]> {
  return byTestId(page, id).evaluateAll((elements) =>
    elements.map(
      (element) =>
        // biome-ignore lint/performance/useDomNodeTextContent: the tests check the rendered text a person sees (block elements on their own lines)
        (element as HTMLElement).innerText,
    ),
  );
}

/** Saves a full-page screenshot as `test-results/screenshots/<name>.png` and returns its path. */
export async function saveScreenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOTS_DIR, { recursive: true });
  const file = path.join(SCREENSHOTS_DIR, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

/** The tools whose cards show a shell session's output. */
export const SHELL_CARD_TOOLS: readonly string[] = ["Bash", "ProcessWait"];

/**
 * The non-empty lines the shell cards stream (`tool-output` of every Bash and
 * ProcessWait card), in page order: a session's whole output so far, since
 * the Bash card shows its start and each ProcessWait card what followed.
 */
export async function readShellOutputLines(page: Page): Promise<string[]> {
  const texts = await byTestId(page, PAGE_TEST_IDS.toolCard).evaluateAll(
    (cards, { tools, outputId }) =>
      cards
        .filter((card) => tools.includes(card.getAttribute("data-tool-name") ?? ""))
        .flatMap((card) =>
          [...card.querySelectorAll(`[data-testid="${outputId}"]`)].map(
            (output) =>
              // biome-ignore lint/performance/useDomNodeTextContent: the tests check the rendered text a person sees (block elements on their own lines)
              (output as HTMLElement).innerText,
          ),
        ),
    { tools: [...SHELL_CARD_TOOLS], outputId: PAGE_TEST_IDS.toolOutput },
  );
  return texts
    .join("\n")
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "");
}

/** Waits until the shell cards show at least `count` output lines, and returns them. */
export async function waitForShellOutputLines(page: Page, count: number): Promise<string[]> {
  return waitUntil(
    `${count} lines of shell output on the page`,
    async () => {
      const lines = await readShellOutputLines(page);
      return lines.length >= count ? lines : undefined;
    },
    { timeoutMs: PAGE_TIMEOUT_MS },
  );
}
