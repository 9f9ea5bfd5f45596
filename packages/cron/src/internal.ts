/**
 * Not public API: shared by the @agent-tools packages, may change in any release.
 *
 * The live roots of a task's policy, for the sdk's scheduler. Hosts import from `@agent-tools/cron`.
 *
 * @packageDocumentation
 */
export { liveCronPolicyRoots } from "./runtime/cron-workdir-check.js";
