/**
 * A host project that installed the sdk but not one of its optional peers,
 * for the tests of what the sdk does without it.
 */
import { cpSync, mkdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";

/** Where the host project is made and what it leaves out. */
export interface HostWithoutPeer {
  /** The sdk package folder (its built `dist` and `package.json` are copied). */
  readonly sdkDir: string;
  /** The host project's folder. */
  readonly app: string;
  /** The optional peer the host did not install (never linked, even when the sdk's manifest lists it). */
  readonly missing: string;
  /** A folder whose `node_modules/@types/node` the host links too (for a type-check of the host). */
  readonly nodeTypesFrom?: string;
}

/**
 * Makes the host project: the built sdk copied into
 * `app/node_modules/@agent-tools/sdk`, every other runtime dependency of its
 * manifest linked next to it, and nothing on the path up from `app` that could
 * resolve `missing`.
 */
export function createHostWithoutPeer(host: HostWithoutPeer): void {
  const { sdkDir, app, missing } = host;
  const manifest = JSON.parse(readFileSync(path.join(sdkDir, "package.json"), "utf8")) as { dependencies?: Record<string, string> };
  const sdkCopy = path.join(app, "node_modules", "@agent-tools", "sdk");
  mkdirSync(sdkCopy, { recursive: true });
  cpSync(path.join(sdkDir, "dist"), path.join(sdkCopy, "dist"), { recursive: true });
  cpSync(path.join(sdkDir, "package.json"), path.join(sdkCopy, "package.json"));
  for (const name of Object.keys(manifest.dependencies ?? {})) {
    if (name === missing) continue;
    const target = path.join(app, "node_modules", name);
    mkdirSync(path.dirname(target), { recursive: true });
    symlinkSync(realpathSync(path.join(sdkDir, "node_modules", name)), target, "dir");
  }
  if (host.nodeTypesFrom !== undefined) {
    mkdirSync(path.join(app, "node_modules", "@types"), { recursive: true });
    symlinkSync(realpathSync(path.join(host.nodeTypesFrom, "node_modules", "@types", "node")), path.join(app, "node_modules", "@types", "node"), "dir");
  }
  const label = missing.replace(/^@agent-tools\//, "");
  writeFileSync(path.join(app, "package.json"), JSON.stringify({ name: `host-without-${label}`, private: true, type: "module" }));
}
