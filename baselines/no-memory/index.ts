/** The no-memory (closed-book) control. */
export * from './no-memory-method.ts';
