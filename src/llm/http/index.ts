/** HTTP clients of services other than LLMs (memory servers), on the LLM layer's limits, retries and cache layout. */
export * from './json-http.ts';
export * from './response-cache.ts';
