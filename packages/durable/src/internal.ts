/** Internals of @agent-tools/durable for the SDK's own packages. */
export {};
