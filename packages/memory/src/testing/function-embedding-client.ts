/**
 * A test double of the `EmbeddingClient` port: vectors come from a function
 * the caller gives (e.g. one axis per concept), so a test decides which
 * texts are near each other without a model. It keeps the port's contract
 * (one vector per text in order, the declared dimension, finite components,
 * `AbortError` on abort, `[]` for no texts) and records every call.
 */
import type { EmbedOptions, EmbeddingClient } from "@agent-tools/core/embedding";

/** Options of {@link FunctionEmbeddingClient}. */
export interface FunctionEmbeddingClientOptions {
  /** Default `test:function@<dimension>`. */
  readonly modelId?: string;
  readonly dimension: number;
  /** Default 16. */
  readonly maxBatchSize?: number;
  /** The vector of one text (length `dimension`); it need not be unit length. */
  readonly vectorOf: (text: string) => ArrayLike<number>;
  /**
   * Runs before each call answers, with the call's texts and signal: throw to
   * make the call fail, or wait (e.g. on a gate the test opens) to hold it
   * in flight. The call still rejects with `AbortError` when the signal aborts meanwhile.
   */
  readonly beforeEmbed?: (texts: readonly string[], signal: AbortSignal | undefined) => Promise<void> | void;
}

function abortError(): Error {
  const error = new Error("The embedding call was aborted.");
  error.name = "AbortError";
  return error;
}

/** Resolves when `promise` does, rejects with `AbortError` as soon as `signal` aborts. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return promise;
  if (signal.aborted) return Promise.reject(abortError());
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortError());
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}

/**
 * An `EmbeddingClient` whose vectors a function computes; `calls` lists the
 * texts of every call, in order.
 *
 * @example
 * const axes = ["dog", "car"];
 * const embedder = new FunctionEmbeddingClient({ dimension: 2, vectorOf: (text) => axes.map((word) => (text.includes(word) ? 1 : 0)) });
 * await embedder.embed(["a dog"]); // [Float32Array [1, 0]]
 */
export class FunctionEmbeddingClient implements EmbeddingClient {
  readonly modelId: string;
  readonly dimension: number;
  readonly maxBatchSize: number;
  /** The texts of every call, in call order. */
  readonly calls: (readonly string[])[] = [];
  readonly #options: FunctionEmbeddingClientOptions;

  constructor(options: FunctionEmbeddingClientOptions) {
    if (!Number.isInteger(options.dimension) || options.dimension < 1) throw new RangeError(`dimension must be a positive integer, not ${options.dimension}.`);
    this.#options = options;
    this.dimension = options.dimension;
    this.modelId = options.modelId ?? `test:function@${options.dimension}`;
    this.maxBatchSize = options.maxBatchSize ?? 16;
  }

  /** One vector per text, in order (see the port's contract). */
  async embed(texts: readonly string[], options: EmbedOptions = {}): Promise<Float32Array[]> {
    if (options.signal?.aborted === true) throw abortError();
    if (texts.length === 0) return [];
    this.calls.push([...texts]);
    await untilAborted(Promise.resolve(this.#options.beforeEmbed?.(texts, options.signal)), options.signal);
    return texts.map((text) => {
      const values = this.#options.vectorOf(text);
      if (values.length !== this.dimension) throw new RangeError(`vectorOf gave ${values.length} components, not ${this.dimension}.`);
      const vector = Float32Array.from(values);
      if (!vector.every(Number.isFinite)) throw new RangeError("vectorOf gave a component that is not finite.");
      return vector;
    });
  }
}
