import { defineConfig } from "vitest/config";

// Workspace packages export a `source` condition pointing at their TypeScript
// sources, so tests run against src/ without a build step.
export default defineConfig({
  resolve: { conditions: ["@agent-tools/source"] },
  ssr: { resolve: { conditions: ["@agent-tools/source"] } },
  test: {
    include: ["packages/*/src/**/*.test.ts", "examples/*/src/**/*.test.ts", "examples/*/test/**/*.test.ts", "tests/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: "forks",
    // Packages that publish a `source` export condition pointing at .ts files
    // (eventsource-parser, imported by the AI SDK and the MCP SDK; eventsource)
    // must go through vite, not Node.
    server: {
      deps: { inline: ["ai", /@ai-sdk\//, "eventsource-parser", "eventsource", /@modelcontextprotocol\/sdk\/dist\/esm\/client\/(sse|streamableHttp)\.js/] },
    },
  },
});
