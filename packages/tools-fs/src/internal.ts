/**
 * Not public API: shared by the @agent-tools packages, may change in any release.
 *
 * The Edit matcher and the ripgrep locator, used by benchmarks and tests of
 * other packages. Hosts import from `@agent-tools/tools-fs`.
 *
 * @packageDocumentation
 */
export { findEditMatches } from "./edit/edit-match.js";
export { locateRipgrep } from "./search/ripgrep.js";
