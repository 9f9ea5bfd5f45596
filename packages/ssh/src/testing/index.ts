/**
 * @agent-tools/ssh/testing: a real OpenSSH server for tests
 * (`startTestSshd`), as the SSH workspace's own tests use it.
 *
 * @example
 * import { startTestSshd } from "@agent-tools/ssh/testing";
 * const sshd = await startTestSshd();
 * // connect to sshd.host:sshd.port as sshd.username with sshd.privateKey, pin sshd.hostKeyFingerprint
 * await sshd.stop();
 *
 * @packageDocumentation
 */
export { startTestSshd } from "./sshd-harness.js";
export type { StartTestSshdOptions, TestSshd } from "./sshd-harness.js";
export { TEST_SSH_USER } from "./test-user.js";
export { startTcpProxy } from "./tcp-proxy.js";
export type { TcpProxy } from "./tcp-proxy.js";
export { testSshdGivesPty } from "./pty-probe.js";
