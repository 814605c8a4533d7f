/** The best-strategy upper bound is pure arithmetic over scores and lives in src/eval/analysis (the report's plan
 * experiment 2 section uses it too); re-exported here for the analysis commands. */
export * from '../../eval/analysis/best-strategy.ts';
