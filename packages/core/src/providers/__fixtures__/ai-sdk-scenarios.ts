// The AI SDK matrix: the same scenarios against AI SDK 5, 6 (in vitest) and 7 (in a
// Node 22 child process, compat/ai-sdk-v7/scenarios.ts). Each scenario runs a
// real registry through the AI SDK's own generateText / streamText with the
// version's mock language model, and returns named checks instead of
// asserting, so the child process can report them as JSON.
import { isDeepStrictEqual } from "node:util";
import type { ToolRegistry } from "../../registry/create-tool-registry.js";
import { toAiSdkTools } from "../ai-sdk-tools.js";
import { type Fixture, PNG, createFixture } from "./ai-sdk-fixture.js";
import { type ScriptedTurn, type SpecVersion, generateResult, streamResult } from "./ai-sdk-mock-turns.js";

/** One AI SDK version's entry points, as the caller imported them. */
export interface AiSdkUnderTest {
  version: 5 | 6 | 7;
  spec: SpecVersion;
  generateText(options: any): Promise<any>;
  streamText(options: any): any;
  jsonSchema(schema: any): any;
  stepCountIs(count: number): any;
  MockLanguageModel: new (options: any) => any;
}

/** One check of a scenario. */
export interface ScenarioCheck {
  check: string;
  ok: boolean;
  actual?: unknown;
  expected?: unknown;
}

/** The scenarios, by name; the approval flow ones only where the AI SDK has one (6 and later). */
export function scenarioNames(version: 5 | 6 | 7): string[] {
  const names = ["generateText tool loop", "streamText tool loop", "image result as a file part", "approval by the registry's onAsk", "preliminary results"];
  return version === 5
    ? names
    : [...names, "approval by the AI SDK: approved", "approval by the AI SDK: denied", "approval by the AI SDK: approved (streamText)"];
}

const mockModel = (sdk: AiSdkUnderTest, turns: ScriptedTurn[]) =>
  new sdk.MockLanguageModel({
    doGenerate: turns.map((turn) => generateResult(sdk.spec, turn)),
    doStream: turns.map((turn) => streamResult(sdk.spec, turn)),
  });

/** The tool-result parts of the tool messages the model was sent, as { toolName, output }. */
function toolResultsSent(prompt: any[]): unknown[] {
  return prompt
    .filter((message) => message.role === "tool")
    .flatMap((message) => message.content)
    .filter((part: any) => part.type === "tool-result")
    .map((part: any) => ({ toolName: part.toolName, output: part.output }));
}

const loopTurns: ScriptedTurn[] = [
  {
    toolCalls: [
      { id: "call_1", name: "Add", input: { a: 20, b: 22 } },
      { id: "call_2", name: "Lookup", input: { key: "answer" } },
    ],
  },
  { toolCalls: [{ id: "call_3", name: "Add", input: { a: 1, b: 2, c: 3 } }] },
  { text: "The answer is 42." },
];

function loopChecks(prompts: any[][], text: string): ScenarioCheck[] {
  const last = toolResultsSent(prompts[2] ?? []);
  return [
    check("three model calls", prompts.length, 3),
    check("final text", text, "The answer is 42."),
    check("first step's results reach the model", toolResultsSent(prompts[1] ?? []), [
      { toolName: "Add", output: { type: "text", value: "20 + 22 = 42" } },
      { toolName: "Lookup", output: { type: "error-text", value: "No record named answer." } },
    ]),
    check(
      "a bad argument comes back as error-text",
      (last[2] as any)?.output?.type === "error-text" && String((last[2] as any)?.output?.value).includes("unsupported argument(s): c"),
      true,
    ),
  ];
}

