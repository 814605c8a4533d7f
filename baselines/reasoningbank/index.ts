export {
  reasoningBankEntry,
  createReasoningBankMethod,
  ReasoningBankOptionsSchema,
  type ReasoningBankOptions,
} from './reasoningbank-method.ts';
