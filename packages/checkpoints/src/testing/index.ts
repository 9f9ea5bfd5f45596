/** Test helpers of @agent-tools/checkpoints (the store contract suite). */
export {};
