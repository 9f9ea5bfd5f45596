// AI SDK 7 side of the matrix (packages/core/src/providers/ai-sdk-matrix.test.ts):
// runs the shared scenarios with ai 7 on Node 22 and prints one JSON line,
// { [scenario]: checks[] }. Run: node_modules/.bin/node --import tsx scenarios.ts
import { readFileSync } from "node:fs";
import { generateText, jsonSchema, stepCountIs, streamText } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { type ScenarioCheck, runScenario, scenarioNames } from "../../packages/core/src/providers/__fixtures__/ai-sdk-scenarios.ts";

const aiVersion: string = JSON.parse(readFileSync(new URL("./node_modules/ai/package.json", import.meta.url), "utf8")).version;
const report: Record<string, ScenarioCheck[]> = {
  __environment: [
    process.versions.node.startsWith("22.") && aiVersion.startsWith("7.")
      ? { check: "node 22 and ai 7", ok: true }
      : { check: "node 22 and ai 7", ok: false, actual: { node: process.versions.node, ai: aiVersion } },
  ],
};
const sdk = { version: 7 as const, spec: "v3" as const, generateText, streamText, jsonSchema, stepCountIs, MockLanguageModel: MockLanguageModelV4 };
for (const name of scenarioNames(7)) report[name] = await runScenario(sdk, name);
process.stdout.write(`${JSON.stringify(report)}\n`);
