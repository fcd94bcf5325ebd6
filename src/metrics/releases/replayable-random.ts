/**
 * The private releases' randomness, recorded and replayed — for tests (docs/tests.md, "Rules"),
 * never wired into the service, whose releases draw from crypto alone: `record` draws
 * from crypto as production does and keeps every draw; each `replay()` gives the same draws again,
 * in order. Two releases fed the same draws carry the same noise, so whatever differs between
 * their answers comes from their data alone.
 */
import { cryptoRandom, type RandomSource } from './discrete-laplace';

export function replayableRandom(): {
  record: RandomSource;
  replay: () => RandomSource;
  draws: readonly number[];
} {
  const draws: number[] = [];
  return {
    draws,
    record: {
      below: (n) => {
        const value = cryptoRandom.below(n);
        draws.push(value);
        return value;
      },
    },
    replay: () => {
      let next = 0;
      return { below: () => draws[next++] };
    },
  };
}
