import { type ToolContext, type ToolDefinition, type ToolMetadata, type ToolOutput, defineTool } from "@agent-tools/core";
import type { ToolEffects } from "@agent-tools/core/durable";
import { readOnlyMode } from "../domain/memory-errors.js";
import type { MemoryService } from "../runtime/memory-service.js";
import type { MemoryRefusal } from "../runtime/memory-service-types.js";
import { type MemoryManagerDetails, changeOutput, listOutput, readOutput, refusalError, searchOutput } from "./memory-manager-output.js";
import { MEMORY_MANAGER_DESCRIPTION, MEMORY_READ_ACTIONS, type MemoryManagerInput, memoryManagerInputSchema } from "./memory-manager-schema.js";

/** `rw`: every action; `ro`: list, read and search only. */
export type MemoryToolMode = "rw" | "ro";

/** Finds the service of a call (opened lazily by the bundle). */
export type MemoryServiceResolver = (context: ToolContext) => Promise<MemoryService>;

/**
 * What running a MemoryManager call again would do: list, read and search
 * (and every call in `ro` mode, which refuses the others) change nothing;
 * accept marks an entry reviewed; a write, update or delete run twice may
 * add to or remove what changed in between, so those are never run again
 * after a crash.
 */
function memoryManagerEffects(mode: MemoryToolMode, action: string): ToolEffects {
  if (mode === "ro" || MEMORY_READ_ACTIONS.includes(action)) return "none";
  return action === "accept" ? "idempotent" : "unsafe";
}

/** Metadata of MemoryManager: read-only only in `ro` mode. */
export function memoryToolMetadata(mode: MemoryToolMode): ToolMetadata {
  return {
    groupId: "memory",
    kind: "memory",
    isReadOnly: mode === "ro",
    displayCategory: "system",
    annotations: { readOnly: mode === "ro", listedInPlanMode: mode === "ro" },
  };
}

function missing(action: string, fields: readonly string[]): never {
  throw refusalError(action, {
    error: "missing_arguments",
    message: `${action} needs ${fields.join(", ")}.`,
  });
}

function needs(input: MemoryManagerInput, fields: readonly (keyof MemoryManagerInput)[]): string[] {
  return fields.filter((field) => input[field] === undefined);
}

function evidence(input: MemoryManagerInput) {
  return {
    ...(input.confidence === undefined ? {} : { confidence: input.confidence }),
    ...(input.source_quote === undefined ? {} : { sourceQuote: input.source_quote }),
    ...(input.reasoning === undefined ? {} : { reasoning: input.reasoning }),
    ...(input.aliases === undefined ? {} : { aliases: input.aliases }),
    ...(input.supersedes === undefined ? {} : { supersedes: input.supersedes }),
    ...(input.conflicts_with === undefined ? {} : { conflictsWith: input.conflicts_with }),
    ...(input.override_reject === undefined ? {} : { overrideReject: input.override_reject }),
  };
}

async function run(service: MemoryService, input: MemoryManagerInput, context: ToolContext): Promise<ToolOutput<MemoryManagerDetails>> {
  const { action } = input;
  const refused = (result: MemoryRefusal): never => {
    throw refusalError(action, result.error);
  };
  const options = { actor: "tool" as const, signal: context.signal };
  switch (action) {
    case "list":
      return listOutput(
        await service.list({
          scope: input.scope,
          filterType: input.filter_type,
          includeDaily: input.include_daily,
          offset: input.offset,
          limit: input.limit,
        }),
      );
    case "read": {
      if (input.slug === undefined) return missing(action, ["slug"]);
      const result = await service.read({ slug: input.slug, scope: input.scope, offset: input.offset === 0 ? 1 : input.offset, length: input.length });
      return result.ok ? readOutput(result) : refused(result);
    }
    case "search": {
      if (input.query === undefined) return missing(action, ["query"]);
      const result = await service.search({
        query: input.query,
        scope: input.scope,
        filterType: input.filter_type,
        includeDaily: input.include_daily,
        limit: input.limit,
        includeHistory: input.include_history,
        historySince: input.history_since,
        historyUntil: input.history_until,
        historyDateLocal: input.history_date_local,
        historyTimeMode: input.history_time_mode,
        signal: context.signal,
      });
      return searchOutput(input.query, result);
    }
    case "write": {
      const absent = needs(input, ["slug", "scope", "type", "description", "body"]);
      if (absent.length > 0) return missing(action, absent);
      const result = await service.write(
        { slug: input.slug!, scope: input.scope!, type: input.type!, description: input.description!, body: input.body!, ...evidence(input) },
        options,
      );
      return result.ok ? changeOutput(action, result) : refused(result);
    }
    case "update": {
      const absent = needs(input, ["slug", "scope"]);
      if (absent.length > 0) return missing(action, absent);
      if (input.body === undefined && input.description === undefined && input.type === undefined) {
        return missing(action, ["body, description or type (what changes)"]);
      }
      const result = await service.update(
        {
          slug: input.slug!,
          scope: input.scope!,
          ...(input.mode === undefined ? {} : { mode: input.mode }),
          ...(input.body === undefined ? {} : { body: input.body }),
          ...(input.description === undefined ? {} : { description: input.description }),
          ...(input.type === undefined ? {} : { type: input.type }),
          ...evidence(input),
        },
        options,
      );
      return result.ok ? changeOutput(action, result) : refused(result);
    }
    case "delete":
    case "accept": {
      const absent = needs(input, ["slug", "scope"]);
      if (absent.length > 0) return missing(action, absent);
      const request = { slug: input.slug!, scope: input.scope! };
      const result = action === "delete" ? await service.delete(request, options) : await service.accept(request, options);
      return result.ok ? changeOutput(action, result) : refused(result);
    }
  }
}

/**
 * Builds MemoryManager over a service resolver. Refusals are thrown as
 * `ToolError`s ({@link refusalError}). In `ro` mode the changing
 * actions answer "MemoryManager is read-only in this context." and the
 * tool's metadata says read-only; in `rw` mode it does not (calls may ask
 * for approval like any changing tool).
 */
export function createMemoryManagerTool(resolve: MemoryServiceResolver, mode: MemoryToolMode): ToolDefinition<MemoryManagerInput, MemoryManagerDetails> {
  return defineTool<typeof memoryManagerInputSchema, MemoryManagerDetails>({
    name: "MemoryManager",
    description: MEMORY_MANAGER_DESCRIPTION,
    inputSchema: memoryManagerInputSchema,
    metadata: memoryToolMetadata(mode),
    scopes: ["chat", "cron"],
    loopKey: (input) => `${input.action}:${input.scope ?? "auto"}:${input.slug ?? input.query ?? ""}`,
    effects: (input) => memoryManagerEffects(mode, input.action),
    async execute(input, context) {
      if (mode === "ro" && !MEMORY_READ_ACTIONS.includes(input.action)) {
        throw refusalError(input.action, readOnlyMode());
      }
      return run(await resolve(context), input, context);
    },
  });
}
