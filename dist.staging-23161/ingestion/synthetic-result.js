"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.SYNTHETIC_ENGINE_VERSION = void 0;
exports.syntheticResult = syntheticResult;
/**
 * A plausible, clearly synthetic analysis result, for demos and newcomers (the CLI's
 * `sessions:simulate-result` and `demo:seed`). It goes through the real ingestion path; the
 * session is flagged `synthetic` and its transcript says so.
 */
const node_crypto_1 = require("node:crypto");
exports.SYNTHETIC_ENGINE_VERSION = 'v0.1.0';
const USER_LINES = [
    'Work has been busy, but I am sleeping better this week.',
    'I feel a bit tired, the deadlines keep coming.',
    'Honestly I feel good, the team is supportive and the weekend helped.',
    'Stress is high, meetings all day, little time for exercise.',
    'Calmer than last month; walking in the morning really helps.',
];
const round = (value, digits = 2) => Number(value.toFixed(digits));
const between = (low, high) => low + ((0, node_crypto_1.randomInt)(0, 10_001) / 10_000) * (high - low);
function syntheticResult(completedAt) {
    const mhci = round(between(35, 90), 1);
    const around = (centre) => round(Math.min(100, Math.max(0, centre + between(-12, 12))), 1);
    return {
        version: exports.SYNTHETIC_ENGINE_VERSION,
        mhci,
        subscores: {
            vision: around(mhci),
            audio: around(mhci),
            transcript: around(mhci),
            assessment: around(mhci),
        },
        transcript: [
            { role: 'assistant', content: '[synthetic] How have you been feeling this week?' },
            { role: 'user', content: USER_LINES[(0, node_crypto_1.randomInt)(0, USER_LINES.length)] },
            { role: 'assistant', content: '[synthetic] What helped, and what did not?' },
            { role: 'user', content: USER_LINES[(0, node_crypto_1.randomInt)(0, USER_LINES.length)] },
        ],
        features: {
            speech_rate: round(between(2, 4.5), 3),
            pitch_variability: round(between(0.1, 0.6), 3),
            pause_ratio: round(between(0.05, 0.4), 3),
            smile_ratio: round(between(0, 0.5), 3),
            vocal_energy: round(between(0.2, 0.9), 3),
        },
        ...(completedAt ? { completedAt: completedAt.toISOString() } : {}),
    };
}
//# sourceMappingURL=synthetic-result.js.map