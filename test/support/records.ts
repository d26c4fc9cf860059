/**
 * The one record builder lives in src/demo/records.ts (the demo dataset uses it too, and src never
 * imports test code); tests, the benchmark and scripts import it from here.
 */
export * from '../../src/demo/records.js'
