// Reads vitest's JSON report, plus any further result files ({"results": [{name, ok}]}:
// the lint run, the consumer check) or further vitest JSON reports (the store contract
// suites under other Node versions), and prints the closing line CI reads.
// A further file may be given as "<label>=<file>": its failures are printed with the label
// (e.g. "Node 24=.tmp/vitest-store-node24.json").
import { readFileSync } from "node:fs";

const [file, ...extraFiles] = process.argv.slice(2);
let report;
try {
  report = JSON.parse(readFileSync(file, "utf8"));
} catch (error) {
  console.log("0 passed, 1 failed");
  console.error(`no test report at ${file}: ${error.message}`);
  process.exit(1);
}
const passed = report.numPassedTests ?? 0;
const failed = report.numFailedTests ?? 0;
let skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
// A suite that failed to load has no failing test of its own: count it as one failure.
const failedSuites = (report.testResults ?? []).filter(
  (suite) => suite.status === "failed" && (suite.assertionResults ?? []).every((test) => test.status !== "failed"),
);
let extraPassed = 0;
let extraFailed = 0;
for (const argument of extraFiles) {
  const labelled = /^([^=/]+)=(.+)$/.exec(argument);
  const [label, extra] = labelled === null ? [undefined, argument] : [labelled[1], labelled[2]];
  const prefix = label === undefined ? "" : `${label}: `;
  let parsed;
  try {
    parsed = JSON.parse(readFileSync(extra, "utf8"));
  } catch (error) {
    console.error(`${prefix}no results at ${extra}: ${error.message}`);
    extraFailed += 1;
    continue;
  }
  if (typeof parsed.numTotalTests === "number") {
    // Another vitest JSON report: count its tests, and name its failures with the label.
    extraPassed += parsed.numPassedTests ?? 0;
    skipped += (parsed.numPendingTests ?? 0) + (parsed.numTodoTests ?? 0);
    for (const suite of parsed.testResults ?? []) {
      const failedTests = (suite.assertionResults ?? []).filter((test) => test.status === "failed");
      for (const test of failedTests) console.error(`failed: ${prefix}${test.fullName ?? test.title}`);
      if (suite.status === "failed" && failedTests.length === 0) {
        console.error(`suite failed to run: ${prefix}${suite.name}: ${String(suite.message ?? "").split("\n")[0]}`);
        extraFailed += 1;
      }
      extraFailed += failedTests.length;
    }
    if ((parsed.numPassedTests ?? 0) === 0) {
      console.error(`${prefix}no test passed in ${extra}`);
      extraFailed += 1;
    }
    continue;
  }
  for (const result of parsed.results ?? []) {
    if (result.ok) extraPassed += 1;
    else {
      extraFailed += 1;
      console.error(`failed: ${prefix}${result.name}${result.detail ? `: ${result.detail}` : ""}`);
    }
  }
}
const total = failed + failedSuites.length + extraFailed;
for (const suite of failedSuites) console.error(`suite failed to run: ${suite.name}: ${String(suite.message ?? "").split("\n")[0]}`);
console.log(`${passed + extraPassed} passed, ${total} failed${skipped ? `, ${skipped} skipped` : ""}`);
process.exit(total > 0 || passed === 0 ? 1 : 0);
