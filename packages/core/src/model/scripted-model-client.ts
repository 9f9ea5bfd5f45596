import type { ModelClient, ModelFinishReason, ModelRequest, ModelResponse, ModelUsage } from "../ports/model-client.js";
import { raceAbortError as raceAbort, throwIfAborted } from "../abort.js";
import { ModelClientError } from "./model-client-error.js";

/** A tool call in a script: `arguments` may be an object (serialised to JSON) or raw text (kept as is, even if malformed). */
export interface ScriptedToolCall {
  /** Default `call_<turn>_<index>`. */
  id?: string;
  name: string;
  arguments?: string | Record<string, unknown>;
}

/** One scripted assistant turn; every field is optional. */
export interface ScriptedModelResponse {
  text?: string;
  toolCalls?: readonly ScriptedToolCall[];
  /** Default `tool-calls` when there are tool calls, else `stop`. */
  finishReason?: ModelFinishReason;
  usage?: ModelUsage;
  /** Rejects the turn with this error instead of answering. */
  error?: Error;
}

/** A turn: a fixed response, or a function of the request (it may be async, e.g. to wait for an abort). */
export type ScriptedModelStep =
  | string
  | ScriptedModelResponse
  | ((request: ModelRequest, turn: number) => string | ScriptedModelResponse | Promise<string | ScriptedModelResponse>);

/** Options of {@link ScriptedModelClient}. */
export interface ScriptedModelClientOptions {
  /** Turns in order; a string is shorthand for `{ text }`. */
  responses?: readonly ScriptedModelStep[];
  /** Answers every turn past `responses` (or every turn when `responses` is omitted). */
  respond?: (request: ModelRequest, turn: number) => string | ScriptedModelResponse | Promise<string | ScriptedModelResponse>;
  /** Default `scripted`. */
  id?: string;
  /**
   * Size of the text pieces handed to `onTextDelta`, in characters; default 16.
   * The pieces always concatenate to the whole text.
   */
  textDeltaSize?: number;
}

/**
 * A model that answers from a script and records every request: for tests
 * and offline demos. Honours `signal` (rejects with an AbortError) and
 * streams its text through `onTextDelta`.
 *
 * @example
 * const model = new ScriptedModelClient({
 *   responses: [
 *     { toolCalls: [{ name: "TaskList", arguments: {} }] },
 *     "There are no tasks yet.",
 *   ],
 * });
 * const first = await model.generate({ messages: [{ role: "user", content: "Tasks?" }] });
 * model.requests.length; // 1
 */
export class ScriptedModelClient implements ModelClient {
  readonly id: string;
  /** Every request received, in order (messages and tools copied at call time). */
  readonly requests: ModelRequest[] = [];
  readonly #steps: readonly ScriptedModelStep[];
  readonly #respond: ScriptedModelClientOptions["respond"];
  readonly #textDeltaSize: number;

  constructor(options: ScriptedModelClientOptions | readonly ScriptedModelStep[]) {
    const normalised: ScriptedModelClientOptions = Array.isArray(options)
      ? { responses: options as readonly ScriptedModelStep[] }
      : (options as ScriptedModelClientOptions);
    this.id = normalised.id ?? "scripted";
    this.#steps = normalised.responses ?? [];
    this.#respond = normalised.respond;
    this.#textDeltaSize = Math.max(1, Math.floor(normalised.textDeltaSize ?? 16));
  }

  /** How many scripted responses have not been used yet (a `respond` fallback is not counted). */
  get remaining(): number {
    return Math.max(0, this.#steps.length - this.requests.length);
  }

  async generate(request: ModelRequest): Promise<ModelResponse> {
    throwIfAborted(request.signal);
    const turn = this.requests.length;
    this.requests.push({ ...request, messages: [...request.messages], tools: request.tools ? [...request.tools] : undefined });
    const step: ScriptedModelStep | undefined = turn < this.#steps.length ? this.#steps[turn] : this.#respond;
    if (step === undefined) {
      throw new ModelClientError(
        "script_exhausted",
        `ScriptedModelClient ${this.id} was asked for turn ${turn + 1} but was scripted with ${this.#steps.length} response(s).`,
        { clientId: this.id },
      );
    }
    const raw = typeof step === "function" ? await raceAbort(Promise.resolve(step(request, turn)), request.signal) : step;
    throwIfAborted(request.signal);
    const scripted: ScriptedModelResponse = typeof raw === "string" ? { text: raw } : raw;
    if (scripted.error) throw scripted.error;
    const text = scripted.text ?? "";
    if (request.onTextDelta && text !== "") {
      for (let start = 0; start < text.length; start += this.#textDeltaSize) {
        throwIfAborted(request.signal);
        request.onTextDelta(text.slice(start, start + this.#textDeltaSize));
      }
    }
    const toolCalls = (scripted.toolCalls ?? []).map((call, index) => ({
      id: call.id ?? `call_${turn + 1}_${index + 1}`,
      name: call.name,
      arguments: typeof call.arguments === "string" ? call.arguments : JSON.stringify(call.arguments ?? {}),
    }));
    const finishReason: ModelFinishReason = toolCalls.length > 0 ? "tool-calls" : (scripted.finishReason ?? "stop");
    return { text, toolCalls, finishReason, ...(scripted.usage ? { usage: { ...scripted.usage } } : {}) };
  }
}
