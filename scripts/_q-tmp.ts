import { openResultStore } from '../src/store/index.ts';
const store = await openResultStore(process.argv[2]!, { readOnly: true });
const rows = await store.query<Record<string, unknown>>(process.argv[3]!);
for (const r of rows) console.log(Object.values(r).map((v) => (typeof v === 'number' ? (Number.isInteger(v) ? v : (v * 100).toFixed(1)) : v)).join(' | '));
await store.close();
