/** Maps the finish reasons of OpenAI-style and AI SDK providers onto the port's. */
export function normaliseFinishReason(raw: unknown, hasToolCalls: boolean): "stop" | "tool-calls" | "length" | "content-filter" | "error" | "other" {
  if (hasToolCalls) return "tool-calls";
  switch (raw) {
    case "stop":
    case "end_turn":
    case "stop_sequence":
      return "stop";
    case "tool_calls":
    case "tool-calls":
    case "function_call":
    case "tool_use":
      return "tool-calls";
    case "length":
    case "max_tokens":
      return "length";
    case "content_filter":
    case "content-filter":
      return "content-filter";
    case "error":
      return "error";
    default:
      return "other";
  }
}
