/** The verdicts of one plan experiment, as stored, for its report section (src/report/verdict-table.ts). */
import { readVerdicts, type ResultStore } from '../../store/index.ts';
import { loadMethodMarks } from '../series-label.ts';
import { verdictTable } from '../verdict-table.ts';

export async function sectionVerdicts(store: ResultStore, experiment: string, title = 'Verdicts'): Promise<string> {
  const rows = await readVerdicts(store, { experiment });
  if (rows.length === 0) return `${title}: none stored (run \`adaptmr report\` on a writable file to compute them)`;
  return verdictTable(rows, title, await loadMethodMarks(store));
}
