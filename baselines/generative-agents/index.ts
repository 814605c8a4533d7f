export {
  generativeAgentsEntry,
  createGenerativeAgentsMethod,
  GenerativeAgentsOptionsSchema,
  type GenerativeAgentsOptions,
} from './generative-agents-method.ts';
