import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createToolRegistry, type ToolRegistry, type ToolResult, toolResultText } from "@agent-tools/core";
import { type FastIo, createFastIo } from "../fast-io/fast-io.js";
import { assembleFsToolBundle, type FsToolBundleOptions } from "../fs-tool-bundle.js";
import { SearchCaches } from "../search/search-caches.js";

/** A temporary workspace with a registry holding only the file tools. */
export interface TestWorkspace {
  dir: string;
  registry: ToolRegistry;
  /** The bundle's hashing worker, buffer pool and WebAssembly instances. */
  fastIo: FastIo;
  /** The bundle's search caches (ignore rules, Grep's text buffer). */
  searchCaches: SearchCaches;
  /** Calls a tool; returns the result with its text joined. */
  call(name: string, args: Record<string, unknown>, options?: { signal?: AbortSignal }): Promise<ToolResult<any> & { text: string }>;
  write(relative: string, content: string | Buffer): string;
  cleanup(): void;
}

let counter = 0;

/** Creates a workspace in os.tmpdir(); `files` are written first. */
export function createTestWorkspace(
  files: Record<string, string | Buffer> = {},
  options: FsToolBundleOptions & { additionalRoots?: Parameters<typeof createToolRegistry>[0]["additionalRoots"]; dir?: string } = {},
): TestWorkspace {
  const dir = options.dir ?? realpathSync(mkdtempSync(path.join(os.tmpdir(), "tools-fs-")));
  const write = (relative: string, content: string | Buffer) => {
    const target = path.join(dir, relative);
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, content);
    return target;
  };
  for (const [relative, content] of Object.entries(files)) write(relative, content);
  const fastIo = createFastIo();
  const searchCaches = new SearchCaches();
  const registry = createToolRegistry({
    workdir: dir,
    dataDir: path.join(dir, ".data-unused"),
    bundles: [assembleFsToolBundle(options, fastIo, searchCaches)],
    additionalRoots: options.additionalRoots,
    loopBreaker: false,
  });
  return {
    dir,
    registry,
    fastIo,
    searchCaches,
    async call(name, args, callOptions) {
      const result = await registry.executeToolCall({ id: `call_${++counter}`, name, arguments: args }, callOptions);
      const text = toolResultText(result);
      return { ...result, text };
    },
    write,
    cleanup() {
      void registry.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
