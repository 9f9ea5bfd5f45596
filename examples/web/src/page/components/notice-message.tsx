/** A note in the chat: the host's notices, model errors, a stopped turn. */
import type { NoticeItem } from "../view-state.js";

/** Props of {@link NoticeMessage}. */
export interface NoticeMessageProps {
  item: NoticeItem;
}

/** One line, coloured by level. */
export function NoticeMessage({ item }: NoticeMessageProps) {
  return (
    <div className={`notice notice-${item.level}`} role={item.level === "error" ? "alert" : undefined}>
      {item.message}
    </div>
  );
}
