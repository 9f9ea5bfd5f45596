/**
 * `@restatedev/restate-sdk` 1.17 calls `Promise.withResolvers`, which Node
 * has from version 22: on Node 20 every invocation fails with "Promise.withResolvers
 * is not a function" and Restate retries it forever.
 */

/**
 * Defines `Promise.withResolvers` when this Node lacks it (Node 20), as the
 * standard describes it; does nothing where it exists. Call it in the
 * endpoint process before the first invocation (`endpointPort()` of the
 * testing entry calls it).
 *
 * @example
 * ```ts
 * installPromiseWithResolvers();
 * await restate.endpoint().bind(service).listen(9080);
 * ```
 */
export function installPromiseWithResolvers(): void {
  if (typeof (Promise as { withResolvers?: unknown }).withResolvers === "function") return;
  Object.defineProperty(Promise, "withResolvers", {
    configurable: true,
    writable: true,
    value: function withResolvers<T>(this: PromiseConstructor) {
      let resolve!: (value: T | PromiseLike<T>) => void;
      let reject!: (reason?: unknown) => void;
      const promise = new this<T>((yes, no) => {
        resolve = yes;
        reject = no;
      });
      return { promise, resolve, reject };
    },
  });
}
