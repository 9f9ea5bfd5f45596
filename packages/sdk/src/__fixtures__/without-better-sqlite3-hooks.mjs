// Module resolution hooks of without-better-sqlite3.mjs.
let simulate = "missing";

export function initialize(data) {
  simulate = data?.simulate ?? simulate;
}

export async function resolve(specifier, context, next) {
  if (specifier !== "better-sqlite3") return next(specifier, context);
  if (simulate === "unbuilt") {
    const source = "throw new Error('Could not locate the bindings file. Tried: build/Release/better_sqlite3.node');";
    return { url: `data:text/javascript,${encodeURIComponent(source)}`, shortCircuit: true };
  }
  throw Object.assign(new Error(`Cannot find package 'better-sqlite3' imported from ${context.parentURL}`), { code: "ERR_MODULE_NOT_FOUND" });
}
