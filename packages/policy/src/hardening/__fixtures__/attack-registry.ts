/**
 * A registry for the policy attacks: core's `createToolRegistry` with the
 * real file tools (tools-fs) and shell tools (tools-shell) on a real process
 * runner, and the permission policy of this package, the way the sdk's
 * `buildBuiltinToolRegistry({ permissions, hooks })` composes them (the sdk
 * itself depends on this package, so a test here cannot import it).
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { type AdditionalRoot, type ApprovalOptions, type ToolBundle, type ToolRegistry, createToolRegistry } from "@agent-tools/core";
import { ExecaProcessRunner } from "@agent-tools/node";
import { createFsToolBundle } from "../../../../tools-fs/src/index.js";
import { createShellToolBundle } from "../../../../tools-shell/src/index.js";
import type { HookSettings } from "../../hooks/hook-settings.js";
import type { LayeredPermissionSettings, PermissionSettings } from "../../rules/permission-settings.js";
import { createPermissionPolicy } from "../../runtime/create-permission-policy.js";

/** Temp directories of one attack file: `make()` gives a fresh workdir and data dir below one root. */
export interface AttackDirs {
  readonly root: string;
  make(): { workdir: string; dataDir: string; outside: string };
  cleanup(): void;
}

/** A temp root (canonical) for one attack file. */
export function attackDirs(prefix: string): AttackDirs {
  const root = realpathSync(mkdtempSync(path.join(os.tmpdir(), prefix)));
  let counter = 0;
  return {
    root,
    make() {
      counter += 1;
      const base = path.join(root, `c${counter}`);
      const workdir = path.join(base, "work");
      const outside = path.join(base, "outside");
      mkdirSync(workdir, { recursive: true });
      mkdirSync(outside, { recursive: true });
      return { workdir, dataDir: path.join(base, "data"), outside };
    },
    cleanup: () => rmSync(root, { recursive: true, force: true }),
  };
}

/** What an attack registry is built with. */
export interface AttackSetup {
  readonly workdir: string;
  readonly dataDir: string;
  readonly permissions?: PermissionSettings | LayeredPermissionSettings;
  readonly hooks?: HookSettings;
  readonly approval?: ApprovalOptions;
  readonly additionalRoots?: readonly AdditionalRoot[];
  /** Bundles added after the file and shell tools (stand-ins of tools of other packages). */
  readonly extraBundles?: readonly ToolBundle[];
}

/** A registry with the real file and shell tools and the permission policy; close it after use. */
export async function attackRegistry(setup: AttackSetup): Promise<ToolRegistry> {
  const runner = new ExecaProcessRunner();
  const policy = await createPermissionPolicy({
    ...(setup.permissions === undefined ? {} : { permissions: setup.permissions }),
    ...(setup.hooks === undefined ? {} : { hooks: setup.hooks }),
  });
  return createToolRegistry({
    workdir: setup.workdir,
    dataDir: setup.dataDir,
    bundles: [createFsToolBundle(), createShellToolBundle(), ...(setup.extraBundles ?? [])],
    ports: { processRunner: runner },
    policy,
    ...(setup.approval === undefined ? {} : { approval: setup.approval }),
    ...(setup.additionalRoots === undefined ? {} : { additionalRoots: setup.additionalRoots }),
    cleanups: [() => runner.close()],
    logger: { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} },
  });
}

/** The text a model reads of a result. */
export const textOf = (result: { content: ReadonlyArray<{ type: string; text?: string }> }): string => result.content.map((block) => block.text ?? "").join("");
