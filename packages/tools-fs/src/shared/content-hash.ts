/**
 * FNV-1a 64-bit content hashing (offset basis 0xcbf29ce484222325, prime
 * 0x100000001b3), rendered as 16 lowercase hex characters.
 *
 * The byte loop runs in a tiny WebAssembly function (src/wasm/fnv-hash.wat;
 * i64 arithmetic, about 4x faster than 32-bit JavaScript emulation); a pure
 * JavaScript loop is the fallback where WebAssembly is unavailable.
 */
import { type FnvKernel, createFnvKernel } from "../fast-io/wasm-kernels.js";

const OFFSET_BASIS = 0xcbf29ce484222325n;
const CHUNK = 4 * 1024 * 1024;

const DATA_OFFSET = 8;

/**
 * An incremental FNV-1a 64 hasher: feed chunks in order, then read
 * {@link ContentHasher.digest}. It counts lines in the same pass.
 *
 * @param kernel the WebAssembly instance to hash with (a bundle passes its
 *   own, see fast-io.ts); default one of its own, made on first use; null
 *   for the JavaScript loop
 */
export class ContentHasher {
  constructor(private kernel?: FnvKernel | null) {}

  private state = OFFSET_BASIS;
  private newlines = 0;
  private size = 0;
  private lastByte = -1;

  /** Feeds the next bytes. */
  update(bytes: Uint8Array): this {
    if (bytes.length === 0) return this;
    this.size += bytes.length;
    this.lastByte = bytes[bytes.length - 1]!;
    const hasher = this.kernel === undefined ? (this.kernel = createFnvKernel()) : this.kernel;
    if (!hasher) {
      const [state, newlines] = updateJs(this.state, bytes);
      this.state = state;
      this.newlines += newlines;
      return this;
    }
    for (let offset = 0; offset < bytes.length; offset += CHUNK) {
      const piece = bytes.subarray(offset, Math.min(bytes.length, offset + CHUNK));
      const pages = Math.ceil((piece.length + DATA_OFFSET) / 65536) - hasher.memory.buffer.byteLength / 65536;
      if (pages > 0) hasher.memory.grow(pages);
      new Uint8Array(hasher.memory.buffer, DATA_OFFSET, piece.length).set(piece);
      this.state = BigInt.asUintN(64, hasher.fnv(DATA_OFFSET, piece.length, BigInt.asIntN(64, this.state)));
      this.newlines += new Uint32Array(hasher.memory.buffer, 0, 1)[0]!;
    }
    return this;
  }

  /**
   * Continues from `hash`, the {@link ContentHasher.digest} of bytes hashed
   * elsewhere (the digest is the whole FNV state); {@link ContentHasher.lineCount}
   * then counts only what is fed from here.
   */
  resume(hash: string): this {
    this.state = BigInt(`0x${hash}`);
    return this;
  }

  /** The hash so far as 16 hex characters. */
  digest(): string {
    return this.state.toString(16).padStart(16, "0");
  }

  /** Lines in the bytes so far (split inclusively of `\n`: a last line without one counts). */
  lineCount(): number {
    if (this.size === 0) return 0;
    return this.lastByte === 10 ? this.newlines : this.newlines + 1;
  }
}

function updateJs(state: bigint, bytes: Uint8Array): [bigint, number] {
  let lo = Number(state & 0xffffffffn) >>> 0;
  let hi = Number(state >> 32n) >>> 0;
  let newlines = 0;
  for (let index = 0; index < bytes.length; index += 1) {
    const byte = bytes[index]!;
    if (byte === 10) newlines += 1;
    lo = (lo ^ byte) >>> 0;
    const product = lo * 435;
    const nextLo = product >>> 0;
    hi = (Math.imul(hi, 435) + Math.floor(product / 4294967296) + (lo << 8)) >>> 0;
    lo = nextLo;
  }
  return [(BigInt(hi) << 32n) | BigInt(lo), newlines];
}

/**
 * FNV-1a 64 of `bytes` as 16 hex characters.
 *
 * @example
 * contentHash(Buffer.from("")); // "cbf29ce484222325"
 */
export function contentHash(bytes: Uint8Array): string {
  return new ContentHasher().update(bytes).digest();
}

/** The pure JavaScript implementation, exported for tests comparing both. */
export function contentHashJs(bytes: Uint8Array): string {
  return updateJs(OFFSET_BASIS, bytes)[0].toString(16).padStart(16, "0");
}
