/** The chat entries in order; follows the newest entry while the reader is at the bottom. */
import { useEffect, useRef } from "react";
import type { ChatItem } from "../view-state.js";
import { AssistantMessage } from "./assistant-message.js";
import { NoticeMessage } from "./notice-message.js";
import { ToolCard } from "./tool-card.js";
import { UserMessage } from "./user-message.js";

/** Props of {@link ChatLog}. */
export interface ChatLogProps {
  items: readonly ChatItem[];
}

/** Renders each entry with its component. */
export function ChatLog({ items }: ChatLogProps) {
  const end = useRef<HTMLDivElement>(null);
  const following = useRef(true);
  useEffect(() => {
    const onScroll = () => {
      following.current = window.innerHeight + window.scrollY >= document.documentElement.scrollHeight - 80;
    };
    window.addEventListener("scroll", onScroll, { passive: true });
    return () => window.removeEventListener("scroll", onScroll);
  }, []);
  useEffect(() => {
    if (following.current) end.current?.scrollIntoView({ block: "end" });
  }, [items]);
  return (
    <div className="chat-log">
      {items.map((item) => {
        switch (item.kind) {
          case "user":
            return <UserMessage key={item.key} item={item} />;
          case "assistant":
            return <AssistantMessage key={item.key} item={item} />;
          case "tool":
            return <ToolCard key={item.key} item={item} />;
          case "notice":
            return <NoticeMessage key={item.key} item={item} />;
          default:
            return null;
        }
      })}
      <div ref={end} />
    </div>
  );
}
