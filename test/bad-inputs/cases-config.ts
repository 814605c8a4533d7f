/**
 * Corpus cases: experiment and sweep files that are malformed YAML or fail the schema (YAML bomb, alias
 * before anchor, repeated or 1,000,000 ks, a custom file named like a known dataset, a baseURL without scheme,
 * unknown names with "did you mean", a config that is not UTF-8).
 */
import { experimentYaml, lmeItem, pathDataset } from './fixtures.ts';
import { put, runArgs, type BadInputCase, type CaseContext } from './case.ts';

/** A valid tiny dataset plus `exp.yaml` with `yaml` (a function of the dataset path). */
function withData(yaml: (data: string) => string) {
  return (c: CaseContext): void => {
    const data = put(c, 'data.json', JSON.stringify([lmeItem('q1'), lmeItem('q2')]));
    put(c, 'exp.yaml', yaml(data));
  };
}

const ok = (data: string, extra = ''): string => experimentYaml({ datasets: pathDataset(data), extra });

export const configCases: BadInputCase[] = [
  {
    name: 'YAML alias bomb (billion laughs)',
    area: 'config',
    setup: (c) => {
      const lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
      for (let i = 1; i < 9; i++) {
        const prev = String.fromCharCode(96 + i);
        const cur = String.fromCharCode(97 + i);
        lines.push(
          `${cur}: &${cur} [*${prev},*${prev},*${prev},*${prev},*${prev},*${prev},*${prev},*${prev},*${prev}]`,
        );
      }
      put(c, 'exp.yaml', lines.join('\n'));
    },
    args: runArgs(),
    exit: 2,
    first: /^error: .*exp\.yaml: invalid YAML: .*alias/iu,
  },
  {
    name: 'YAML alias before its anchor',
    area: 'config',
    setup: withData(
      (d) => `name: x\ndatasets: *ds\nmethods:\n  - { id: b, method: bm25 }\nother: &ds\n${pathDataset(d)}\n`,
    ),
    args: runArgs(),
    exit: 2,
    first: /^error: .*exp\.yaml: invalid YAML: .*(alias|anchor)/iu,
  },
  {
    name: 'YAML syntax error (unclosed flow sequence)',
    area: 'config',
    setup: (c) => put(c, 'exp.yaml', 'name: x\nmethods: [ { id: b, method: bm25 }\n'),
    args: runArgs(),
    exit: 2,
    first: /^error: .*exp\.yaml: invalid YAML: /u,
  },
  {
    name: 'empty experiment file',
    area: 'config',
    setup: (c) => put(c, 'exp.yaml', ''),
    args: runArgs(),
    exit: 2,
    first: /^error: .*exp\.yaml/u,
  },
  {
    name: 'experiment file is a YAML list, not a mapping',
    area: 'config',
    setup: (c) => put(c, 'exp.yaml', '- a\n- b\n'),
    args: runArgs(),
    exit: 2,
    first: /^error: .*exp\.yaml/u,
  },
  {
    name: 'experiment file not found',
    area: 'config',
    args: () => ['run', 'missing.yaml', '--out', 'r.duckdb'],
    exit: 2,
    first: /^error: missing\.yaml: cannot read experiment file .*(ENOENT|no such file)/u,
  },
  {
    name: 'experiment file is not UTF-8',
    area: 'config',
    setup: (c) => put(c, 'exp.yaml', Buffer.concat([Buffer.from('name: caf'), Buffer.from([0xe9]), Buffer.from('\n')])),
    args: runArgs(),
    exit: 2,
    first: /^error: .*exp\.yaml: experiment file is not valid UTF-8 \(byte 9\)$/u,
  },
  {
    name: 'ks with a repeated cut-off [5, 5, 1]',
    area: 'config',
    setup: withData((d) => ok(d, 'metrics: { ks: [5, 5, 1] }')),
    args: runArgs(),
    exit: 2,
    first: /^error: .*metrics\.ks.*each k once/u,
  },
  {
    name: 'ks with 1,000,000 entries (a 6.9 MB config)',
    area: 'config',
    setup: withData((d) => ok(d, `metrics:\n  ks: [${Array.from({ length: 1_000_000 }, (_, i) => i + 1).join(',')}]`)),
    args: runArgs(),
    exit: 2,
    first: /^error: exp\.yaml: experiment file is 6\.9 MB; a config is at most 1 MiB$/u,
  },
  {
    name: 'ks with 65 entries',
    area: 'config',
    setup: withData((d) => ok(d, `metrics:\n  ks: [${Array.from({ length: 65 }, (_, i) => i + 1).join(',')}]`)),
    args: runArgs(),
    exit: 2,
    first: /^error: exp\.yaml: metrics\.ks: at most 64 cut-offs$/u,
  },
  {
    name: 'k = 0 for a method',
    area: 'config',
    setup: withData((d) => experimentYaml({ datasets: pathDataset(d), methods: '  - { id: b, method: bm25, k: 0 }' })),
    args: runArgs(),
    exit: 2,
    first: /^error: .*methods\.0\.k/u,
  },
  {
    name: 'custom file named like a known dataset (name: longmemeval-oracle + path)',
    area: 'config',
    setup: withData((d) => experimentYaml({ datasets: pathDataset(d, 'longmemeval', 'name: longmemeval-oracle') })),
    args: runArgs(),
    exit: 2,
    first: /^error: exp\.yaml: datasets\.0\.name: is the name of a known dataset; give your file another name$/u,
  },
  {
    name: 'embedder baseURL without a scheme',
    area: 'config',
    setup: withData((d) => ok(d, 'embedder: { name: openai, options: { model: m, baseURL: "localhost:8080/v1" } }')),
    args: runArgs(),
    exit: 2,
    first: /^error: .*baseURL.*(scheme|http)/iu,
  },
  {
    name: 'LLM role baseURL without a scheme',
    area: 'config',
    setup: withData((d) => ok(d, 'llm: { roles: { reader: { model: m, baseURL: "api.example.com/v1" } } }')),
    args: runArgs(),
    exit: 2,
    first: /^error: .*baseURL.*(scheme|http)/iu,
  },
  {
    name: 'unknown method name gets "did you mean"',
    area: 'config',
    setup: withData((d) => experimentYaml({ datasets: pathDataset(d), methods: '  - { id: b, method: bm52 }' })),
    args: runArgs(),
    exit: 2,
    first: /^error: .*unknown method "bm52".*(did you mean|Known).*bm25/iu,
  },
  {
    name: 'unknown firstStage names the field and the choices',
    area: 'config',
    setup: withData((d) =>
      experimentYaml({
        datasets: pathDataset(d),
        methods: '  - { id: a, method: adaptmr, k: 5, options: { firstStage: bm26 } }',
      }),
    ),
    args: runArgs(),
    exit: 2,
    first: /^error: exp\.yaml: methods\.0 \(a\): firstStage: .*"embedding"\|"bm25"\|"hybrid"/u,
  },
  {
    name: 'a plan headline without a level names the field',
    area: 'config',
    setup: withData((d) =>
      ok(d, 'plan: { experiment: adaptmr-vs-baselines, headline: { x: { metric: recall_any, k: 5 } } }'),
    ),
    args: runArgs(),
    exit: 2,
    first: /^error: exp\.yaml: plan\.headline\.x.*level/u,
  },
  {
    name: 'unknown embedder name lists the known ones',
    area: 'config',
    setup: withData((d) => ok(d, 'embedder: { name: wink-sfi }')),
    args: runArgs(),
    exit: 2,
    first: /^error: .*unknown embedder "wink-sfi".*wink-sif/iu,
  },
  {
    name: 'unknown dataset name: did you mean, and the known ones',
    area: 'config',
    setup: (c) => put(c, 'exp.yaml', experimentYaml({ datasets: '  - { name: longmemeval-x }' })),
    args: runArgs(),
    exit: 2,
    first:
      /^error: exp\.yaml: datasets\.0\.name: unknown dataset "longmemeval-x"\. Did you mean "longmemeval-s"\? Known: longmemeval-oracle, /u,
  },
  {
    name: 'misspelt top-level key (method instead of methods)',
    area: 'config',
    setup: withData((d) => `name: x\ndatasets:\n${pathDataset(d)}\nmethod:\n  - { id: b, method: bm25 }\n`),
    args: runArgs(),
    exit: 2,
    first: /^error: .*exp\.yaml.*method/u,
  },
  {
    name: 'two methods with the same id',
    area: 'config',
    setup: withData((d) =>
      experimentYaml({
        datasets: pathDataset(d),
        methods: '  - { id: b, method: bm25 }\n  - { id: b, method: bm25, k: 3 }',
      }),
    ),
    args: runArgs(),
    exit: 2,
    first: /^error: .*"b".*(twice|duplicate|unique)/iu,
  },
  {
    name: 'concurrency: 0 in the config',
    area: 'config',
    setup: withData((d) => ok(d, 'concurrency: 0')),
    args: runArgs(),
    exit: 2,
    first: /^error: .*concurrency/u,
  },
  {
    name: 'unknown method option',
    area: 'config',
    setup: withData((d) =>
      experimentYaml({
        datasets: pathDataset(d),
        methods: '  - { id: b, method: bm25, options: { k1: 1.2, bogus: 1 } }',
      }),
    ),
    args: runArgs(),
    exit: 2,
    first: /^error: .*bogus/u,
  },
  {
    name: 'http-memory method without url',
    area: 'config',
    setup: withData((d) =>
      experimentYaml({
        datasets: pathDataset(d),
        methods: '  - { id: mine, method: http-memory, options: { apiKeyEnv: MY_KEY } }',
      }),
    ),
    args: runArgs(),
    exit: 2,
    first: /^error: .*methods\.0 \(mine\): url: missing/u,
  },
  {
    name: 'http-memory method with a key instead of the name of its variable',
    area: 'config',
    setup: withData((d) =>
      experimentYaml({
        datasets: pathDataset(d),
        methods:
          "  - { id: mine, method: http-memory, options: { url: 'http://127.0.0.1:8765', apiKeyEnv: 'sk-live 123' } }",
      }),
    ),
    args: runArgs(),
    exit: 2,
    first: /^error: .*apiKeyEnv.*environment variable name/u,
  },
  {
    name: 'sweep file that is not valid YAML',
    area: 'config',
    setup: (c) => put(c, 'sweep.yaml', 'name: s\nbase: [\n'),
    args: () => ['sweep', 'sweep.yaml', '--out', 'out'],
    exit: 2,
    first: /^error: .*sweep\.yaml: invalid YAML/u,
  },
  {
    name: 'gold errata on a dataset without an overlay (only LoCoMo and LongMemEval have one)',
    area: 'config',
    setup: (c) =>
      put(c, 'exp.yaml', experimentYaml({ datasets: '  - { name: beam-100k, gold: { answers: errata } }' })),
    args: runArgs(),
    exit: 2,
    first: /^error: .*exp\.yaml.*gold.*errata exists for LoCoMo \(the audit\) and LongMemEval/u,
  },
  {
    name: 'a judge panel without a judge endpoint',
    area: 'config',
    setup: withData((d) =>
      ok(d, 'llm:\n  roles:\n    reader: { model: r }\nqa:\n  judges:\n    - { id: a, model: m }'),
    ),
    args: runArgs(),
    exit: 2,
    first: /^error: .*exp\.yaml: qa\.judges needs llm\.roles\.judge/u,
  },
  {
    name: 'a judge panel naming one id twice',
    area: 'config',
    setup: withData((d) =>
      ok(
        d,
        'llm:\n  roles:\n    reader: { model: r }\n    judge: { model: j }\nqa:\n  judges:\n    - { id: a, model: m }\n    - { id: a, model: n }',
      ),
    ),
    args: runArgs(),
    exit: 2,
    first: /^error: .*exp\.yaml.*each judge id once/u,
  },
];
