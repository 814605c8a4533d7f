/** The experiment's `qa:` block; the schema lives in src/core (the experiment schema includes it). */
export { QaConfigSchema, type QaConfig } from '../../core/qa-config.ts';
