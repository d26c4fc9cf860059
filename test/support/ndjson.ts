/** Reads fixture files for the tests: NDJSON datasets and JSON documents. */
import { readFileSync } from 'node:fs'
import type { AnalysisInputRecord } from '../../src/types.js'

/** The records of an NDJSON file (blank lines skipped). Fixtures are trusted to be valid. */
export function readNdjson(path: string): AnalysisInputRecord[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as AnalysisInputRecord)
}

export function readJson<T = unknown>(path: string): T {
  return JSON.parse(readFileSync(path, 'utf8')) as T
}
