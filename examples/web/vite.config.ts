/**
 * Builds the chat page of the web example into `dist/page/`, which the
 * gateway serves at `/`. Relative asset paths (`base: "./"`) let the page
 * work under any prefix. The `@agent-tools/source` condition lets the page
 * import the pure display helpers of the CLI example from their TypeScript
 * sources, without building that example first.
 */
import { fileURLToPath } from "node:url";
import react from "@vitejs/plugin-react";
import { defaultClientConditions, defineConfig } from "vite";

const root = fileURLToPath(new URL(".", import.meta.url));

/** The Vite configuration of the chat page. */
export default defineConfig({
  root,
  base: "./",
  plugins: [react()],
  resolve: { conditions: ["@agent-tools/source", ...defaultClientConditions] },
  build: {
    outDir: fileURLToPath(new URL("./dist/page", import.meta.url)),
    emptyOutDir: true,
  },
});
