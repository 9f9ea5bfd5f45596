/**
 * Approval through the page. The registry is built once, before any turn, so
 * its `approval.onAsk` cannot know which conversation a call belongs to; the
 * executing host runs each turn inside {@link WebApproval.runInTurn}, and
 * `onAsk` finds that turn's asker through AsyncLocalStorage (which follows
 * the turn's promises into `executeToolCall`). A call asked outside any turn
 * is declined.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type { ApprovalDecision, ApprovalOptions, ApprovalRequest } from "@agent-tools/core";

/** Asks the user of one turn; resolves true to run the call. */
export type TurnApprovalAsker = (request: ApprovalRequest) => Promise<boolean>;

/** The registry's approval options plus the hook the host runs turns in. */
export interface WebApproval {
  /** Pass to `buildBuiltinToolRegistry({ approval })`. */
  readonly approval: ApprovalOptions;
  /** Runs `work` so that `ask` calls inside it reach `asker`. */
  runInTurn<T>(asker: TurnApprovalAsker, work: () => Promise<T>): Promise<T>;
}

/** Options of {@link createWebApproval}. */
export interface WebApprovalOptions {
  /** Decisions by tool name, `server:<id>` or `group:<id>` (see ApprovalOptions). */
  policies?: Readonly<Record<string, ApprovalDecision>>;
  /** For non-read-only tools no rule names; default `ask`. */
  defaultDecision?: ApprovalDecision;
}

/** Tools that change nothing outside the session's own state: never worth a question. */
const TASK_TOOLS = ["TaskCreate", "TaskUpdate", "TaskList"];

/**
 * The web host's approval rules with a real model: read-only tools and the
 * task tools run freely, every other tool asks the page.
 */
export const REAL_MODEL_APPROVAL: WebApprovalOptions = {
  policies: Object.fromEntries(TASK_TOOLS.map((name) => [name, "allow" as const])),
  defaultDecision: "ask",
};

/**
 * The scripted demo's rules: everything runs except `Write`, which asks (the
 * demo word "approve" makes a Write call to show the prompt).
 */
export const DEMO_APPROVAL: WebApprovalOptions = { policies: { Write: "ask" }, defaultDecision: "allow" };

/**
 * Creates the approval bridge of a web host.
 *
 * @example
 * const web = createWebApproval(DEMO_APPROVAL);
 * const registry = await buildBuiltinToolRegistry({ workdir, approval: web.approval });
 * const host = connectExecutingHost({ gatewayUrl, hostToken, registry, model, modelName: "demo", approval: web });
 */
export function createWebApproval(options: WebApprovalOptions = REAL_MODEL_APPROVAL): WebApproval {
  const current = new AsyncLocalStorage<TurnApprovalAsker>();
  return {
    approval: {
      policies: options.policies,
      defaultDecision: options.defaultDecision ?? "ask",
      onAsk: (request) => {
        const asker = current.getStore();
        return asker ? asker(request) : false;
      },
    },
    runInTurn: (asker, work) => current.run(asker, work),
  };
}
