/**
 * Queries keep answering, with consistent snapshots, while an ingest commits: readers compute the
 * four payloads in a loop while another call ingests a batch that changes all of them (new
 * analyses, or replacements of stored ones). Every payload observed equals the before-payload or
 * the after-payload, never a mix, and a reader never goes back from after to before.
 *
 * Default 3 rounds; VA_LONG=1 runs 20 (VA_ROUNDS overrides).
 */
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openEngine, type Engine } from '../../src/index.js'
import { dimRecords, makeAnalyses, makeDims, type Dims } from '../support/generate.js'
import { NOW, tempDir } from './store.js'

const LONG = process.env.VA_LONG === '1'
const ROUNDS = Number(process.env.VA_ROUNDS ?? (LONG ? 20 : 3))
const READERS = 3
const PER_BATCH = LONG ? 3000 : 1500

const { dir, cleanup } = tempDir('va-snap-')
let engine: Engine
let dims: Dims
let domainId: string

const NAMES = ['prompts', 'competitors', 'overview', 'themes'] as const
async function payload(i: number): Promise<string> {
  const p = { domainId, days: 90, now: NOW }
  switch (i) {
    case 0:
      return JSON.stringify(await engine.computePromptSeries({ ...p, limit: 100 }))
    case 1:
      return JSON.stringify(await engine.computeCompetitorSeries(p))
    case 2:
      return JSON.stringify(await engine.computeSentimentOverview(p))
    default:
      return JSON.stringify(await engine.computeSentimentThemes(p))
  }
}
const all = () => Promise.all(NAMES.map((_, i) => payload(i)))

beforeAll(async () => {
  dims = makeDims(21, {
    teams: 1,
    domainsPerTeam: 1,
    promptsPerDomain: 30,
    competitorsPerDomain: 6,
    themesPerDomain: 10,
  })
  domainId = dims.domains[0]!.id as string
  engine = await openEngine({ path: join(dir, 'store.duckdb') })
  await engine.ingest([...dimRecords(dims), ...makeAnalyses(21, dims, 1, PER_BATCH)])
})

afterAll(async () => {
  await engine?.close()
  cleanup()
})

describe('consistent snapshots while an ingest commits', () => {
  it(
    `${ROUNDS} rounds x ${READERS} readers x 4 payloads: before or after, never a mix`,
    async () => {
      let observed = 0
      let duringIngest = 0
      let maxLatencyDuring = 0
      let ingestMs = 0
      for (let round = 0; round < ROUNDS; round++) {
        // even rounds add a new batch, odd rounds replace every analysis of the previous one
        const batch = round % 2 === 0 ? round + 2 : round + 1
        const records = makeAnalyses(1000 + round, dims, batch, PER_BATCH)
        const before = await all()
        let inFlight = true
        let stop = false
        // Distinct payload texts are interned: a log entry holds an index, not a copy.
        const texts = NAMES.map(() => new Map<string, number>())
        const intern = (i: number, s: string) => {
          let n = texts[i]!.get(s)
          if (n === undefined) texts[i]!.set(s, (n = texts[i]!.size))
          return n
        }
        const seen: Array<Array<{ i: number; n: number; during: boolean }>> = []
        const readers = Array.from({ length: READERS }, async (_, r) => {
          const log: Array<{ i: number; n: number; during: boolean }> = []
          seen[r] = log
          let extra = 0
          for (let k = r; !stop || extra++ < 4; k++) {
            const i = k % 4
            const during = inFlight
            const t = performance.now()
            log.push({ i, n: intern(i, await payload(i)), during: during && inFlight })
            if (during && inFlight) maxLatencyDuring = Math.max(maxLatencyDuring, performance.now() - t)
            await new Promise((go) => setImmediate(go))
          }
        })
        const t = performance.now()
        await engine.ingest(records)
        ingestMs += performance.now() - t
        inFlight = false
        stop = true
        await Promise.all(readers)
        const after = await all()
        for (let i = 0; i < 4; i++)
          expect(after[i], `round ${round}: the batch must change ${NAMES[i]}`).not.toBe(before[i])
        for (const log of seen) {
          const wentAfter = [false, false, false, false]
          for (const { i, n, during } of log) {
            const s = [...texts[i]!.entries()].find(([, v]) => v === n)![0]
            observed++
            if (during) duringIngest++
            if (s === after[i]) wentAfter[i] = true
            else if (s === before[i])
              expect(wentAfter[i], `round ${round}: ${NAMES[i]} went back to before`).toBe(false)
            else throw new Error(`round ${round}: ${NAMES[i]} is neither the before nor the after payload`)
          }
        }
      }
      expect(duringIngest).toBeGreaterThan(0)
      console.log(
        `[reliability] snapshots: ${ROUNDS} rounds, ${observed} payloads observed (${duringIngest} while an ingest of ${PER_BATCH} analyses was in flight, mean ingest ${(ingestMs / ROUNDS).toFixed(0)} ms), 0 mixed; max payload latency during ingest ${maxLatencyDuring.toFixed(0)} ms`,
      )
    },
    LONG ? 3_600_000 : 120_000,
  )
})
