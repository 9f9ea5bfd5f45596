/**
 * One call of the host's embedder as the memory makes it: aborted by a
 * signal or a time limit even when the embedder ignores its signal (the
 * port asks adapters to honour it; a host's own client may not), so a hung
 * embedder can neither hold a search nor `close()`.
 */
import { ModelClientError } from "@agent-tools/core";
import type { EmbeddingClient } from "@agent-tools/core/embedding";

function abortError(): Error {
  const error = new Error("The embedding call was aborted.");
  error.name = "AbortError";
  return error;
}

/**
 * `embedder.embed(texts)` with a signal that aborts when `signal` does or
 * after `timeoutMs`. Rejects at once with an `AbortError` when `signal`
 * aborts, or with `ModelClientError("network_error")` naming the limit when
 * the time is up, whether or not the embedder stops; its late answer is dropped.
 *
 * @example
 * const [vector] = await embedWithin(embedder, ["where do we eat"], { signal, timeoutMs: 10_000 });
 */
export function embedWithin(
  embedder: EmbeddingClient,
  texts: readonly string[],
  options: { readonly signal?: AbortSignal; readonly timeoutMs: number },
): Promise<Float32Array[]> {
  const { signal, timeoutMs } = options;
  if (signal?.aborted === true) return Promise.reject(abortError());
  const controller = new AbortController();
  return new Promise<Float32Array[]>((resolve, reject) => {
    let settled = false;
    const finish = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      outcome();
    };
    const onAbort = () => {
      controller.abort();
      finish(() => reject(abortError()));
    };
    const timer = setTimeout(() => {
      controller.abort();
      finish(() => reject(new ModelClientError("network_error", `The embedder ${embedder.modelId} did not answer within ${Math.round(timeoutMs / 1000)} s.`)));
    }, timeoutMs);
    timer.unref?.();
    signal?.addEventListener("abort", onAbort, { once: true });
    let call: Promise<Float32Array[]>;
    try {
      call = Promise.resolve(embedder.embed(texts, { signal: controller.signal }));
    } catch (error) {
      call = Promise.reject(error);
    }
    call.then(
      (vectors) => finish(() => resolve(vectors)),
      (error: unknown) => finish(() => reject(error)),
    );
  });
}
