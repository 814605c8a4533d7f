/** Zep over HTTP (Cloud v3, v4, Graphiti server). */
export { zepEntry, ZepOptionsSchema } from './zep-method.ts';