const scenarios: Record<string, (sdk: AiSdkUnderTest, fixture: Fixture) => Promise<ScenarioCheck[]>> = {
  "generateText tool loop": async (sdk, { registry }) => {
    const model = mockModel(sdk, loopTurns);
    const result = await sdk.generateText({
      model,
      prompt: "20 + 22?",
      tools: toAiSdkTools(registry, { jsonSchema: sdk.jsonSchema }),
      stopWhen: sdk.stepCountIs(5),
    });
    return loopChecks(
      model.doGenerateCalls.map((call: any) => call.prompt),
      result.text,
    );
  },
  "streamText tool loop": async (sdk, { registry }) => {
    const model = mockModel(sdk, loopTurns);
    const result = sdk.streamText({ model, prompt: "20 + 22?", tools: toAiSdkTools(registry, { jsonSchema: sdk.jsonSchema }), stopWhen: sdk.stepCountIs(5) });
    const resultParts: unknown[] = [];
    for await (const part of result.fullStream) if (part.type === "tool-result") resultParts.push(part.toolName);
    return [
      ...loopChecks(
        model.doStreamCalls.map((call: any) => call.prompt),
        await result.text,
      ),
      check("tool-result parts in the stream", resultParts, ["Add", "Lookup", "Add"]),
    ];
  },
  "image result as a file part": async (sdk, { registry }) => {
    const run = await imageRun(sdk, registry);
    const expectedImage = {
      5: { type: "media", data: PNG, mediaType: "image/png" },
      6: { type: "file-data", data: PNG, mediaType: "image/png" },
      7: { type: "file", data: { type: "data", data: PNG }, mediaType: "image/png" },
    }[sdk.version];
    const value = run.output?.value ?? [];
    const checks = [
      check("final text", run.text, "A red pixel."),
      check("output type", run.output?.type, "content"),
      check("text part", value[0], { type: "text", text: "shot.png" }),
      check("image part, as the model receives it", stripUndefined(value[1]), expectedImage),
      check("no deprecation warning", run.deprecation, "none"),
    ];
    if (sdk.version !== 7) return checks;
    // Control: AI SDK 6's part under 7 must trip the warning check above.
    const control = await imageRun(sdk, registry, 6);
    return [...checks, check("control: file-data under AI SDK 7 is reported deprecated", control.deprecation !== "none", true)];
  },
  "approval by the registry's onAsk": async (sdk, { registry, counts }) => {
    const model = mockModel(sdk, [{ toolCalls: [{ id: "d1", name: "Deploy", input: { target: "prod" } }] }, { text: "Deployed." }]);
    const tools = toAiSdkTools(registry, { jsonSchema: sdk.jsonSchema });
    const result = await sdk.generateText({ model, prompt: "Deploy", tools, stopWhen: sdk.stepCountIs(3) });
    return [
      check("no needsApproval by default", "needsApproval" in tools.Deploy!, false),
      check("final text", result.text, "Deployed."),
      check("onAsk asked once", counts.onAsk, 1),
      check("the tool ran once", counts.deploy, 1),
      check("result sent to the model", toolResultsSent(model.doGenerateCalls[1]?.prompt ?? []), [
        { toolName: "Deploy", output: { type: "text", value: "Deployed to prod." } },
      ]),
    ];
  },
  "approval by the AI SDK: approved": (sdk, fixture) => approvalFlow(sdk, fixture, true, "generateText"),
  "approval by the AI SDK: denied": (sdk, fixture) => approvalFlow(sdk, fixture, false, "generateText"),
  "approval by the AI SDK: approved (streamText)": (sdk, fixture) => approvalFlow(sdk, fixture, true, "streamText"),
  "preliminary results": async (sdk, { registry }) => {
    const model = mockModel(sdk, [{ toolCalls: [{ id: "b1", name: "Build", input: {} }] }, { text: "Built." }]);
    const hostUpdates: string[] = [];
    const tools = toAiSdkTools(registry, {
      jsonSchema: sdk.jsonSchema,
      preliminaryResults: true,
      executeOptions: () => ({ onUpdate: (event) => hostUpdates.push(event.update.text ?? "") }),
    });
    const result = sdk.streamText({ model, prompt: "Build", tools, stopWhen: sdk.stepCountIs(3) });
    const preliminary: string[] = [];
    const final: string[] = [];
    for await (const part of result.fullStream) {
      if (part.type !== "tool-result") continue;
      const text = part.output?.content?.[0]?.text;
      (part.preliminary === true ? preliminary : final).push(text);
    }
    return [
      check("final text", await result.text, "Built."),
      check("preliminary snapshots carry the streamed log", preliminary.slice(0, 2), ["compiling\n", "compiling\nlinking\n"]),
      check("one final tool result", final, ["Build succeeded."]),
      check("the host's own onUpdate still sees every delta", hostUpdates, ["compiling\n", "linking\n"]),
      check("the model sees only the final output", toolResultsSent(model.doStreamCalls[1]?.prompt ?? []), [
        { toolName: "Build", output: { type: "text", value: "Build succeeded." } },
      ]),
    ];
  },
};

