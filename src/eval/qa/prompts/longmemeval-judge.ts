/**
 * LongMemEval's answer-checking (judge) prompts, verbatim.
 *
 * Source: xiaowu0162/LongMemEval, `src/evaluation/evaluate_qa.py`, function `get_anscheck_prompt`, at commit
 * f466efe0ea8859251760733cd4c7ad98302b9ddf (identical in b11ff723381cf41e744c5524be0c52b3a408516c). The official
 * script calls the judge with temperature 0 and max_tokens 10, one user message, and `'_abs' in question_id`
 * selects the abstention prompt. Placeholders are Python `str.format` positional `{}`: question, answer, response.
 * These are evaluation prompts: do not edit them (a test pins their hashes).
 */

/** single-session-user, single-session-assistant, multi-session */
export const LME_JUDGE_DEFAULT =
  'I will give you a question, a correct answer, and a response from a model. Please answer yes if the response contains the correct answer. Otherwise, answer no. If the response is equivalent to the correct answer or contains all the intermediate steps to get the correct answer, you should also answer yes. If the response only contains a subset of the information required by the answer, answer no. \n\nQuestion: {}\n\nCorrect Answer: {}\n\nModel Response: {}\n\nIs the model response correct? Answer yes or no only.';

export const LME_JUDGE_TEMPORAL =
  "I will give you a question, a correct answer, and a response from a model. Please answer yes if the response contains the correct answer. Otherwise, answer no. If the response is equivalent to the correct answer or contains all the intermediate steps to get the correct answer, you should also answer yes. If the response only contains a subset of the information required by the answer, answer no. In addition, do not penalize off-by-one errors for the number of days. If the question asks for the number of days/weeks/months, etc., and the model makes off-by-one errors (e.g., predicting 19 days when the answer is 18), the model's response is still correct. \n\nQuestion: {}\n\nCorrect Answer: {}\n\nModel Response: {}\n\nIs the model response correct? Answer yes or no only.";

export const LME_JUDGE_KNOWLEDGE_UPDATE =
  'I will give you a question, a correct answer, and a response from a model. Please answer yes if the response contains the correct answer. Otherwise, answer no. If the response contains some previous information along with an updated answer, the response should be considered as correct as long as the updated answer is the required answer.\n\nQuestion: {}\n\nCorrect Answer: {}\n\nModel Response: {}\n\nIs the model response correct? Answer yes or no only.';

export const LME_JUDGE_PREFERENCE =
  "I will give you a question, a rubric for desired personalized response, and a response from a model. Please answer yes if the response satisfies the desired response. Otherwise, answer no. The model does not need to reflect all the points in the rubric. The response is correct as long as it recalls and utilizes the user's personal information correctly.\n\nQuestion: {}\n\nRubric: {}\n\nModel Response: {}\n\nIs the model response correct? Answer yes or no only.";

/** Any question whose id contains `_abs`. */
export const LME_JUDGE_ABSTENTION =
  'I will give you an unanswerable question, an explanation, and a response from a model. Please answer yes if the model correctly identifies the question as unanswerable. The model could say that the information is incomplete, or some other information is given but the asked information is not.\n\nQuestion: {}\n\nExplanation: {}\n\nModel Response: {}\n\nDoes the model correctly identify the question as unanswerable? Answer yes or no only.';

/** Official judge call settings (`evaluate_qa.py`). */
export const LME_JUDGE_TEMPERATURE = 0;
export const LME_JUDGE_MAX_TOKENS = 10;
