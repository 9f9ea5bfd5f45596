/**
 * `@agent-tools/restate`: runs agent-tools calls as journaled Restate steps
 * (`ctx.run`) with the registry's call ledger underneath, so a call Restate
 * retries is never run twice when its effects are `unsafe`.
 *
 * @packageDocumentation
 */
export { executeToolCallInRestate } from "./execute-tool-call-in-restate.js";
export type { RestateToolCallOptions } from "./execute-tool-call-in-restate.js";
export { installPromiseWithResolvers } from "./promise-with-resolvers.js";
