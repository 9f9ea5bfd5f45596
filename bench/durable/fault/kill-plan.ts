/**
 * Where the next SIGKILL lands, drawn from a seeded generator so a run can be
 * repeated: during start-up (storage open, migrations, MCP server start), in
 * a call (right after the host announced it: ledger read, claim, the tool,
 * the outcome write, the results.log append), right after a result, or
 * anywhere in the loop.
 */

/** A seeded uniform generator in [0, 1) (mulberry32). */
export interface RandomSource {
  next(): number;
}

/** mulberry32 over a 32-bit seed. */
export function createRandomSource(seed: number): RandomSource {
  let state = seed >>> 0;
  return {
    next() {
      state = (state + 0x6d2b79f5) >>> 0;
      let mixed = state;
      mixed = Math.imul(mixed ^ (mixed >>> 15), mixed | 1);
      mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
      return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
    },
  };
}

/** One planned kill. */
export type KillPlan =
  /** `delayMs` after the process started. */
  | { readonly kind: "startup"; readonly delayMs: number }
  /** `delayMs` after the host printed `start <callId>`. */
  | { readonly kind: "in-call"; readonly callId: string; readonly delayMs: number }
  /** As soon as the host printed `done <callId>`. */
  | { readonly kind: "after-result"; readonly callId: string }
  /** `delayMs` after the host printed `ready`. */
  | { readonly kind: "anywhere"; readonly delayMs: number };

/** What the plan is drawn from. */
export interface KillPlanInput {
  /** The call ids of the script, in order. */
  readonly callIds: readonly string[];
  /** How many calls of the episode have a result already (the next one is the first not done). */
  readonly done: number;
  /** A typical loop duration from `ready` to `finished` (ms), for `anywhere`. */
  readonly loopMs: number;
}

function pick(random: RandomSource, from: number, to: number): number {
  return from + Math.floor(random.next() * (to - from + 1));
}

/** Draws the next kill: 10% start-up, 50% in a call, 25% right after a result, 15% anywhere. */
export function drawKillPlan(random: RandomSource, input: KillPlanInput): KillPlan {
  const last = input.callIds.length - 1;
  // Mostly the next call not done or one of the three after it, so episodes advance.
  const callId = input.callIds[Math.min(last, pick(random, input.done, input.done + 3))] as string;
  const roll = random.next();
  if (roll < 0.1) return { kind: "startup", delayMs: Math.round(random.next() * 3000) };
  if (roll < 0.6) return { kind: "in-call", callId, delayMs: Math.round(random.next() * 60) };
  if (roll < 0.85) return { kind: "after-result", callId };
  return { kind: "anywhere", delayMs: Math.round(random.next() * input.loopMs) };
}
