/**
 * Geometry of the chat page as a person sees it: where the window is
 * scrolled, where the newest chat entry is, whether anything is wider than
 * the window.
 */
import type { Page } from "playwright-core";

/** The window's scroll position against the page's height, and the newest entry's place in the viewport. */
export interface ScrollGeometry {
  scrollY: number;
  /** `scrollHeight - innerHeight`: the scroll position at the very bottom. */
  bottomY: number;
  innerHeight: number;
  /** The newest chat entry's top and bottom in viewport pixels. */
  lastTop: number;
  lastBottom: number;
  /** The top of the sticky composer in viewport pixels (the visible chat ends there). */
  composerTop: number;
  /** What the newest entry is (`class` attribute). */
  lastClass: string;
}

/** Reads {@link ScrollGeometry} after two animation frames, so late scroll events have been handled. */
export async function readScrollGeometry(page: Page): Promise<ScrollGeometry> {
  return page.evaluate(async () => {
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    const entries = document.querySelectorAll(".chat-log > *");
    const last = entries[entries.length - 1] as HTMLElement;
    const box = last.getBoundingClientRect();
    const composer = document.querySelector(".composer")!.getBoundingClientRect();
    return {
      scrollY: window.scrollY,
      bottomY: document.documentElement.scrollHeight - window.innerHeight,
      innerHeight: window.innerHeight,
      lastTop: box.top,
      lastBottom: box.bottom,
      composerTop: composer.top,
      lastClass: last.className,
    };
  });
}

/** Elements wider than the window, or sticking out on its right (by tag, class and width). */
export async function readOverflow(page: Page): Promise<{ viewport: number; scrollWidth: number; sticking: string[] }> {
  return page.evaluate(() => {
    const viewport = document.documentElement.clientWidth;
    const sticking: string[] = [];
    for (const element of document.querySelectorAll("body *")) {
      const box = element.getBoundingClientRect();
      if (box.width === 0) continue;
      // Inside a box that scrolls on its own, content may be wider: that box is what must fit.
      if (element.parentElement?.closest("pre, .markdown table, .tool-output, .tool-result, .edit-diff")) continue;
      if (box.right > viewport + 0.5 || box.left < -0.5)
        sticking.push(`${element.tagName.toLowerCase()}.${element.className} (${Math.round(box.left)}..${Math.round(box.right)})`);
    }
    return { viewport, scrollWidth: document.documentElement.scrollWidth, sticking };
  });
}
