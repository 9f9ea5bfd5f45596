/** A chat message of the user, marked while unconfirmed or refused. */
import { PAGE_TEST_IDS } from "../../protocol/page-test-ids.js";
import type { UserMessageItem } from "../view-state.js";

/** Props of {@link UserMessage}. */
export interface UserMessageProps {
  item: UserMessageItem;
}

/** The user's bubble; `data-delivery` is `pending`, `delivered` or `failed`. */
export function UserMessage({ item }: UserMessageProps) {
  return (
    <div
      className={`message message-user delivery-${item.delivery}`}
      data-testid={PAGE_TEST_IDS.userMessage}
      data-message-id={item.messageId}
      data-delivery={item.delivery}
    >
      <div className="message-text">{item.text}</div>
      {item.delivery === "failed" && <div className="message-note">not delivered</div>}
    </div>
  );
}
