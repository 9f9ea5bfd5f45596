/**
 * Not public API: shared by the @agent-tools packages, may change in any release.
 *
 * Helpers the workspace packages use among themselves (abort races, message
 * quoting, path containment, git patch paths, the host git environment, the
 * plugin child policies, IP address parsing and the non-public address ranges
 * of the outbound guards). Hosts import from `@agent-tools/core`.
 *
 * @packageDocumentation
 */
export { isModuleNotFoundError } from "./optional-package.js";
export { coerceInputSchema } from "./registry/json-schema.js";
export { quotePatchPath, readPatchPath, stripPatchPrefix } from "./ports/git-patch-paths.js";
export { closestName } from "./registry/closest-name.js";
export { quoteForMessage, shortenForMessage, previewForMessage } from "./quote.js";
export { raceAbortError, abortErrorFor, throwIfAborted } from "./abort.js";
export { isWithin, canonicalizeTarget, tryRealpath } from "./paths/containment.js";
export { GIT_LOCATING_VARIABLES, HOST_GIT_SAFETY_ENVIRONMENT } from "./git/host-git-environment.js";
export { isUtf8, parseBlobBatch, parseRaw, refusedByAdd } from "./git/worktree-git-output.js";
export type { RawChange } from "./git/worktree-git-output.js";
export { TOOL_PLUGIN_CHILD_POLICIES } from "./plugins/tool-plugin.js";
export type { ChildRegistryRequest } from "./plugins/tool-plugin.js";
export { toToolJsonSchema } from "./registry/json-schema.js";
export { resolveApproval } from "./registry/approval-policy.js";
export type { ApprovalVocabulary } from "./registry/approval-validation.js";
export { readCappedBody } from "./read-capped-body.js";
export { resolveToolEffects } from "./registry/durable-effects.js";
export { callIdentityHash } from "./registry/durable-effects.js";
export { StdinPipe, checkStdinOption } from "./ports/stdin-pipe.js";
export type { StdinSink } from "./ports/stdin-pipe.js";
export { formatIpAddress, networkContains, parseIpAddress, parseIpNetwork, parseIpv4, parseIpv6 } from "./net/ip-address.js";
export type { IpAddress, IpNetwork } from "./net/ip-address.js";
export { classifyAddress, mappedIpv4Of } from "./net/address-ranges.js";
export type { NonPublicAddress } from "./net/address-ranges.js";
export { decodedBody } from "./net/decoded-body.js";
export type { HiddenPathData } from "./paths/hidden-path-data.js";
