/**
 * The chat request and answer shapes the fake OpenAI server (fake-openai-server.ts) and its Batch API endpoints
 * (fake-batch-endpoints.ts) share: their own module, so neither of the two imports the other for them.
 */

/** The body of a chat completion request, as the fake server reads it. */
export interface ChatRequestBody {
  model: string;
  messages: { role: string; content: string }[];
  temperature?: number;
  max_tokens?: number;
  response_format?: { type: string; json_schema?: { name: string; schema: unknown } };
  logprobs?: boolean;
  top_logprobs?: number;
  prompt_cache_key?: string;
}

/** An answer before it is written: the HTTP status and the JSON body (or, for `malformed`, a broken body text). */
export interface ChatAnswer {
  status: number;
  json?: unknown;
  text?: string;
  headers?: Record<string, string>;
}
