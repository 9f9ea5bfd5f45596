/** `@agent-tools/durable/testing`: the call ledger contract suite. */
export {};
