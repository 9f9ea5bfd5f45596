// Public exports of the git area: list each export by name.
export { GitCliClient, EMPTY_TREE_ID } from "./git-cli-client.js";
export type { GitCliClientOptions } from "./git-cli-client.js";
export { GitClientError } from "./git-client-error.js";
export type { GitClientErrorCode, GitClientErrorData } from "./git-client-error.js";
export type { GitAuthor } from "../ports/git-client.js";
export { RecordingGitClient } from "./recording-git-client.js";
export type { RecordedGitCall } from "./recording-git-client.js";
export { IsomorphicGitClient } from "./isomorphic/isomorphic-git-client.js";
export { createDefaultGitClient, hasExecutableOnPath } from "./default-git-client.js";
