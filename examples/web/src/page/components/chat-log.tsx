/** The chat entries in order. */
import { useMemo } from "react";
import { SHELL_TOOL_NAMES, shellView } from "@agent-tools/example-cli/display/shell-view";
import { latestSessionStates } from "../details/shell-sessions.js";
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
  const sessions = useMemo(() => latestSessionStates(items), [items]);
  return (
    <div className="chat-log">
      {items.length === 0 && <div className="chat-empty">No messages yet: ask the agent something below.</div>}
      {items.map((item) => {
        switch (item.kind) {
          case "user":
            return <UserMessage key={item.key} item={item} />;
          case "assistant":
            return <AssistantMessage key={item.key} item={item} />;
          case "tool":
            return <ToolCard key={item.key} item={item} latestSession={sessionOf(item, sessions)} />;
          case "notice":
            return <NoticeMessage key={item.key} item={item} />;
          default:
            return null;
        }
      })}
    </div>
  );
}

function sessionOf(item: ChatItem & { kind: "tool" }, sessions: ReturnType<typeof latestSessionStates>) {
  if (!item.result || !SHELL_TOOL_NAMES.includes(item.toolName)) return undefined;
  const id = shellView(item.result.details)?.sessionId;
  return id === undefined ? undefined : sessions.get(id);
}
