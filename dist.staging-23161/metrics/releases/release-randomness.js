"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.RELEASE_RANDOMNESS = void 0;
/**
 * The randomness of the releases: `crypto` (discrete-laplace.ts, discrete-gaussian.ts). A
 * provider, so that a test can replay the same draws in two worlds and show that the releases
 * depend on nothing else.
 */
exports.RELEASE_RANDOMNESS = Symbol('RELEASE_RANDOMNESS');
//# sourceMappingURL=release-randomness.js.map