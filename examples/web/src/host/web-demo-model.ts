/**
 * The web example's scripted model: it answers what the user types, with no
 * network and no API key, looking at the tool results it gets back as a real
 * model would.
 *
 * - a message with "fix": the CLI demo's session on the sample project
 *   (TaskCreate/TaskUpdate, Glob and Grep, Read, an Edit whose LF old_string
 *   meets a CRLF file, the tests as a Bash session followed by ProcessWait);
 * - "long": a Bash session that prints its pid, then a line a second for
 *   120 s, followed with ProcessWait (press stop to end it);
 * - "approve": a Write of `approved-note.txt`, which the demo's approval
 *   rules ask about (see `DEMO_APPROVAL`);
 * - "markdown": an answer in Markdown (lists, a code block, links) with raw
 *   HTML and a `javascript:` link that the page must show as text;
 * - "broken edit": an Edit whose old_string is not in the file (it fails);
 * - "burst": a Bash command that prints 60 lines and ends;
 * - anything else: a short answer naming the words.
 *
 * The words are looked for in that order, in the turn's user message.
 */
import type { ModelMessage } from "@agent-tools/core";
import { ScriptedModelClient } from "@agent-tools/core/testing";
import { DemoScript, latestToolResults, parseShellResult } from "@agent-tools/example-cli/demo/demo-script";
import { type TurnScript, answer, brokenEditScript, burstScript, markdownScript, withCalls } from "./web-demo-page-scripts.js";

/** The file the "approve" flow writes. */
export const APPROVE_DEMO_FILE = "approved-note.txt";

/** The command of the "long" flow: its pid first, then a line a second for 120 s. */
export const LONG_DEMO_COMMAND = 'echo "pid $$"; for i in $(seq 1 120); do echo "line $i of 120"; sleep 1; done; echo done';

/** "long": start the session, follow it with ProcessWait until it ends. */
function longScript(): TurnScript {
  let started = false;
  let waits = 0;
  return {
    respond(request) {
      if (!started) {
        started = true;
        return withCalls("I'll start a long command as a Bash session and follow its output. Press stop to end it.", [
          { id: "call_long_start", name: "Bash", arguments: JSON.stringify({ command: LONG_DEMO_COMMAND, yield_time_ms: 1000 }) },
        ]);
      }
      const last = latestToolResults(request.messages).at(-1);
      const session = parseShellResult(last?.content ?? "");
      if (last && !last.isError && session.status === "running" && session.sessionId) {
        waits += 1;
        const args = { session_id: session.sessionId, yield_time_ms: 5000, ...(session.cursor !== undefined ? { cursor: session.cursor } : {}) };
        return withCalls("", [{ id: `call_long_wait_${waits}`, name: "ProcessWait", arguments: JSON.stringify(args) }]);
      }
      return answer(`The long command ended with status ${session.status ?? "unknown"}.`);
    },
  };
}

/** "approve": one Write that the demo's approval rules ask about, then say what the answer was. */
function approveScript(): TurnScript {
  let asked = false;
  return {
    respond(request) {
      if (!asked) {
        asked = true;
        const content = `Written after the user approved it in the web page (${new Date().toISOString()}).\n`;
        return withCalls(`This Write needs your approval: allow or decline it in the page.`, [
          { id: "call_approve_write", name: "Write", arguments: JSON.stringify({ path: APPROVE_DEMO_FILE, content }) },
        ]);
      }
      const result = latestToolResults(request.messages).at(-1);
      if (result && !result.isError) return answer(`You approved it: I wrote ${APPROVE_DEMO_FILE}.`);
      return answer(`The Write was not done: ${result?.content.split("\n")[0] ?? "no result"}`);
    },
  };
}

const HELP_TEXT = [
  "I am the scripted demo model of this web example: no network, no API key. Try one of these words:",
  '- "fix": I plan with tasks, find the discount bug in the sample shop, read and edit the file (you will see the diff), run its tests as a Bash session and follow them with ProcessWait.',
  '- "long": a Bash session that prints a line a second for two minutes; press stop and its process ends.',
  `- "approve": I write ${APPROVE_DEMO_FILE}, which needs your approval first; allow or decline it.`,
  '- "markdown": an answer in Markdown (lists, code, links; raw HTML stays text).',
  '- "broken edit": an Edit that fails (its text is not in the file).',
  '- "burst": a Bash command that prints 60 lines.',
].join("\n");

function helpScript(): TurnScript {
  return { respond: () => answer(HELP_TEXT) };
}

function scriptFor(text: string): TurnScript {
  const lower = text.toLowerCase();
  if (lower.includes("fix")) return new DemoScript();
  if (lower.includes("long")) return longScript();
  if (lower.includes("approve")) return approveScript();
  if (lower.includes("markdown")) return markdownScript();
  if (lower.includes("broken edit")) return brokenEditScript();
  if (lower.includes("burst")) return burstScript();
  return helpScript();
}

/**
 * The scripted web demo model. One client serves every conversation: each
 * turn's script is keyed by the turn's own user message object (the agent
 * loop keeps that object for the whole turn).
 *
 * @example
 * const model = createWebDemoModel();
 * const host = connectExecutingHost({ gatewayUrl, token, registry, model, modelName: "scripted demo", approval });
 */
export function createWebDemoModel(): ScriptedModelClient {
  const scripts = new WeakMap<ModelMessage, { script: TurnScript; prefix: string }>();
  let turns = 0;
  return new ScriptedModelClient({
    id: "web-demo:scripted",
    textDeltaSize: 4,
    respond: (request) => {
      const user = request.messages.findLast((message) => message.role === "user");
      if (!user) return answer(HELP_TEXT);
      let entry = scripts.get(user);
      if (!entry) {
        turns += 1;
        entry = { script: scriptFor(typeof user.content === "string" ? user.content : ""), prefix: `t${turns}_` };
        scripts.set(user, entry);
      }
      const response = entry.script.respond(request);
      // Call ids unique across turns, as a real model's are (a page may key tool cards by them).
      return { ...response, toolCalls: response.toolCalls.map((call) => ({ ...call, id: `${entry.prefix}${call.id}` })) };
    },
  });
}
