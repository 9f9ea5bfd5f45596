/** The assistant's text of one model turn, growing while it streams, rendered as Markdown. */
import { useMemo } from "react";
import { PAGE_TEST_IDS } from "../../protocol/page-test-ids.js";
import { createMarkdownRenderer } from "../details/markdown.js";
import type { AssistantMessageItem } from "../view-state.js";

/** Props of {@link AssistantMessage}. */
export interface AssistantMessageProps {
  item: AssistantMessageItem;
}

/** One bubble per model turn; `data-done` turns `true` at the turn's `model-end`. */
export function AssistantMessage({ item }: AssistantMessageProps) {
  const markdown = useMemo(() => createMarkdownRenderer(window), []);
  // Sanitised by the renderer (markdown-it without HTML, then DOMPurify): see details/markdown.ts.
  const html = useMemo(() => markdown.render(item.text), [markdown, item.text]);
  return (
    <div
      className={`message message-assistant${item.done ? "" : " streaming"}`}
      data-testid={PAGE_TEST_IDS.assistantMessage}
      data-turn={item.turn}
      data-done={item.done}
    >
      <div className="message-text markdown" data-testid={PAGE_TEST_IDS.assistantMarkdown} dangerouslySetInnerHTML={{ __html: html }} />
    </div>
  );
}