async function imageRun(sdk: AiSdkUnderTest, registry: ToolRegistry, aiSdkVersion?: 5 | 6 | 7) {
  const warnings: unknown[] = [];
  const globals = globalThis as { AI_SDK_LOG_WARNINGS?: unknown };
  const previous = globals.AI_SDK_LOG_WARNINGS;
  globals.AI_SDK_LOG_WARNINGS = (...args: unknown[]) => warnings.push(...args);
  try {
    const model = mockModel(sdk, [{ toolCalls: [{ id: "s1", name: "Snapshot", input: {} }] }, { text: "A red pixel." }]);
    const tools = toAiSdkTools(registry, { jsonSchema: sdk.jsonSchema, aiSdkVersion });
    const result = await sdk.generateText({ model, prompt: "Look", tools, stopWhen: sdk.stepCountIs(3) });
    const sent = toolResultsSent(model.doGenerateCalls[1]?.prompt ?? []) as any[];
    const allWarnings = JSON.stringify([warnings, result.warnings ?? [], (result.steps ?? []).map((step: any) => step.warnings ?? [])]);
    return { text: result.text, output: sent[0]?.output, deprecation: allWarnings.match(/deprecat|AISDK_DEP/i)?.[0] ?? "none" };
  } finally {
    globals.AI_SDK_LOG_WARNINGS = previous;
  }
}

/** One generateText or streamText call: its text, approval requests and response messages, and the prompts the model got so far. */
async function callModel(sdk: AiSdkUnderTest, mode: "generateText" | "streamText", model: any, options: Record<string, unknown>) {
  if (mode === "generateText") {
    const result = await sdk.generateText({ model, ...options });
    const requests = result.content.filter((part: any) => part.type === "tool-approval-request");
    return { text: result.text, requests, messages: result.response.messages, prompts: model.doGenerateCalls.map((call: any) => call.prompt) };
  }
  const result = sdk.streamText({ model, ...options });
  const requests: any[] = [];
  for await (const part of result.fullStream) if (part.type === "tool-approval-request") requests.push(part);
  const response = await result.response;
  return { text: await result.text, requests, messages: response.messages, prompts: model.doStreamCalls.map((call: any) => call.prompt) };
}

async function approvalFlow(
  sdk: AiSdkUnderTest,
  { registry, counts }: Fixture,
  approved: boolean,
  mode: "generateText" | "streamText",
): Promise<ScenarioCheck[]> {
  const model = mockModel(sdk, [{ toolCalls: [{ id: "d1", name: "Deploy", input: { target: "prod" } }] }, { text: approved ? "Deployed." : "Not deployed." }]);
  const tools = toAiSdkTools(registry, { jsonSchema: sdk.jsonSchema, approval: "ai-sdk" });
  const first = await callModel(sdk, mode, model, { prompt: "Deploy", tools, stopWhen: sdk.stepCountIs(3) });
  const checks = [
    check("Add needs no approval", tools.Add!.needsApproval?.({}, { toolCallId: "x" }), false),
    check(
      "one tool-approval-request",
      first.requests.map((part: any) => part.toolCall?.toolName),
      ["Deploy"],
    ),
    check("not run before the answer", counts.deploy, 0),
  ];
  const messages = [
    { role: "user", content: "Deploy" },
    ...first.messages,
    { role: "tool", content: [{ type: "tool-approval-response", approvalId: first.requests[0]?.approvalId, approved }] },
  ];
  const second = await callModel(sdk, mode, model, { messages, tools, stopWhen: sdk.stepCountIs(3) });
  const sent = toolResultsSent(second.prompts[1] ?? []) as any[];
  return [
    ...checks,
    check("final text", second.text, approved ? "Deployed." : "Not deployed."),
    check("tool runs", counts.deploy, approved ? 1 : 0),
    check("onAsk not asked", counts.onAsk, 0),
    check("what the model is sent", sent[0]?.output?.type, approved ? "text" : "execution-denied"),
    check("two model calls in all", second.prompts.length, 2),
  ];
}

function check(name: string, actual: unknown, expected: unknown): ScenarioCheck {
  return isDeepStrictEqual(actual, expected) ? { check: name, ok: true } : { check: name, ok: false, actual, expected };
}

function stripUndefined(value: unknown): unknown {
  return value === undefined ? undefined : JSON.parse(JSON.stringify(value));
}

/** Runs one scenario on a fresh registry; a throw becomes a failed check. */
export async function runScenario(sdk: AiSdkUnderTest, name: string): Promise<ScenarioCheck[]> {
  const scenario = scenarios[name];
  if (!scenario) return [{ check: `unknown scenario ${name}`, ok: false }];
  const fixture = await createFixture();
  try {
    return await scenario(sdk, fixture);
  } catch (error) {
    return [{ check: "ran without throwing", ok: false, actual: error instanceof Error ? (error.stack ?? error.message) : String(error) }];
  } finally {
    await fixture.close();
  }
}
