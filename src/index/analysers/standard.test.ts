// The standard analyser: English normalisation and stemming, Chinese segmentation (words + characters).
import { describe, expect, it } from 'vitest';
import { Bm25Index } from '../bm25.ts';
import { cjkTokens, cjkWords } from './chinese.ts';
import { standardAnalyser } from './standard.ts';

describe('standardAnalyser', () => {
  const analyse = standardAnalyser();

  it('lower-cases, drops punctuation and possessives, stems English', () => {
    expect(analyse("What colour is my sister's car?")).toEqual(['what', 'colour', 'is', 'my', 'sister', 'car']);
    expect(analyse('Running, runs; RUN!')).toEqual(['run', 'run', 'run']);
    expect(analyse("I don't know the cat’s name.")).toEqual(['i', 'dont', 'know', 'the', 'cat', 'name']);
    expect(standardAnalyser({ stopwords: true })('What is the name of my cat?')).toEqual(['name', 'cat']);
    expect(standardAnalyser({ stem: false })('restaurants')).toEqual(['restaurants']);
  });

  it('normalises full-width forms (NFKC)', () => {
    expect(analyse('ＡＢＣ １０公里')).toEqual(['abc', '10', '公里', '公', '里']);
  });

  it('segments Chinese into dictionary words followed by their characters', () => {
    expect(cjkWords('我搬到杭州西湖区了')).toEqual(['我', '搬到', '杭州', '西湖', '区', '了']);
    expect(cjkTokens('杭州')).toEqual(['杭州', '杭', '州']);
    expect(analyse('推荐一下杭州的日料店 sushi')).toEqual(expect.arrayContaining(['杭州', '推荐', 'sushi']));
  });

  it('a Chinese question matches the memory it asks about, even when the segmenter glues words', () => {
    const idx = new Bm25Index(['我住在北京朝阳区', '我养了一只叫小白的猫', '我最近开始跑步了，每天5公里']);
    const s = idx.scores('我的猫叫什么名字？');
    expect(Math.max(...s)).toBe(s[1]);
    const run = idx.scores('我什么时候开始跑步的？');
    expect(Math.max(...run)).toBe(run[2]);
  });
});
