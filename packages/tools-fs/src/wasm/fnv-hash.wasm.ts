// Generated from fnv-hash.wat by scripts/build-wasm.mjs: do not edit; edit the .wat and run `node scripts/build-wasm.mjs`.

/** The WebAssembly binary assembled from fnv-hash.wat (122 bytes). */
export const FNV_HASH_WASM = new Uint8Array([
  0, 97, 115, 109, 1, 0, 0, 0, 1, 8, 1, 96, 3, 127, 127, 126, 1, 126, 3, 2, 1, 0, 5, 3, 1, 0, 1, 7, 13, 2, 3, 109,
  101, 109, 2, 0, 3, 102, 110, 118, 0, 0, 10, 78, 1, 76, 1, 1, 127, 32, 0, 32, 1, 106, 33, 1, 2, 64, 32, 0, 32, 1, 79, 13,
  0, 3, 64, 32, 2, 32, 0, 49, 0, 0, 133, 66, 179, 131, 128, 128, 128, 32, 126, 33, 2, 32, 3, 32, 0, 45, 0, 0, 65, 10, 70, 106,
  33, 3, 32, 0, 65, 1, 106, 34, 0, 32, 1, 73, 13, 0, 11, 11, 65, 0, 32, 3, 54, 2, 0, 32, 2, 11,
]);
