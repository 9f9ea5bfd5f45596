/**
 * The demo's model client: the SDK's ScriptedModelClient answering from the
 * {@link DemoScript}, so the demo runs with no network and no API key.
 */
import { ScriptedModelClient } from "@agent-tools/core/testing";
import type { DemoScript } from "./demo-script.js";

/**
 * A ModelClient whose every turn comes from `script`. Its text streams
 * through `onTextDelta` like a real model's.
 *
 * @example
 * const script = new DemoScript();
 * const model = createDemoModelClient(script);
 */
export function createDemoModelClient(script: DemoScript): ScriptedModelClient {
  return new ScriptedModelClient({ id: "demo:scripted", respond: (request) => script.respond(request), textDeltaSize: 6 });
}
