/** The newest progress of a running tool call, as one line under the card's head. */
import { PAGE_TEST_IDS } from "../../protocol/page-test-ids.js";
import { progressText } from "../details/progress-text.js";

/** Props of {@link ToolProgress}. */
export interface ToolProgressProps {
  /** The `data` of the newest `onUpdate` that carried any. */
  progress: unknown;
}

/** Nothing when the call reported no structured progress. */
export function ToolProgress({ progress }: ToolProgressProps) {
  const text = progressText(progress);
  if (text === undefined) return null;
  return (
    <div className="tool-progress" data-testid={PAGE_TEST_IDS.toolProgress} aria-live="polite">
      {text}
    </div>
  );
}
