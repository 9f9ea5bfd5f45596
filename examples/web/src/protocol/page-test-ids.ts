/**
 * The `data-testid` values of the chat page, shared by the page and its
 * browser tests. Tool cards also carry `data-tool-name`, `data-call-id` and
 * `data-status` (`running` | `done` | `error` | `cancelled`); the turn status
 * carries `data-status` (`idle` | `running` | the last turn's end status).
 */
export const PAGE_TEST_IDS = {
  chatInput: "chat-input",
  sendButton: "send-button",
  stopButton: "stop-button",
  hostStatus: "host-status",
  turnStatus: "turn-status",
  userMessage: "message-user",
  assistantMessage: "message-assistant",
  assistantMarkdown: "assistant-markdown",
  toolCard: "tool-card",
  toolArguments: "tool-arguments",
  toolOutput: "tool-output",
  toolResult: "tool-result",
  toolProgress: "tool-progress",
  editDiff: "edit-diff",
  editStrategy: "edit-strategy",
  taskList: "task-list",
  taskItem: "task-item",
  approvalPrompt: "approval-prompt",
  approveButton: "approve-button",
  denyButton: "deny-button",
} as const;
