/**
 * Keeps the window scrolled to the bottom while new content arrives, unless
 * the reader scrolled up to read something.
 *
 * Following ends only when the reader scrolls up (the window's position goes
 * above where this hook last put it), never because content grew: a `scroll`
 * event is delivered a frame late, when more content may already be laid
 * out below, and judging "at the bottom" then would stop following in the
 * middle of a busy turn. Content is followed by size (a `ResizeObserver` on
 * the followed element), so output that grows inside a card, a wrapped line
 * or a late layout is followed as well as a new chat entry.
 */
import { type RefObject, useCallback, useEffect, useLayoutEffect, useRef } from "react";

/** How close to the bottom (px) counts as "at the bottom" when the reader scrolls back down. */
const SLACK_PX = 40;

function bottomTop(): number {
  return Math.max(0, document.documentElement.scrollHeight - window.innerHeight);
}

/** What {@link useFollowBottom} gives the page. */
export interface FollowBottom {
  /** Put on the element whose growth is followed (the chat). */
  ref: RefObject<HTMLElement | null>;
  /** Follows again from now on and scrolls to the bottom (the user sent a message). */
  follow(): void;
}

/**
 * Scrolls to the bottom whenever the followed element's size or `content`
 * (by identity) changes, while the reader has not scrolled up.
 *
 * @example
 * const { ref, follow } = useFollowBottom(state.items);
 * <main ref={ref}>…</main>
 */
export function useFollowBottom(...content: unknown[]): FollowBottom {
  const ref = useRef<HTMLElement | null>(null);
  const following = useRef(true);
  /** Where this hook last scrolled to; a reader's scroll above it ends following. */
  const placed = useRef(0);

  const toBottom = useCallback(() => {
    const top = bottomTop();
    placed.current = top;
    if (Math.abs(window.scrollY - top) > 1) window.scrollTo({ top, behavior: "instant" });
  }, []);

  useEffect(() => {
    const onScroll = () => {
      const y = window.scrollY;
      if (y >= bottomTop() - SLACK_PX) following.current = true;
      else if (y < placed.current - 1) following.current = false;
    };
    window.addEventListener("scroll", onScroll, { passive: true });
    const observer = new ResizeObserver(() => {
      if (following.current) toBottom();
    });
    if (ref.current) observer.observe(ref.current);
    observer.observe(document.documentElement);
    return () => {
      window.removeEventListener("scroll", onScroll);
      observer.disconnect();
    };
  }, [toBottom]);

  // Before paint: the new entry is laid out (reading scrollHeight forces it) and never shows off-screen first.
  // The content is the trigger of the effect, not an input of it.
  useLayoutEffect(() => {
    if (following.current) toBottom();
  }, content);

  const follow = useCallback(() => {
    following.current = true;
    toBottom();
  }, [toBottom]);

  return { ref, follow };
}
