/** A request of the host to approve one tool call: the tool, its arguments, approve and deny. */
import { useState } from "react";
import { PAGE_TEST_IDS } from "../../protocol/page-test-ids.js";
import { revealInvisible } from "../details/reveal-invisible.js";
import type { ApprovalView } from "../view-state.js";

/** Props of {@link ApprovalPrompt}. */
export interface ApprovalPromptProps {
  approval: ApprovalView;
  onAnswer(requestId: string, approved: boolean): void;
}

/** Stays until the host's `approval-resolved`; the buttons lock after one answer. */
export function ApprovalPrompt({ approval, onAnswer }: ApprovalPromptProps) {
  const [answered, setAnswered] = useState(false);
  const answer = (approved: boolean) => {
    setAnswered(true);
    onAnswer(approval.requestId, approved);
  };
  return (
    <div
      className="approval-prompt"
      data-testid={PAGE_TEST_IDS.approvalPrompt}
      data-request-id={approval.requestId}
      data-call-id={approval.callId}
      role="alertdialog"
    >
      <div className="approval-title">
        Allow <strong>{revealInvisible(approval.toolName)}</strong>?
      </div>
      {approval.reason && <div className="approval-reason">{revealInvisible(approval.reason)}</div>}
      <pre className="approval-arguments">{revealInvisible(JSON.stringify(approval.arguments, null, 2))}</pre>
      <div className="approval-buttons">
        <button type="button" className="approve" data-testid={PAGE_TEST_IDS.approveButton} disabled={answered} onClick={() => answer(true)}>
          Approve
        </button>
        <button type="button" className="deny" data-testid={PAGE_TEST_IDS.denyButton} disabled={answered} onClick={() => answer(false)}>
          Deny
        </button>
      </div>
    </div>
  );
}
