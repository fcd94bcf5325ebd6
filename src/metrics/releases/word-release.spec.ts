import { WORD_DELTA } from '../../common/privacy-model';
import { replayableRandom } from './replayable-random';
import { cryptoRandom, discreteLaplaceRatio, type RandomSource } from './discrete-laplace';
import {
  participantWords,
  releaseWords,
  WORDS_PER_PARTICIPANT,
  wordNoiseScale,
  wordThreshold,
} from './word-release';

describe('word releases ((ε, δ)-DP partition selection)', () => {
  const m = WORDS_PER_PARTICIPANT;

  it('a participant gives their m most frequent words; ties to the longer, then the alphabetically first', () => {
    const counts = new Map([
      ['tired', 2],
      ['exhausted', 1],
      ['sad', 1],
      ['calm', 1],
      ['overwhelmed', 1],
      ['never', 0],
    ]);
    expect(participantWords(counts, 3)).toEqual(['tired', 'overwhelmed', 'exhausted']);
    expect(participantWords(counts, 5)).toEqual([
      'tired',
      'overwhelmed',
      'exhausted',
      'calm',
      'sad',
    ]);
    expect(participantWords(new Map(), 3)).toEqual([]);
  });

  it.each([10, 100, 250, 1000])(
    'at ε = %i/100 the threshold is the lowest that lets a word one participant decides pass with probability δ₁ at most, and m·δ₁·(1 + e^ε) ≤ δ',
    (epsilon) => {
      const { t, s } = wordNoiseScale(epsilon);
      const q = discreteLaplaceRatio(t, s);
      const perWord = WORD_DELTA / (m * (1 + Math.exp(epsilon / 100)));
      for (const floor of [1, 3, 7]) {
        // Such a word has exactly `floor` speakers where it is eligible: it passes when the noise
        // reaches threshold − floor, with probability q^k / (1 + q).
        const k = wordThreshold(epsilon, floor) - floor;
        expect(q ** k / (1 + q)).toBeLessThanOrEqual(perWord);
        expect(q ** (k - 1) / (1 + q)).toBeGreaterThan(perWord);
      }
      // Replacing one participant's words moves at most 2m counts by one: scale 2m/ε.
      expect((2 * m * s) / t).toBeCloseTo(epsilon / 100, 12);
    },
  );

  it('a word fewer than minWordSpeakers said is never noised nor released', () => {
    const noised: number[] = [];
    const counting: RandomSource = {
      below: (n) => {
        noised.push(n);
        return cryptoRandom.below(n);
      },
    };
    expect(releaseWords([['alone'], ['pair'], ['pair']], 1000, 3, counting)).toEqual([]);
    expect(noised).toEqual([]);
  });

  it('a word only one participant said is not released in 1,000 cells (each at most δ₁ ≈ 10⁻⁷: all together below 10⁻⁴)', () => {
    const cell = [['pregnant', 'quit', 'lawyer'], ...Array.from({ length: 200 }, () => ['tired'])];
    for (let i = 0; i < 1000; i++) {
      const words = releaseWords(cell, 100, 1).map((released) => released.word);
      expect(words).not.toContain('pregnant');
    }
  });

  it('a word enough participants said is released, with its noisy count of speakers (fails with probability below 10⁻⁴)', () => {
    const threshold = wordThreshold(100, 1);
    // threshold + 60 speakers: withheld only when the noise is ≤ −61, probability
    // q^61 / (1 + q) ≈ 2·10⁻⁵ at scale 6.
    const speakers = Array.from({ length: threshold + 60 }, () => ['tired']);
    const [released] = releaseWords(speakers, 100, 1);
    expect(released.word).toBe('tired');
    expect(released.count).toBeGreaterThanOrEqual(threshold);
  });

  it('depends on nothing but the draws: the same words said by other participants release the same', () => {
    const { record, replay } = replayableRandom();
    const speakers = Array.from({ length: 120 }, (_, i) => [i % 2 ? 'tired' : 'calm', 'work']);
    const first = releaseWords(speakers, 1000, 1, record);
    expect(releaseWords([...speakers].reverse(), 1000, 1, replay())).toEqual(first);
    expect(first.map((released) => released.word)).toEqual(['calm', 'tired', 'work']);
  });

  it('refuses more than m words, or a word twice, from one participant', () => {
    expect(() => releaseWords([['a', 'b', 'c', 'd'].slice(0, m + 1)], 100, 1)).toThrow(RangeError);
    expect(() => releaseWords([['a', 'a']], 100, 1)).toThrow(RangeError);
  });
});
