/**
 * The official LongMemEval BM25 pipeline (github.com/xiaowu0162/LongMemEval, `src/retrieval/run_retrieval.py
 * --retriever flat-bm25`), run unmodified beside ours by the benchmarks (bench-retrieval.ts, bench-scale.ts): whether
 * it can run here, the environment it runs in, and one measured run. Its top-level imports that flat-bm25 never
 * calls (torch, transformers, sentence-transformers, sklearn, the openai client) are satisfied by empty stand-in
 * modules on PYTHONPATH, and numpy 2's removed `np.asfarray` is restored as `np.asarray(…, dtype=float)` (a
 * sitecustomize).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runPython, type Measured } from './bench-process.ts';

const STUBS: Record<string, string> = {
  'torch/__init__.py':
    'class _Cuda:\n    @staticmethod\n    def device_count():\n        return 0\ncuda = _Cuda()\nclass Tensor: pass\ndef device(*a, **k): return None\n',
  'torch/nn/__init__.py': '',
  'torch/nn/functional.py': '',
  'torch/utils/__init__.py': '',
  'torch/utils/data.py': 'class DataLoader: pass\n',
  'sentence_transformers/__init__.py': 'class SentenceTransformer: pass\nutil = None\n',
  'transformers/__init__.py': 'class AutoModel: pass\nclass AutoTokenizer: pass\n',
  'sklearn/__init__.py': '',
  'sklearn/preprocessing.py':
    'def normalize(*a, **k):\n    raise NotImplementedError("stand-in: flat-bm25 never normalises")\n',
  'openai/__init__.py': 'class OpenAI:\n    def __init__(self, **kwargs):\n        pass\n',
  'sitecustomize.py':
    'import numpy as np\nif not hasattr(np, "asfarray"):\n    np.asfarray = lambda a, dtype=float: np.asarray(a, dtype=dtype)\n',
};

/** Why the official pipeline cannot run here, or undefined when it can. */
export function officialObstacle(dir: string | undefined): string | undefined {
  if (!dir) return 'OFFICIAL_LME_DIR is not set';
  if (!existsSync(join(dir, 'src/retrieval/run_retrieval.py'))) return `${dir} has no src/retrieval/run_retrieval.py`;
  const r = spawnSync('python3', ['-c', 'import rank_bm25, numpy, tqdm, nltk'], { encoding: 'utf8' });
  if (r.status !== 0)
    return `python3 cannot import rank_bm25/numpy/tqdm/nltk (${(r.stderr.trim().split('\n').pop() ?? '').trim()})`;
  return undefined;
}

/** Writes the stand-ins under `dir` and returns the environment: stand-ins first, then the official code and whatever
 * PYTHONPATH holds (e.g. a --target dir with rank_bm25). */
export function officialEnv(dir: string, officialDir: string): NodeJS.ProcessEnv {
  const stubs = join(dir, 'stubs');
  for (const [rel, text] of Object.entries(STUBS)) {
    mkdirSync(join(stubs, rel, '..'), { recursive: true });
    writeFileSync(join(stubs, rel), text);
  }
  return { ...process.env, PYTHONPATH: [stubs, officialDir, process.env.PYTHONPATH].filter(Boolean).join(':') };
}

/** One run of the official flat-bm25 retrieval on `inFile` (one JSON array of items) at `granularity`. */
export function runOfficialBm25(
  officialDir: string,
  env: NodeJS.ProcessEnv,
  inFile: string,
  outDir: string,
  granularity: 'session' | 'turn',
  maxProcessBytes?: number,
): Measured {
  mkdirSync(outDir, { recursive: true });
  const args = [
    'src/retrieval/run_retrieval.py',
    '--in_file',
    inFile,
    '--out_dir',
    outDir,
    '--retriever',
    'flat-bm25',
    '--granularity',
    granularity,
  ];
  return runPython(args, { cwd: officialDir, env, ...(maxProcessBytes ? { maxProcessBytes } : {}) });
}
