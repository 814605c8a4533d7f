/**
 * The memory behind the reference MCP memory server (server.ts): one bank per `agent_id`, each trajectory step one
 * memory item, ranked by Okapi BM25 (k1 1.2, b 0.75, Lucene's IDF) over the project's standard analyser (lower-case,
 * English stemmed, Chinese segmented into words and characters: src/index/analysers/standard.ts), so a Chinese
 * question finds a Chinese memory. Items carry the fields ReasoningBank's items have (`memory_id`, `title`,
 * `content`, `success`, `agent_id`, `timestamp`: hanw39/ReasoningBank-MCP@29e62c3 src/tools/extract_memory.py), and
 * extraction is asynchronous by default as there (`async_mode` true: the reply says "processing", the items appear
 * once the queue reaches them, in submission order).
 */
import { appendFileSync } from 'node:fs';
import { defaultTokenizer } from '../../src/index/tokenizers.ts';

const K1 = 1.2;
const B = 0.75;
const tokenize = defaultTokenizer({ stopwords: true });

export interface TrajectoryStep {
  step: number;
  role: string;
  content: string;
  metadata?: Record<string, unknown> | undefined;
}

export interface MemoryItem {
  memory_id: string;
  agent_id: string | null;
  title: string;
  content: string;
  success: boolean;
  timestamp: string | null;
  /** The caller's ids of the step (its `metadata.unit_id`), echoed so a benchmark can score retrieval. */
  unit_ids: string[];
  terms: string[];
}

export interface Hit {
  item: MemoryItem;
  score: number;
}

class Bank {
  readonly items: MemoryItem[] = [];
  private readonly df = new Map<string, number>();
  private totalLength = 0;

  add(item: MemoryItem): void {
    this.items.push(item);
    for (const t of new Set(item.terms)) this.df.set(t, (this.df.get(t) ?? 0) + 1);
    this.totalLength += item.terms.length;
  }

  search(query: string, k: number): Hit[] {
    const n = this.items.length;
    if (n === 0) return [];
    const avg = this.totalLength / n || 1;
    const q = new Set(tokenize(query));
    const scored: { score: number; i: number; item: MemoryItem }[] = [];
    this.items.forEach((item, i) => {
      const tf = new Map<string, number>();
      for (const t of item.terms) if (q.has(t)) tf.set(t, (tf.get(t) ?? 0) + 1);
      let score = 0;
      for (const [t, f] of tf) {
        const df = this.df.get(t)!;
        const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
        score += idf * ((f * (K1 + 1)) / (f + K1 * (1 - B + (B * item.terms.length) / avg)));
      }
      if (score > 0) scored.push({ score, i, item });
    });
    scored.sort((a, b) => b.score - a.score || a.i - b.i);
    return scored.slice(0, k).map(({ score, item }) => ({ item, score: Math.round(score * 1e6) / 1e6 }));
  }
}

export interface MemoryStoreOptions {
  /** Delay before queued extractions are processed (async mode). */
  delayMs?: number;
  /** Never process queued extractions (a server stuck in "processing"; tests of `ingestTimeoutMs`). */
  stall?: boolean;
  /** A file to which each answered request appends one line (its method; a tool call's name and agent_id): counts a
   * stdio server's requests and shows its namespaces. */
  requestLog?: string | undefined;
}

/** All banks of one server process, shared by every connection (stdio, or each stateless HTTP request). */
export class MemoryStore {
  private readonly banks = new Map<string, Bank>();
  private readonly queue: (() => void)[] = [];
  private next = 0;
  private timer: NodeJS.Timeout | undefined;
  /** JSON-RPC requests answered (initialize, tools/list, tools/call): tests check every one is accounted for. */
  requests = 0;

  constructor(private readonly o: MemoryStoreOptions = {}) {}

  /** Counts (and logs, with `requestLog`) one answered request. */
  answered(method: string): void {
    this.requests++;
    if (this.o.requestLog) appendFileSync(this.o.requestLog, `${method}\n`);
  }

  /** Stores each step as one item; `async` queues the work and returns at once. Returns the items' ids. */
  extract(steps: TrajectoryStep[], query: string, success: boolean, agentId: string | null, async: boolean): string[] {
    const ids = steps.map(() => `mem_${(this.next++).toString(36).padStart(6, '0')}`);
    const work = () => {
      const bank = this.bank(agentId);
      steps.forEach((s, i) => {
        const time = typeof s.metadata?.time === 'string' ? s.metadata.time : null;
        const title = `${query} #${s.step}`;
        bank.add({
          memory_id: ids[i]!,
          agent_id: agentId,
          title,
          content: s.content,
          success,
          timestamp: time,
          unit_ids: typeof s.metadata?.unit_id === 'string' ? [s.metadata.unit_id] : [],
          terms: tokenize(s.content),
        });
      });
    };
    if (!async) work();
    else this.enqueue(work);
    return ids;
  }

  search(query: string, k: number, agentId: string | null): Hit[] {
    return this.banks.get(agentId ?? '')?.search(query, k) ?? [];
  }

  /** Extractions still queued (any agent). */
  get pending(): number {
    return this.queue.length;
  }

  private bank(agentId: string | null): Bank {
    const key = agentId ?? '';
    let b = this.banks.get(key);
    if (!b) this.banks.set(key, (b = new Bank()));
    return b;
  }

  private enqueue(work: () => void): void {
    this.queue.push(work);
    if (this.o.stall || this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      for (const w of this.queue.splice(0)) w();
    }, this.o.delayMs ?? 20);
    this.timer.unref();
  }
}
