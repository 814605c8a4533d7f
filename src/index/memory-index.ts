/**
 * The searchable memory of one haystack (core `MemoryIndex`): units cut per the IndexSpec, Okapi BM25 built on the
 * first keyword call, unit embeddings computed once on the first semantic call. Query embeddings are memoised per
 * text within the index. Semantic scores are dot products of unit vectors, i.e. cosines; ranking ties go to the
 * earlier unit (or the later one with the BM25 option `tieBreak: 'reverse'`, see top-k.ts).
 */
import { tagStage } from '../core/errors.ts';
import type { Embedder, IndexSpec, MemoryIndex } from '../core/interfaces.ts';
import type { MemoryUnit, ScoredUnit, Session } from '../core/types.ts';
import { type Bm25Index, Bm25OptionsSchema, type Bm25Options } from './bm25.ts';
import { bm25Settings, sharedBm25 } from './bm25-shared.ts';
import { topK, type TieBreak } from './top-k.ts';
import { buildUnits } from './units.ts';

export interface MemoryIndexOptions {
  bm25?: Bm25Options;
  /** Keep empty-text units (exact official LongMemEval BM25 parity); see units.ts. Defaults to `spec.keepEmpty`. */
  keepEmpty?: boolean;
}

class LazyMemoryIndex implements MemoryIndex {
  readonly units: readonly MemoryUnit[];
  private readonly byId: Map<string, MemoryUnit>;
  private readonly tieBreak: TieBreak;
  private bm25: Bm25Index | undefined;
  private unitVectors: Promise<Float32Array[]> | undefined;
  private readonly queryVectors = new Map<string, Promise<Float32Array>>();

  constructor(
    haystack: readonly Session[],
    readonly spec: IndexSpec,
    readonly embedder: Embedder,
    private readonly bm25Options: Bm25Options,
    keepEmpty: boolean,
  ) {
    this.units = buildUnits(haystack, spec, { keepEmpty });
    this.byId = new Map(this.units.map((u) => [u.id, u]));
    this.tieBreak = Bm25OptionsSchema.parse(bm25Options).tieBreak;
  }

  /** Whether BM25 / unit embeddings have been built (for tests of laziness and for benchmarks). */
  get built(): { bm25: boolean; embeddings: boolean } {
    return { bm25: this.bm25 !== undefined, embeddings: this.unitVectors !== undefined };
  }

  unit(id: string): MemoryUnit | undefined {
    return this.byId.get(id);
  }

  keywordScores(text: string): Float64Array {
    if (this.units.length === 0) return new Float64Array(0);
    // Shared with a `bm25` method whose settings are the same (bm25-shared.ts).
    this.bm25 ??= sharedBm25(this.units, bm25Settings(this.bm25Options));
    return this.bm25.scores(text);
  }

  keyword(text: string, k: number): ScoredUnit[] {
    return topK(this.keywordScores(text), k, this.units, { tieBreak: this.tieBreak, dropZero: true });
  }

  vectors(): Promise<readonly Float32Array[]> {
    this.unitVectors ??= this.embedUnits();
    return this.unitVectors;
  }

  private async embedUnits(): Promise<Float32Array[]> {
    if (this.units.length === 0) return [];
    // Embedding the haystack is memorising: a failure here is counted as one in the run summary.
    const vectors = await this.embedder.embed(this.units.map((u) => u.text)).catch((err: unknown) => {
      throw tagStage(err, 'index:embed');
    });
    if (vectors.length !== this.units.length) {
      throw new Error(`embedder ${this.embedder.id} returned ${vectors.length} vectors for ${this.units.length} units`);
    }
    return vectors;
  }

  private queryVector(text: string): Promise<Float32Array> {
    let p = this.queryVectors.get(text);
    if (!p) {
      p = this.embedder.embed([text]).then(([v]) => {
        if (!v) throw new Error(`embedder ${this.embedder.id} returned no vector for the query`);
        return v;
      });
      // A failed embedding is not memoised, so a retry can succeed (errors are never cached).
      p.catch(() => this.queryVectors.delete(text));
      this.queryVectors.set(text, p);
    }
    return p;
  }

  async semanticScores(text: string): Promise<Float32Array> {
    const [q, vectors] = await Promise.all([this.queryVector(text), this.vectors()]);
    const out = new Float32Array(vectors.length);
    const nz = sparseEntries(q);
    for (let i = 0; i < vectors.length; i++) {
      const v = vectors[i]!;
      let s = 0;
      if (nz) for (let t = 0; t < nz.length; t++) s += q[nz[t]!]! * v[nz[t]!]!;
      else for (let j = 0; j < q.length; j++) s += q[j]! * v[j]!;
      out[i] = s;
    }
    return out;
  }

  async semantic(text: string, k: number): Promise<ScoredUnit[]> {
    return topK(await this.semanticScores(text), k, this.units);
  }
}

/**
 * The indices of a query vector's non-zero entries, in order, when they are fewer than half of them (else undefined:
 * the plain loop is faster). Leaving out the zero entries gives the same dot product, bit for bit: a term q_j·v_j
 * with q_j = 0 is ±0, and adding ±0 to a sum that starts at +0 changes nothing, since every unit vector is finite
 * (the embedders' conformance suite checks it; the OpenAI client rejects a reply that is not). wink-sif queries use
 * ~100 of their 1,124 entries (the 1,024 hashed buckets hold only a text's unknown words).
 */
function sparseEntries(q: Float32Array): Int32Array | undefined {
  let n = 0;
  for (let j = 0; j < q.length; j++) if (q[j] !== 0) n++;
  if (2 * n >= q.length) return undefined;
  const nz = new Int32Array(n);
  for (let j = 0, t = 0; j < q.length; j++) if (q[j] !== 0) nz[t++] = j;
  return nz;
}

export function createMemoryIndex(
  haystack: readonly Session[],
  spec: IndexSpec,
  embedder: Embedder,
  opts: MemoryIndexOptions = {},
): MemoryIndex & { readonly built: { bm25: boolean; embeddings: boolean } } {
  return new LazyMemoryIndex(haystack, spec, embedder, opts.bm25 ?? {}, opts.keepEmpty ?? spec.keepEmpty ?? false);
}
