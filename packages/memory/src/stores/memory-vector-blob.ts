/**
 * Vectors as the tables store them: float32 components, little-endian, in a
 * BLOB (SQLite) or bytea (PostgreSQL) of `4 * dimension` bytes. Decoding
 * returns a view over the driver's buffer when it is aligned and the host
 * is little-endian (no copy), else a copy.
 */
import { SdkError } from "@agent-tools/core";

const LITTLE_ENDIAN_HOST = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** The bytes of a vector: a view over its own memory on a little-endian host. */
export function encodeVector(vector: Float32Array): Uint8Array {
  if (LITTLE_ENDIAN_HOST) return Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength);
  const bytes = Buffer.alloc(vector.byteLength);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let index = 0; index < vector.length; index += 1) view.setFloat32(index * 4, vector[index] as number, true);
  return bytes;
}

/**
 * The vector in `bytes` (as a driver returns a BLOB or bytea: a Buffer or
 * Uint8Array). Throws `SdkError("storage")` when the length does not match
 * `dimension` (a corrupted row; the table's check constraint prevents it).
 */
export function decodeVector(bytes: Uint8Array, dimension: number): Float32Array {
  if (bytes.byteLength !== dimension * 4) {
    throw new SdkError("storage", `A stored vector has ${bytes.byteLength} bytes for ${dimension} components; the memory_vectors table is corrupt.`, {
      bytes: bytes.byteLength,
      dimension,
    });
  }
  if (LITTLE_ENDIAN_HOST) {
    if (bytes.byteOffset % 4 === 0) return new Float32Array(bytes.buffer, bytes.byteOffset, dimension);
    return new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return Float32Array.from({ length: dimension }, (_, index) => view.getFloat32(index * 4, true));
}
