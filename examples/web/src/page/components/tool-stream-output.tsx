/** Output a tool streamed while it ran (`tool-output`), stderr marked. */
import { PAGE_TEST_IDS } from "../../protocol/page-test-ids.js";
import type { OutputChunk } from "../view-state.js";

/** Props of {@link ToolStreamOutput}. */
export interface ToolStreamOutputProps {
  chunks: readonly OutputChunk[];
}

/** Nothing when no output came. */
export function ToolStreamOutput({ chunks }: ToolStreamOutputProps) {
  if (chunks.length === 0) return null;
  return (
    <pre className="tool-output" data-testid={PAGE_TEST_IDS.toolOutput}>
      {chunks.map((chunk, index) => (
        <span key={index} className={`stream-${chunk.stream}`}>
          {chunk.text}
        </span>
      ))}
    </pre>
  );
}
