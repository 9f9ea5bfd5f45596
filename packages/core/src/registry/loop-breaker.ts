/**
 * Counts identical failing calls (same tool, same path argument, same error
 * text) with different call ids, so the executor can tell the model to stop
 * repeating them. Any success resets every count.
 */
export class LoopBreaker {
  private readonly failures = new Map<string, { count: number; lastCallId: string }>();

  /** Records a failure and returns how many times in a row it happened. */
  recordFailure(toolName: string, pathArgument: string | undefined, errorText: string, callId: string): number {
    const key = `${toolName}\u0000${pathArgument ?? ""}\u0000${errorText}`;
    const entry = this.failures.get(key);
    if (!entry) {
      this.failures.set(key, { count: 1, lastCallId: callId });
      return 1;
    }
    if (entry.lastCallId !== callId) {
      entry.count += 1;
      entry.lastCallId = callId;
    }
    return entry.count;
  }

  /** A success resets every count. */
  recordSuccess(): void {
    this.failures.clear();
  }

  /** The sentence appended from the second identical failure on. */
  static message(count: number): string {
    return ` This exact call has now failed ${count} times in a row. Do not retry with the same arguments — apply the correction above, or take a different approach.`;
  }
}
