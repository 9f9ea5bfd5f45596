/**
 * The architecture rules of docs/architecture.md as checks over a scanned
 * workspace: no import circles (between packages, and between the modules
 * of one package), no upward arrows between the layers, and no
 * `child_process` outside the process and git adapters.
 */
import { resolveRelative, type WorkspacePackage, workspacePackageOf } from "./workspace-scan.js";

/**
 * The layers, lowest first. A package may import packages of lower layers
 * only (composers may import each other, without a circle).
 */
export const LAYERS: Readonly<Record<string, number>> = {
  // The contracts.
  core: 0,
  // The file layer: core only.
  "file-io": 1,
  // Adapters: core (node also file-io, for its local workspace).
  node: 2,
  git: 2,
  storage: 2,
  models: 2,
  // The offline embedder (word vectors from a data package): core only.
  "word-vectors": 2,
  // The SSH workspace adapter (and SSHManager, its chat tool): core only.
  ssh: 2,
  // Tool packages: core, adapters, file-io, storage; never another tool package or a composer.
  "tools-fs": 3,
  "tools-shell": 3,
  "tools-tasks": 3,
  "tools-web": 3,
  memory: 3,
  mcp: 3,
  skills: 3,
  cron: 3,
  // Language servers (the LSP tool and diagnostics after edits): core only.
  lsp: 3,
  subagents: 3,
  checkpoints: 3,
  // Permission rules, hooks and the simulator: core only (command hooks through the ProcessRunner port).
  policy: 3,
  // The call ledger of durable runs (memory, SQLite, PostgreSQL): core and storage.
  durable: 3,
  // Durable engines' adapters (Restate, DBOS): core only; their tests use durable and storage.
  restate: 3,
  dbos: 3,
  // Composers.
  sdk: 4,
  "mcp-server": 4,
};

/** The packages whose production code may import `child_process`. */
export const CHILD_PROCESS_ALLOWED = new Set(["node", "git"]);

const TOOL_LAYER = 3;
const COMPOSER_LAYER = 4;

/** An arrow between two workspace packages and why it exists. */
export interface PackageArrow {
  from: string;
  to: string;
  /** The file that imports it, or `package.json (<field>)`. */
  via: string;
  testOnly: boolean;
}

/** Every arrow between workspace packages: manifest dependencies and actual imports. */
export function packageArrows(packages: readonly WorkspacePackage[]): PackageArrow[] {
  const arrows: PackageArrow[] = [];
  for (const pkg of packages) {
    for (const to of pkg.dependencies) arrows.push({ from: pkg.name, to, via: `packages/${pkg.name}/package.json (dependencies)`, testOnly: false });
    for (const to of pkg.devDependencies) arrows.push({ from: pkg.name, to, via: `packages/${pkg.name}/package.json (devDependencies)`, testOnly: true });
    for (const file of pkg.files) {
      for (const specifier of file.imports) {
        const to = workspacePackageOf(specifier);
        if (to && to !== pkg.name) arrows.push({ from: pkg.name, to, via: file.file, testOnly: file.isTest });
      }
    }
  }
  return arrows;
}

/** The elementary circles found by a DFS from each node (one per back edge), each as a closed path. */
export function findCircles(edges: ReadonlyMap<string, ReadonlySet<string>>): string[][] {
  const circles: string[][] = [];
  const seenKeys = new Set<string>();
  const state = new Map<string, "open" | "done">();
  const stack: string[] = [];
  const visit = (node: string) => {
    state.set(node, "open");
    stack.push(node);
    for (const next of [...(edges.get(node) ?? [])].sort()) {
      const nextState = state.get(next);
      if (nextState === "open") {
        const circle = [...stack.slice(stack.indexOf(next)), next];
        const key = [...circle.slice(0, -1)].sort().join(" ");
        if (!seenKeys.has(key)) {
          seenKeys.add(key);
          circles.push(circle);
        }
      } else if (nextState === undefined) visit(next);
    }
    stack.pop();
    state.set(node, "done");
  };
  for (const node of [...edges.keys()].sort()) if (!state.has(node)) visit(node);
  return circles;
}

function addEdge(edges: Map<string, Set<string>>, from: string, to: string) {
  let set = edges.get(from);
  if (!set) edges.set(from, (set = new Set()));
  set.add(to);
}

/** Circles between packages (tests and devDependencies count). */
export function packageCircles(packages: readonly WorkspacePackage[]): string[] {
  const edges = new Map<string, Set<string>>();
  const via = new Map<string, string>();
  for (const arrow of packageArrows(packages)) {
    addEdge(edges, arrow.from, arrow.to);
    const key = `${arrow.from}>${arrow.to}`;
    if (!via.has(key) || !arrow.via.endsWith(")")) via.set(key, arrow.via);
  }
  return findCircles(edges).map((circle) =>
    circle
      .slice(0, -1)
      .map((from, index) => `${from} -> ${circle[index + 1]} (${via.get(`${from}>${circle[index + 1]}`)})`)
      .join(", "),
  );
}

/** Circles between the non-test modules of each package, through relative imports. */
export function moduleCircles(packages: readonly WorkspacePackage[]): string[] {
  const found: string[] = [];
  for (const pkg of packages) {
    const edges = new Map<string, Set<string>>();
    for (const file of pkg.files) {
      if (file.isTest) continue;
      for (const specifier of file.imports) {
        const target = resolveRelative(file.file, specifier);
        if (target && !/\.test\.ts$/.test(target) && !target.includes("/__fixtures__/")) addEdge(edges, file.file, target);
      }
    }
    for (const circle of findCircles(edges)) found.push(circle.join(" -> "));
  }
  return found;
}

/**
 * Arrows that point up: a package (its source, tests included, or its
 * manifest) using one of a higher layer, or a tool package using another
 * tool package in its non-test code. A package with no layer is reported too.
 */
export function upwardArrows(packages: readonly WorkspacePackage[]): string[] {
  const found = new Set<string>();
  for (const pkg of packages) if (LAYERS[pkg.name] === undefined) found.add(`${pkg.name}: no layer (add it to LAYERS and docs/architecture.md)`);
  for (const arrow of packageArrows(packages)) {
    const from = LAYERS[arrow.from];
    const to = LAYERS[arrow.to];
    if (from === undefined || to === undefined) continue;
    const upward = to > from || (to === from && from < COMPOSER_LAYER && !arrow.testOnly);
    if (upward) found.add(`${arrow.from} -> ${arrow.to} (${arrow.via})`);
  }
  return [...found];
}

/** Production files (reachable from a package's main entries or bin) importing `child_process`, outside the process and git adapters. */
export function childProcessImports(packages: readonly WorkspacePackage[]): string[] {
  const found: string[] = [];
  for (const pkg of packages) {
    if (CHILD_PROCESS_ALLOWED.has(pkg.name)) continue;
    for (const file of pkg.files) {
      if (file.isTest || !pkg.productionFiles.has(file.file)) continue;
      if (file.imports.some((specifier) => specifier === "child_process" || specifier === "node:child_process")) found.push(file.file);
    }
  }
  return found;
}

/** Test-only arrows between two tool packages (allowed: no circle, never published); listed for the record. */
export function lateralTestArrows(packages: readonly WorkspacePackage[]): string[] {
  const found = new Set<string>();
  for (const arrow of packageArrows(packages)) {
    if (arrow.testOnly && LAYERS[arrow.from] === TOOL_LAYER && LAYERS[arrow.to] === TOOL_LAYER) found.add(`${arrow.from} -> ${arrow.to}`);
  }
  return [...found];
}
