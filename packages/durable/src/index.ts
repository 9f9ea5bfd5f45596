/**
 * @agent-tools/durable: the call ledger of durable tool calls. A registry
 * given a ledger records each call made with
 * `executeToolCall(call, { durable: { runId } })` as `started` before its
 * tool runs and `completed` / `failed` with its result after, so a run that
 * crashed resumes without repeating unsafe effects. Stores: memory
 * (`InMemoryCallLedger`), and SQLite or PostgreSQL through
 * `@agent-tools/storage` (`KyselyCallLedger`, `openCallLedger`). The
 * contract's types live in `@agent-tools/core/durable`; its test suite in
 * `@agent-tools/durable/testing`.
 *
 * @packageDocumentation
 */
export { InMemoryCallLedger } from "./stores/in-memory-call-ledger.js";
export { KyselyCallLedger } from "./stores/kysely-call-ledger.js";
export { openCallLedger } from "./stores/open-call-ledger.js";
