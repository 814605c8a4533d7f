/** The seeded selection / report split lives in src/eval/analysis (shared with the report); re-exported here. */
export * from '../../eval/analysis/split.ts';
