/**
 * @agent-tools/ssh: the SSH adapter of the Workspace port. Files go over
 * SFTP, processes over exec channels of one pinned, authenticated
 * connection (ssh2).
 *
 * @packageDocumentation
 */
export {};
