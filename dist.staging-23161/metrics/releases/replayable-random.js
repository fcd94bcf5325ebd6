"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.replayableRandom = replayableRandom;
/**
 * The private releases' randomness, recorded and replayed — for tests (docs/tests.md, "Rules"),
 * never wired into the service, whose releases draw from crypto alone: `record` draws
 * from crypto as production does and keeps every draw; each `replay()` gives the same draws again,
 * in order. Two releases fed the same draws carry the same noise, so whatever differs between
 * their answers comes from their data alone.
 */
const discrete_laplace_1 = require("./discrete-laplace");
function replayableRandom() {
    const draws = [];
    return {
        draws,
        record: {
            below: (n) => {
                const value = discrete_laplace_1.cryptoRandom.below(n);
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
//# sourceMappingURL=replayable-random.js.map