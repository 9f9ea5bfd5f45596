/** The message box with the send and stop buttons. Enter sends, Shift+Enter adds a line. */
import { type FormEvent, type KeyboardEvent, useState } from "react";
import { PAGE_TEST_IDS } from "../../protocol/page-test-ids.js";

/** Props of {@link Composer}. */
export interface ComposerProps {
  /** The socket is open and no turn runs. */
  canSend: boolean;
  /** A turn runs: the stop button is enabled. */
  running: boolean;
  socketOpen: boolean;
  /** Returns false when the message could not be sent (the text stays). */
  onSend(text: string): boolean;
  onStop(): void;
}

/** Keeps the draft until it was sent. */
export function Composer({ canSend, running, socketOpen, onSend, onStop }: ComposerProps) {
  const [text, setText] = useState("");
  const send = () => {
    if (!canSend || text.trim() === "") return;
    if (onSend(text)) setText("");
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    send();
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      send();
    }
  };
  return (
    <form className="composer" onSubmit={onSubmit}>
      <textarea
        data-testid={PAGE_TEST_IDS.chatInput}
        value={text}
        rows={2}
        placeholder={running ? "The agent is working…" : "Ask the agent (Enter sends, Shift+Enter adds a line)"}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={onKeyDown}
      />
      <button type="submit" className="send" data-testid={PAGE_TEST_IDS.sendButton} disabled={!canSend || text.trim() === ""}>
        Send
      </button>
      <button type="button" className="stop" data-testid={PAGE_TEST_IDS.stopButton} disabled={!running || !socketOpen} onClick={onStop}>
        Stop
      </button>
    </form>
  );
}
