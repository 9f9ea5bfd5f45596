/**
 * Keeps the window scrolled to the bottom while new content arrives, unless
 * the reader scrolled up to read something.
 */
import { useEffect, useRef } from "react";

/** How close to the bottom (px) still counts as "at the bottom". */
const SLACK_PX = 120;

function atBottom(): boolean {
  return window.innerHeight + window.scrollY >= document.documentElement.scrollHeight - SLACK_PX;
}

/**
 * Scrolls to the bottom whenever `content` changes (by identity) and the
 * reader was at the bottom before it did.
 *
 * @example
 * useFollowBottom(state.items);
 */
export function useFollowBottom(...content: unknown[]): void {
  const following = useRef(true);
  useEffect(() => {
    const onScroll = () => {
      following.current = atBottom();
    };
    window.addEventListener("scroll", onScroll, { passive: true });
    return () => window.removeEventListener("scroll", onScroll);
  }, []);
  // The content is the trigger of the effect, not an input of it.
  useEffect(() => {
    if (following.current) window.scrollTo({ top: document.documentElement.scrollHeight });
  }, content);
}
