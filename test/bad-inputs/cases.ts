/** The whole malformed-input corpus: every area's cases in one table (bad-inputs.test.ts runs it). */
import type { BadInputCase } from './case.ts';
import { flagCases, pathCases, resultsCases } from './cases-cli.ts';
import { configCases } from './cases-config.ts';
import { datasetCases } from './cases-dataset.ts';
import { apiCases, modelCases } from './cases-model-api.ts';
import { hostileCases } from './cases-hostile.ts';

export const CASES: BadInputCase[] = [
  ...configCases,
  ...datasetCases,
  ...flagCases,
  ...pathCases,
  ...resultsCases,
  ...modelCases,
  ...apiCases,
  ...hostileCases,
];
