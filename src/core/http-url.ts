/**
 * An endpoint URL in a config: must be http(s) with its scheme. `z.string().url()` alone accepts `localhost:8000/v1`
 * (scheme "localhost:"), which then fails — or hangs in retries — only once questions run.
 */
import { z } from 'zod';

export const HttpUrlSchema = z
  .string()
  .url()
  .refine((u) => /^https?:\/\/[^/]/i.test(u), 'an http(s) URL with its scheme, e.g. http://localhost:8000/v1');
