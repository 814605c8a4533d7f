// The memory stream's reply readers: the spec's parse_insights examples verbatim, Chinese replies, questions, ratings.
import { describe, expect, it } from 'vitest';
import { formatInsights, parseImportance, parseInsights, parseQuestions } from './prompts.ts';

describe('parseInsights (the source design: parse_insights)', () => {
  it('reads the spec example into its expected result', () => {
    const insight_responses = `1. Missing data in user_dims table for country may impact accuracy of data analysis and decision-making for marketing campaigns and user segmentation. [7, 52, 47]
2. Inconsistent information in user_dims table may lead to incorrect analysis and decision-making for user segmentation and marketing campaigns. [22, 40]
3. Duplicated and inconsistent data in user_dims table may impact accuracy of data-driven decisions for user segmentation and marketing campaigns. [3, 57, 62, 42]
4. Large number of missing values in bitcoin_price_data table may affect accuracy of analysis and decision-making for cryptocurrency investments. [14]`;
    expect(parseInsights(insight_responses)).toEqual([
      [
        'Missing data in user_dims table for country may impact accuracy of data analysis and decision-making for marketing campaigns and user segmentation.',
        [7, 52, 47],
      ],
      [
        'Inconsistent information in user_dims table may lead to incorrect analysis and decision-making for user segmentation and marketing campaigns.',
        [22, 40],
      ],
      [
        'Duplicated and inconsistent data in user_dims table may impact accuracy of data-driven decisions for user segmentation and marketing campaigns.',
        [3, 57, 62, 42],
      ],
      [
        'Large number of missing values in bitcoin_price_data table may affect accuracy of analysis and decision-making for cryptocurrency investments.',
        [14],
      ],
    ]);
  });

  it('reads the spec condense_insights output example (5 points, the last citing 9 statements)', () => {
    const condensed_output = `1. Missing data in user_dims table for country may impact accuracy of data analysis and decision-making for marketing campaigns and user segmentation. [7, 52, 47]
2. Inconsistent information in user_dims table may lead to incorrect analysis and decision-making for user segmentation and marketing campaigns. [22, 40]
3. Duplicated and inconsistent data in user_dims table may impact accuracy of data-driven decisions for user segmentation and marketing campaigns. [3, 57, 62, 42]
4. Large number of missing values in bitcoin_price_data table may affect accuracy of analysis and decision-making for cryptocurrency investments. [14]
5. The user_dims table has data issues for many users. [26, 7, 22, 12, 17, 62, 47, 57, 52]`;
    const parsed = parseInsights(condensed_output);
    expect(parsed).toHaveLength(5);
    expect(parsed[4]).toEqual([
      'The user_dims table has data issues for many users.',
      [26, 7, 22, 12, 17, 62, 47, 57, 52],
    ]);
    // Round trip through the list the condensing prompt is given.
    expect(parseInsights(formatInsights(parsed))).toEqual(parsed);
  });

  it('reads Chinese replies with full-width brackets and commas, the prompt\'s "- insight [`i`]" form, and skips prose', () => {
    const reply = `以下是洞察：
1. 卡罗琳非常重视她的家庭 [3, 5]
2、梅兰妮每周都去跑步【7，8】
- Caroline plans to adopt a child [\`12\`]
3. 没有证据的句子 [见上文]`;
    expect(parseInsights(reply)).toEqual([
      ['卡罗琳非常重视她的家庭', [3, 5]],
      ['梅兰妮每周都去跑步', [7, 8]],
      ['Caroline plans to adopt a child', [12]],
    ]);
  });
});

describe('reflection questions and importance', () => {
  it('takes at most 3 numbered questions, else the lines', () => {
    expect(parseQuestions('Here you go:\n1. What does Caroline value?\n2) 梅兰妮为什么跑步？\n3. Q3?\n4. Q4?')).toEqual(
      ['What does Caroline value?', '梅兰妮为什么跑步？', 'Q3?'],
    );
    expect(parseQuestions('Why?\nHow?')).toEqual(['Why?', 'How?']);
  });

  it('reads the rating as 1–10 divided by 10, and refuses what is not a rating', () => {
    expect(parseImportance('7')).toBe(0.7);
    expect(parseImportance('Rating: 7/10')).toBe(0.7); // the spec's digit stripping would read 710
    expect(parseImportance('评分：9')).toBe(0.9);
    expect(parseImportance('0')).toBeUndefined();
    expect(parseImportance('eleven')).toBeUndefined();
    expect(parseImportance('15')).toBeUndefined();
  });
});
