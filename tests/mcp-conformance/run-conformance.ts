/**
 * Runs `@modelcontextprotocol/conformance` (installed with Node 22 in
 * compat/mcp-conformance by scripts/setup.sh) against the driver in
 * ./client.ts, one client scenario at a time, and reads what it recorded.
 */
import { execFile, execFileSync } from "node:child_process";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root. */
export const repositoryRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const compat = path.join(repositoryRoot, "compat", "mcp-conformance");
const node22 = path.join(compat, "node_modules", "node", "bin", "node");
const runner = path.join(compat, "node_modules", "@modelcontextprotocol", "conformance", "dist", "index.js");
const driver = path.join(repositoryRoot, "tests", "mcp-conformance", "client.ts");
/** The expected failures: only scenarios the suite marks draft or extension. */
export const baselineFile = path.join(repositoryRoot, "tests", "mcp-conformance", "baseline.yml");

/** Why the suite cannot run here, or undefined when compat/mcp-conformance is installed. */
export function compatMissing(): string | undefined {
  if (existsSync(node22) && existsSync(runner)) return undefined;
  return "compat/mcp-conformance/node_modules is missing: run scripts/setup.sh (it runs npm ci in compat/mcp-conformance, which brings the conformance suite and Node 22) before this test.";
}

/** One client scenario as `conformance list` shows it. */
export interface ClientScenario {
  name: string;
  /** The bracketed spec versions or markers, e.g. `2025-11-25`, `draft`, `extension`. */
  tags: string[];
}

/** Every client scenario the installed suite knows. */
export function listClientScenarios(): ClientScenario[] {
  const output = execFileSync(node22, [runner, "list"], { encoding: "utf8", cwd: repositoryRoot });
  const section = output.split(/Client scenarios[^\n]*\n/)[1] ?? "";
  const scenarios: ClientScenario[] = [];
  for (const line of section.split("\n")) {
    const match = /^\s*-\s+(\S+)(?:\s+\[([^\]]*)\])?/.exec(line);
    if (!match) {
      if (line.trim() === "") continue;
      break;
    }
    scenarios.push({
      name: match[1] as string,
      tags: (match[2] ?? "")
        .split(",")
        .map((tag) => tag.trim())
        .filter(Boolean),
    });
  }
  return scenarios;
}

/** The scenario names of the baseline's `client:` list. */
export function readBaseline(): string[] {
  const names: string[] = [];
  let inClient = false;
  for (const line of readFileSync(baselineFile, "utf8").split("\n")) {
    if (/^\S/.test(line)) inClient = /^client:\s*(#.*)?$/.test(line);
    const item = /^\s+-\s+["']?([^"'#\s]+)/.exec(line);
    if (inClient && item) names.push(item[1] as string);
  }
  return names;
}

/** A check the suite recorded. */
export interface ConformanceCheck {
  id: string;
  name: string;
  description: string;
  status: "SUCCESS" | "FAILURE" | "WARNING" | "INFO" | "SKIPPED";
  errorMessage?: string;
  details?: { message?: string; [key: string]: unknown };
}

/** What one scenario run produced. */
export interface ScenarioRun {
  scenario: string;
  /** The runner's exit code: 0 when the scenario passed, or failed as the baseline expects. */
  exitCode: number;
  checks: ConformanceCheck[];
  /** The runner's output (its check listing, the driver's output when it failed, the baseline verdict). */
  output: string;
  /** The driver's stderr as the runner saved it. */
  driverStderr: string;
}

function findResultDir(outputDir: string): string | undefined {
  if (!existsSync(outputDir)) return undefined;
  const stack = [outputDir];
  while (stack.length > 0) {
    const dir = stack.pop() as string;
    const entries = readdirSync(dir, { withFileTypes: true });
    if (entries.some((entry) => entry.isFile() && entry.name === "checks.json")) return dir;
    for (const entry of entries) if (entry.isDirectory()) stack.push(path.join(dir, entry.name));
  }
  return undefined;
}

/**
 * Runs one scenario with the baseline: `conformance client --scenario <name>
 * --expected-failures baseline.yml -o <outputDir>`, the driver on this Node
 * through tsx with the workspace sources (or `command`: a client command line
 * whose words hold no spaces).
 */
export function runScenario(scenario: string, outputDir: string, options: { timeoutMs?: number; command?: string } = {}): Promise<ScenarioRun> {
  const timeoutMs = options.timeoutMs ?? 30_000;
  const command = options.command ?? [process.execPath, "--import", "tsx", "--conditions=@agent-tools/source", driver].join(" ");
  const args = [
    runner,
    "client",
    "--command",
    command,
    "--scenario",
    scenario,
    "--timeout",
    String(timeoutMs),
    "--expected-failures",
    baselineFile,
    "-o",
    outputDir,
  ];
  return new Promise((resolve) => {
    execFile(node22, args, { cwd: repositoryRoot, maxBuffer: 32 * 1024 * 1024, timeout: timeoutMs + 60_000 }, (error, stdout, stderr) => {
      const exitCode = error === null ? 0 : typeof error.code === "number" ? error.code : -1;
      const resultDir = findResultDir(outputDir);
      const checks = resultDir ? (JSON.parse(readFileSync(path.join(resultDir, "checks.json"), "utf8")) as ConformanceCheck[]) : [];
      const driverStderr = resultDir && existsSync(path.join(resultDir, "stderr.txt")) ? readFileSync(path.join(resultDir, "stderr.txt"), "utf8") : "";
      resolve({ scenario, exitCode, checks, output: `${stdout}${stderr}`, driverStderr });
    });
  });
}

const stripAnsi = (text: string) => text.replace(/\u001b\[[0-9;]*m/g, "");
const verdictLine = /Unexpected failures|Stale baseline entries|TIMED OUT|EXITED WITH ERROR|^\s+[✗✓] /;

/** A readable account of a run that did not pass: failed and warning checks, the baseline verdict, the driver's last lines. */
export function describeRun(run: ScenarioRun): string {
  const lines = [`${run.scenario}: the runner exited ${run.exitCode}`];
  const bad = run.checks.filter((check) => check.status === "FAILURE" || check.status === "WARNING");
  for (const check of bad) {
    const why = check.errorMessage ?? check.details?.message;
    lines.push(`  ${check.status} ${check.id} (${check.name}): ${check.description}${why ? ` (${why})` : ""}`);
  }
  const output = stripAnsi(run.output).split("\n");
  const verdict = output.filter((line) => verdictLine.test(line)).map((line) => `  ${line.trim()}`);
  lines.push(...verdict);
  if (bad.length === 0 && verdict.length === 0)
    lines.push(
      ...output
        .filter(Boolean)
        .slice(-15)
        .map((line) => `  ${line}`),
    );
  const driver = stripAnsi(run.driverStderr).trim().split("\n").filter(Boolean).slice(-12);
  if (driver.length > 0) lines.push("  driver stderr (last lines):", ...driver.map((line) => `    ${line}`));
  return lines.join("\n");
}
