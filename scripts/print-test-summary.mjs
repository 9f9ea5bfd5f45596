// Reads vitest's JSON report, plus any further result files ({"results": [{name, ok}]}:
// the lint run, the consumer check), and prints the closing line CI reads.
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
const skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
// A suite that failed to load has no failing test of its own: count it as one failure.
const failedSuites = (report.testResults ?? []).filter(
  (suite) => suite.status === "failed" && (suite.assertionResults ?? []).every((test) => test.status !== "failed"),
);
let extraPassed = 0;
let extraFailed = 0;
for (const extra of extraFiles) {
  let results;
  try {
    results = JSON.parse(readFileSync(extra, "utf8")).results ?? [];
  } catch (error) {
    console.error(`no results at ${extra}: ${error.message}`);
    extraFailed += 1;
    continue;
  }
  for (const result of results) {
    if (result.ok) extraPassed += 1;
    else {
      extraFailed += 1;
      console.error(`failed: ${result.name}${result.detail ? `: ${result.detail}` : ""}`);
    }
  }
}
const total = failed + failedSuites.length + extraFailed;
for (const suite of failedSuites) console.error(`suite failed to run: ${suite.name}: ${String(suite.message ?? "").split("\n")[0]}`);
console.log(`${passed + extraPassed} passed, ${total} failed${skipped ? `, ${skipped} skipped` : ""}`);
process.exit(total > 0 || passed === 0 ? 1 : 0);
