import { countWords } from './words';

describe('countWords', () => {
  it('lower-cases, keeps letters only, drops stopwords and single letters', () => {
    const counts = countWords([
      'I feel tired, really TIRED today!',
      "I don't sleep 8 hours; sleep... 2x",
    ]);
    expect(Object.fromEntries(counts)).toEqual({
      feel: 1,
      tired: 2,
      really: 1,
      today: 1,
      dont: 1,
      sleep: 2,
      hours: 1,
    });
  });

  it('handles other scripts and accents as letters', () => {
    expect(Object.fromEntries(countWords(['Müde, sehr müde. Été été']))).toEqual({
      müde: 2,
      sehr: 1,
      été: 2,
    });
  });

  it('answers an empty map for no words', () => {
    expect(countWords(['', '123 !!! ...', 'the and of']).size).toBe(0);
  });
});
