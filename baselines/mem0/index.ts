/** Mem0 over HTTP (OSS server, Platform v3). */
export { mem0Entry, Mem0OptionsSchema } from './mem0-method.ts';
