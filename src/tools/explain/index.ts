/** Re-exports of the case-study tool (`adaptmr explain`). */
export { explainQuestion, PREVIEW_CHARS, type ExplainResult, type ExplainedMethod, type ExplainedUnit, type ExplainOptions } from './explain.ts';
export { formatExplain } from './format.ts';
