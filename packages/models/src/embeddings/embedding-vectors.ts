/**
 * Checks what an embedding provider answered before it reaches a caller:
 * one vector per text, each of the expected length, every component finite
 * (the port's contract). Also decodes the base64 form of a vector
 * (little-endian float32, as OpenAI's `encoding_format: "base64"` sends it).
 */

const LITTLE_ENDIAN_HOST = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** A vector as a provider sends it: an array of numbers or base64 of little-endian float32. */
export type RawEmbedding = unknown;

/**
 * Decodes base64 of little-endian float32 values, or returns a reason when
 * the text is not base64 of a whole number of floats.
 */
export function decodeBase64Float32(text: string): Float32Array | string {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text)) return "a base64 vector holds characters outside base64";
  const bytes = Buffer.from(text, "base64");
  if (bytes.byteLength % 4 !== 0) return `a base64 vector decodes to ${bytes.byteLength} bytes, not a whole number of float32 values`;
  if (LITTLE_ENDIAN_HOST) {
    // A copy into a fresh, aligned buffer read as float32 directly (Buffer.from may hand out an unaligned slice of its pool).
    const copy = new Uint8Array(bytes.byteLength);
    copy.set(bytes);
    return new Float32Array(copy.buffer);
  }
  const vector = new Float32Array(bytes.byteLength / 4);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let index = 0; index < vector.length; index += 1) vector[index] = view.getFloat32(index * 4, true);
  return vector;
}

/**
 * One raw vector as a checked `Float32Array` of length `dimension` with
 * finite components, or the reason it is not one (for an
 * `invalid_response` message). `position` names the vector in the reason.
 */
export function toCheckedVector(raw: RawEmbedding, dimension: number, position: number): Float32Array | string {
  let vector: Float32Array;
  if (typeof raw === "string") {
    const decoded = decodeBase64Float32(raw);
    if (typeof decoded === "string") return `vector ${position}: ${decoded}`;
    vector = decoded;
  } else if (Array.isArray(raw) || raw instanceof Float32Array || raw instanceof Float64Array) {
    if (raw.length !== dimension) return `vector ${position} has ${raw.length} components, not ${dimension}`;
    vector = new Float32Array(raw.length);
    for (let index = 0; index < raw.length; index += 1) {
      const component: unknown = raw[index];
      if (typeof component !== "number") return `vector ${position} has a component that is not a number (${typeof component} at ${index})`;
      vector[index] = component;
    }
  } else {
    return `vector ${position} is ${raw === null ? "null" : typeof raw}, not an array of numbers`;
  }
  if (vector.length !== dimension) return `vector ${position} has ${vector.length} components, not ${dimension}`;
  for (let index = 0; index < vector.length; index += 1) {
    // A finite float64 beyond the float32 range becomes Infinity here, and is refused too.
    if (!Number.isFinite(vector[index])) return `vector ${position} has a component that is not finite (${vector[index]} at ${index})`;
  }
  return vector;
}

/**
 * The checked vectors of one provider answer, or the reason the answer is
 * refused: the count must equal `expectedCount` and every vector pass
 * {@link toCheckedVector}.
 */
export function toCheckedVectors(raw: readonly RawEmbedding[], expectedCount: number, dimension: number): Float32Array[] | string {
  if (raw.length !== expectedCount) return `${raw.length} vectors came back for ${expectedCount} texts`;
  const vectors: Float32Array[] = [];
  for (let position = 0; position < raw.length; position += 1) {
    const vector = toCheckedVector(raw[position], dimension, position);
    if (typeof vector === "string") return vector;
    vectors.push(vector);
  }
  return vectors;
}
