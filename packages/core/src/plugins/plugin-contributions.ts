/** The slots of one registry: values plugins hand each other (see `PluginSlot`). */
import type { PluginSlot } from "./tool-plugin.js";

/** A registry's slot values: `add` from plugins, `read` (live) by plugins and ports. */
export interface PluginContributions {
  add<T>(slot: PluginSlot<T>, value: T): void;
  read<T>(slot: PluginSlot<T>): readonly T[];
}

/** Empty slots for one registry. */
export function createPluginContributions(): PluginContributions {
  const values = new Map<string, unknown[]>();
  return {
    add<T>(slot: PluginSlot<T>, value: T) {
      const list = values.get(slot.name);
      if (list === undefined) values.set(slot.name, [value]);
      else list.push(value);
    },
    read<T>(slot: PluginSlot<T>): readonly T[] {
      return (values.get(slot.name) ?? []) as readonly T[];
    },
  };
}
