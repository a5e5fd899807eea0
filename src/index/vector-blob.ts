/**
 * The `vectors.vector` column's format: float32 values, little-endian as the platform writes
 * them, nothing else. One place encodes and decodes it.
 */

/** The blob for a vector (a view of its bytes, no copy). */
export function vectorToBlob(vector: Float32Array): Buffer {
  return Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength);
}

/** A vector from its blob, copied (SQLite's buffers need not be 4-byte aligned). */
export function vectorFromBlob(blob: Uint8Array): Float32Array {
  const vector = new Float32Array(blob.byteLength >> 2);
  new Uint8Array(vector.buffer).set(blob.subarray(0, vector.byteLength));
  return vector;
}
