/**
 * The randomness of the releases: `crypto` (discrete-laplace.ts, discrete-gaussian.ts). A
 * provider, so that a test can replay the same draws in two worlds and show that the releases
 * depend on nothing else.
 */
export const RELEASE_RANDOMNESS = Symbol('RELEASE_RANDOMNESS');
