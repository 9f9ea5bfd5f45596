/** The chat page: status bar, chat log, pending approvals and the composer. */
import { useConversation } from "../use-conversation.js";
import { useFollowBottom } from "../use-follow-bottom.js";
import { ApprovalPrompt } from "./approval-prompt.js";
import { ChatLog } from "./chat-log.js";
import { Composer } from "./composer.js";
import { StatusBar } from "./status-bar.js";

/** The whole page. */
export function App() {
  const { state, params, sendMessage, stop, answerApproval } = useConversation();
  const running = state.turnStatus === "running";
  const { ref: chatRef, follow } = useFollowBottom(state.items, state.approvals);
  const send = (text: string) => {
    // Whoever sends a message wants to see it and the answer, even after reading further up.
    follow();
    return sendMessage(text);
  };
  return (
    <div className="page">
      <StatusBar state={state} conversationId={params.conversationId} tokenMissing={params.token === ""} />
      <main className="chat" ref={chatRef}>
        <ChatLog items={state.items} />
        {state.approvals.map((approval) => (
          <ApprovalPrompt key={approval.requestId} approval={approval} onAnswer={answerApproval} />
        ))}
      </main>
      {state.gatewayError !== undefined && <div className="gateway-error">Gateway: {state.gatewayError}</div>}
      <Composer canSend={state.socket === "open" && !running} running={running} socketOpen={state.socket === "open"} onSend={send} onStop={stop} />
    </div>
  );
}
