/** Full-context baseline (the whole haystack, newest kept under a token budget). */
export * from './full-context-method.ts';
