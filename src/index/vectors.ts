/**
 * Vector arithmetic on embedder output. Embedders return unit-length vectors, so the dot product is the cosine; this is
 * the one implementation every method and strategy uses.
 */
export function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}
