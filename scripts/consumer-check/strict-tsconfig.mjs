// The tsconfig of the consumer check's TypeScript projects: what a careful
// consumer turns on (strict, exact optional properties, checked index access),
// with the libraries' own declaration files checked too (skipLibCheck: false).

/** A strict consumer tsconfig that compiles `include` and emits nothing. */
export function strictConsumerTsconfig(include) {
  return {
    compilerOptions: {
      target: "ES2022",
      module: "NodeNext",
      moduleResolution: "NodeNext",
      strict: true,
      exactOptionalPropertyTypes: true,
      noUncheckedIndexedAccess: true,
      skipLibCheck: false,
      noEmit: true,
      types: ["node"],
    },
    include,
  };
}
