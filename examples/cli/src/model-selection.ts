/**
 * The configured model: the SDK's OpenAI-compatible client (OpenAI, Ollama,
 * vLLM, llama.cpp, ...) from the flags and environment.
 */
import { OpenAICompatibleModelClient } from "@agent-tools/models";
import type { ModelClient } from "@agent-tools/core";
import type { CliOptions } from "./cli-options.js";

/** The OpenAI API, used when only an API key is given. */
export const DEFAULT_BASE_URL = "https://api.openai.com/v1";

/**
 * Creates the OpenAI-compatible client: `--base-url` / OPENAI_BASE_URL
 * (default the OpenAI API), `--api-key` / OPENAI_API_KEY (optional for local
 * servers), `--model` / OPENAI_MODEL, streaming unless `--no-stream`.
 *
 * @example
 * const model = createConfiguredModelClient(parseCliOptions(["--base-url", "http://localhost:11434/v1", "--model", "qwen2.5-coder"], {}, cwd));
 */
export function createConfiguredModelClient(options: CliOptions): ModelClient {
  return new OpenAICompatibleModelClient({
    baseURL: options.baseUrl ?? DEFAULT_BASE_URL,
    model: options.model,
    apiKey: options.apiKey,
    stream: options.stream,
  });
}
