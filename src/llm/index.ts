/** The LLM layer: OpenAI-compatible client per role, content-addressed cache, retries, limits, accounting. */
export * from './cache.ts';
export * from './client.ts';
export * from './config.ts';
export * from './cost.ts';
export * from './errors.ts';
export * from './json-reply.ts';
export * from './provider.ts';
export * from './retry.ts';
export * from './scheduler.ts';
export * from './tokens.ts';
