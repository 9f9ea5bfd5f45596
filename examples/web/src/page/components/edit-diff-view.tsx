/** The body of an Edit card: the change as a line diff and the match strategy Edit used. */
import { PAGE_TEST_IDS } from "../../protocol/page-test-ids.js";
import { editDiffLines, editMatchStrategy } from "../details/edit-diff.js";
import type { ToolCallItem } from "../view-state.js";
import { ToolResultView } from "./tool-result-view.js";

/** Props of {@link EditDiffView}. */
export interface EditDiffViewProps {
  item: ToolCallItem;
}

const MARKS = { add: "+", remove: "-", context: " ", hunk: "" } as const;

/**
 * Removed lines red, added green. A failed Edit changed nothing, so it shows
 * its error and no diff (a diff of the asked change would read as done).
 */
export function EditDiffView({ item }: EditDiffViewProps) {
  if (item.result?.isError) return <ToolResultView toolName={item.toolName} result={item.result} />;
  const lines = editDiffLines(item.arguments, item.result?.details);
  const strategy = item.result && !item.result.isError ? editMatchStrategy(item.result.details) : undefined;
  return (
    <>
      {lines.length > 0 && (
        <pre className="edit-diff" data-testid={PAGE_TEST_IDS.editDiff}>
          {lines.map((line, index) => (
            <div key={index} className={`diff-line diff-${line.kind}`}>
              <span className="diff-mark">{MARKS[line.kind]}</span>
              {line.text}
            </div>
          ))}
        </pre>
      )}
      {strategy && (
        <div className={`edit-strategy strategy-${strategy}`} data-testid={PAGE_TEST_IDS.editStrategy} data-strategy={strategy}>
          match strategy: {strategy}
        </div>
      )}
    </>
  );
}
