/** The assistant's text of one model turn, growing while it streams. */
import { PAGE_TEST_IDS } from "../../protocol/page-test-ids.js";
import type { AssistantMessageItem } from "../view-state.js";

/** Props of {@link AssistantMessage}. */
export interface AssistantMessageProps {
  item: AssistantMessageItem;
}

/** One bubble per model turn; `data-done` turns `true` at the turn's `model-end`. */
export function AssistantMessage({ item }: AssistantMessageProps) {
  return (
    <div
      className={`message message-assistant${item.done ? "" : " streaming"}`}
      data-testid={PAGE_TEST_IDS.assistantMessage}
      data-turn={item.turn}
      data-done={item.done}
    >
      <div className="message-text">{item.text}</div>
    </div>
  );
}
