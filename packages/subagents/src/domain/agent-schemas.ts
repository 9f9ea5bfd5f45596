/**
 * The zod input schemas of Agent and SendMessage: what the model sees as
 * JSON Schema. Agent's raw arguments are checked by `validateAgentBatch`
 * (every issue at once), not parsed with this schema; SendMessage is parsed
 * (an unknown `channel` becomes the recipient's default instead of an error).
 */
import { z } from "zod";
import { SUBAGENT_LIMITS, type SubagentChannel } from "./subagent-types.js";

/** The bus channels SendMessage offers. */
const SUBAGENT_CHANNELS = ["direct", "shared", "decision", "question"] as const satisfies readonly SubagentChannel[];

/** One entry of Agent's `agents`. */
export const agentEntryInputSchema = z.strictObject({
  id: z
    .string()
    .min(1)
    .max(64)
    .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/)
    .describe("Stable agent id (letters, digits, . _ -). Reuse an existing id to resume that agent with its context."),
  prompt: z.string().min(1).describe("The self-contained task: goal, relevant paths, constraints, and what to report back."),
  name: z.string().optional().describe("Display name; only used when the id is new."),
  role: z.string().optional().describe("One-line role; only used when the id is new."),
  identity: z.string().optional().describe("Extra standing instructions for this agent; only used when the id is new."),
  template: z.string().optional().describe("A prompt template's id or name; only used when the id is new."),
  mode: z
    .enum(["readonly", "worktree"])
    .optional()
    .describe(
      "readonly: reads the workspace, changes nothing. worktree: works in its own git worktree and may edit and run commands. Default: the agent's last mode, else readonly.",
    ),
  apply_policy: z
    .enum(["none", "explicit", "auto"])
    .optional()
    .describe(
      "worktree only. What happens to the changes when it completes: none (default; kept as candidates), explicit (applied only if every changed path matches allowed_output_paths), auto (all applied).",
    ),
  allowed_output_paths: z
    .array(z.string().min(1))
    .optional()
    .describe("With apply_policy explicit: workspace paths or globs (*, **, ?) the agent may change; a directory covers everything under it."),
  resume: z.boolean().optional().describe("Continue the id's previous context (default true); false starts fresh with the same identity."),
  retain_worktree: z.boolean().optional().describe("Keep the worktree after the run even when its changes were applied (default false)."),
});

/** Agent's input: 1-8 agents and an optional concurrency. */
export const agentInputSchema = z.strictObject({
  agents: z
    .array(agentEntryInputSchema)
    .min(1)
    .max(SUBAGENT_LIMITS.maxAgents)
    .describe("1-8 agents to run in parallel; each gets a distinct id. Split dependent work across sequential calls."),
  concurrency: z.number().int().min(1).max(SUBAGENT_LIMITS.maxAgents).optional().describe("How many agents of this call run at once (1-8, default: all)."),
});

/** SendMessage's input. */
export const sendMessageInputSchema = z.strictObject({
  to: z.string().min(1).optional().describe('Recipient: "parent", an agent id, or "*" for all agents. May be omitted only with channel "shared".'),
  message: z.string().min(1).describe("The message body."),
  // The model sees the four values; any other value (or case) is not refused but normalised by the recipient (see resolveSendMessage).
  channel: z
    .enum(SUBAGENT_CHANNELS)
    .optional()
    .catch((context) => knownChannel(context.value))
    .describe('direct (default for one recipient), shared (default for "*"), decision (a settled choice others should follow), question (needs an answer).'),
  subject: z.string().optional().describe("A short subject line."),
});

/** A requested channel in any case and spacing as one of the four, else undefined (the recipient's default). */
function knownChannel(value: unknown): SubagentChannel | undefined {
  const channel = typeof value === "string" ? value.trim().toLowerCase() : "";
  return SUBAGENT_CHANNELS.find((known) => known === channel);
}

/** SendMessage's parsed input. */
export type SendMessageInput = z.output<typeof sendMessageInputSchema>;
