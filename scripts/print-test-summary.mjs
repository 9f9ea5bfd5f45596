// Reads vitest's JSON report and prints the closing line CI reads.
import { readFileSync } from "node:fs";

const file = process.argv[2];
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
const failedSuites = (report.testResults ?? []).filter((suite) => suite.status === "failed" && (suite.assertionResults ?? []).every((test) => test.status !== "failed"));
const total = failed + failedSuites.length;
for (const suite of failedSuites) console.error(`suite failed to run: ${suite.name}: ${String(suite.message ?? "").split("\n")[0]}`);
console.log(`${passed} passed, ${total} failed${skipped ? `, ${skipped} skipped` : ""}`);
process.exit(total > 0 || passed === 0 ? 1 : 0);
