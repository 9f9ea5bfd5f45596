import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ExecaProcessRunner } from "@agent-tools/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LanguageServerConfig, resolveSdkLanguageServers, typescriptServerConfig } from "./language-server-config.js";
import { createLanguageServerManager } from "./language-server-manager.js";

/**
 * A model-written workspace: a tsconfig naming a plugin, the plugin in its
 * node_modules, and its own node_modules/typescript whose tsserver.js
 * leaves a marker when run. The plugin is also offered as a global plugin
 * with the workspace's node_modules as probe location (what an
 * `initializationOptions.plugins` entry would do): the control case shows
 * stock tsserver loads it from there, so the marker test can fail.
 */
async function plantWorkspace(root: string, markers: { plugin: string; tsserver: string }): Promise<void> {
  await writeFile(join(root, "tsconfig.json"), JSON.stringify({ compilerOptions: { strict: true, plugins: [{ name: "evil-plugin" }] } }));
  await writeFile(join(root, "a.ts"), "export const a: number = 1;\n");
  const plugin = join(root, "node_modules", "evil-plugin");
  await mkdir(plugin, { recursive: true });
  await writeFile(join(plugin, "package.json"), JSON.stringify({ name: "evil-plugin", version: "1.0.0", main: "index.js" }));
  await writeFile(
    join(plugin, "index.js"),
    `require("fs").writeFileSync(${JSON.stringify(markers.plugin)}, "loaded");\nmodule.exports = () => ({ create: (info) => info.languageService });\n`,
  );
  const lib = join(root, "node_modules", "typescript", "lib");
  await mkdir(lib, { recursive: true });
  await writeFile(join(root, "node_modules", "typescript", "package.json"), JSON.stringify({ name: "typescript", version: "5.9.3" }));
  await writeFile(join(lib, "tsserver.js"), `require("fs").writeFileSync(${JSON.stringify(markers.tsserver)}, "ran");\n`);
}

function withGlobalPlugin(config: LanguageServerConfig, root: string): LanguageServerConfig {
  const options = config.initializationOptions as Record<string, unknown>;
  return { ...config, initializationOptions: { ...options, plugins: [{ name: "evil-plugin", location: join(root, "node_modules") }] } };
}

describe("typescript-language-server on a model-written workspace (real)", () => {
  let base: string;
  let runner: ExecaProcessRunner;

  beforeAll(async () => {
    base = await realpath(await mkdtemp(join(tmpdir(), "lsp-ts-security-")));
    runner = new ExecaProcessRunner();
  });

  afterAll(async () => {
    await runner.close();
    await rm(base, { recursive: true, force: true });
  });

  const run = async (name: string, config: LanguageServerConfig) => {
    const root = join(base, name);
    await mkdir(root);
    const markers = { plugin: join(base, `${name}-plugin`), tsserver: join(base, `${name}-tsserver`) };
    await plantWorkspace(root, markers);
    const manager = createLanguageServerManager({
      workspaceRoot: root,
      processes: runner,
      readFile: (path) => readFile(path),
      servers: [withGlobalPlugin(config, root)],
    });
    try {
      const result = await manager.diagnostics(join(root, "a.ts"), { waitMs: 30_000 });
      expect(result.status).toBe("ready");
    } finally {
      await manager.close();
    }
    return { plugin: existsSync(markers.plugin), tsserver: existsSync(markers.tsserver) };
  };

  it("the default config runs neither the workspace's tsserver.js nor any plugin", async () => {
    const config = typescriptServerConfig(resolveSdkLanguageServers());
    expect(await run("pinned", config)).toEqual({ plugin: false, tsserver: false });
  });

  it("control: stock tsserver.js (no entry of ours) loads the plugin, so the marker can appear", async () => {
    const paths = resolveSdkLanguageServers();
    const pinned = typescriptServerConfig(paths);
    const stock = join(paths.typescriptLib as string, "tsserver.js");
    const options = pinned.initializationOptions as Record<string, unknown>;
    const config = { ...pinned, initializationOptions: { ...options, tsserver: { path: stock, fallbackPath: stock, useSyntaxServer: "never" } } };
    expect(await run("stock", config)).toEqual({ plugin: true, tsserver: false });
  });

  it("a TypeScript config without the tsserver entry is refused (no fallback that would run workspace code)", () => {
    const { tsserverEntry: _dropped, ...paths } = resolveSdkLanguageServers();
    expect(() => typescriptServerConfig(paths)).toThrow(/needs tsserverEntry/);
  });

  it("the tsserver entry's package.json version is the SDK's TypeScript version", async () => {
    const paths = resolveSdkLanguageServers();
    const entryVersion = JSON.parse(await readFile(join(paths.tsserverEntry as string, "..", "..", "package.json"), "utf8")).version;
    const typescriptVersion = JSON.parse(await readFile(join(paths.typescriptLib as string, "..", "package.json"), "utf8")).version;
    expect(entryVersion).toBe(typescriptVersion);
  });
});
