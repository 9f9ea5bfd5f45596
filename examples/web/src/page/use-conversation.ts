/**
 * The React hook that runs the page: reads the connection parameters, keeps
 * the conversation id in the URL, owns the {@link PageConnection} and folds
 * everything into the view state with {@link pageReducer}.
 */
import { useCallback, useEffect, useReducer, useRef, useState } from "react";
import { type ConnectionParams, pageSocketUrl, randomId, readConnectionParams, urlWithConversation } from "./connection-params.js";
import { PageConnection } from "./page-connection.js";
import { pageReducer } from "./page-reducer.js";
import { type ViewState, createInitialViewState } from "./view-state.js";

/** What the components get from {@link useConversation}. */
export interface Conversation {
  state: ViewState;
  params: ConnectionParams;
  /** Sends a chat message; false when the socket is not open. */
  sendMessage(text: string): boolean;
  /** Asks the host to stop the running turn. */
  stop(): void;
  /** Answers an approval prompt. */
  answerApproval(requestId: string, approved: boolean): void;
}

/**
 * Connects this page to its conversation and returns the state and the actions.
 *
 * @example
 * const { state, sendMessage } = useConversation();
 */
export function useConversation(): Conversation {
  const [params] = useState(() => readConnectionParams(window.location.href));
  const [state, dispatch] = useReducer(pageReducer, undefined, createInitialViewState);
  const connection = useRef<PageConnection | undefined>(undefined);

  useEffect(() => {
    // A reload keeps the conversation: its id goes into the URL.
    if (params.generated) window.history.replaceState(window.history.state, "", urlWithConversation(window.location.href, params.conversationId));
  }, [params]);

  useEffect(() => {
    const created = new PageConnection({
      url: (after) => pageSocketUrl(window.location.href, params, after),
      onMessage: (message) => dispatch({ type: "gateway", message }),
      onStatus: (status) => dispatch({ type: "socket", status }),
    });
    connection.current = created;
    created.start();
    return () => {
      created.close();
      if (connection.current === created) connection.current = undefined;
    };
  }, [params]);

  const sendMessage = useCallback(
    (text: string) => {
      const messageId = randomId();
      const sent = connection.current?.send({ type: "user-message", conversationId: params.conversationId, messageId, text }) ?? false;
      if (sent) dispatch({ type: "user-message-sent", messageId, text });
      return sent;
    },
    [params],
  );
  const stop = useCallback(() => {
    connection.current?.send({ type: "stop", conversationId: params.conversationId });
  }, [params]);
  const answerApproval = useCallback(
    (requestId: string, approved: boolean) => {
      connection.current?.send({ type: "approval-answer", conversationId: params.conversationId, requestId, approved });
    },
    [params],
  );
  return { state, params, sendMessage, stop, answerApproval };
}
