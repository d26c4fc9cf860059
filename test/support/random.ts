/**
 * The seeded PRNG and ids live in src/demo/random.ts (the demo dataset uses them too, and src
 * never imports test code); tests, the benchmark and scripts import them from here.
 */
export * from '../../src/demo/random.js'
