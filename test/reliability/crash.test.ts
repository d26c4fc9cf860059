/**
 * Faults during ingest into a file-backed store:
 * - kill -9 of `visibility ingest` at random moments: the store reopens, every batch (file) is
 *   all or nothing, and resuming the interrupted ingest gives the same store (every table, every
 *   row) as an uninterrupted run;
 * - kill -9 inside a COMMIT (crash-child.ts marks each commit's start and acknowledgement): the
 *   test asserts the kill interrupted a commit in flight, then the same checks: a prefix of the
 *   batches stored, the interrupted one whole or absent, resuming equals an uninterrupted run;
 * - an error in the middle of a batch (a bad record after good ones, a source that throws)
 *   leaves zero rows of that batch.
 *
 * Default: 3 batches of 600 analyses, 1 kill (each CLI run is a process start). VA_LONG=1: 8 batches of 5000 analyses (40k) and
 * 24 kills; VA_KILLS overrides the kill count.
 */
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { isIngestError, openEngine, type IngestError } from '../../src/index.js'
import { writeBatches, type GeneratedBatch } from '../../scripts/gen-ndjson.js'
import { analysisId, makeAnalyses, makeDims, rng } from '../support/generate.js'
import {
  batchCounts,
  consistencyProblems,
  observeRounded,
  storeDigest,
  tempDir,
  type StoreDigest,
} from './store.js'

const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)))
const CLI = join(ROOT, 'dist/src/cli/main.js')
const CHILD = join(ROOT, 'test/reliability/crash-child.ts')
const LONG = process.env.VA_LONG === '1'
const BATCHES = LONG ? 8 : 3
const PER_BATCH = LONG ? 5000 : 600
const KILLS = Number(process.env.VA_KILLS ?? (LONG ? 24 : 1))
const SEED = Number(process.env.VA_SEED ?? 7)

const { dir: TMP, cleanup } = tempDir('va-crash-')
let files: GeneratedBatch[]
let refDb: string
let refDigest: StoreDigest
let refCounts: Awaited<ReturnType<typeof batchCounts>>
let refMs: number

interface Run {
  code: number | null
  signal: NodeJS.Signals | null
  stdout: string
  stderr: string
  ms: number
}

/** Runs `visibility ingest FILES --db DB`; `killAfterMs` sends SIGKILL after that delay. */
function ingestCli(paths: string[], db: string, killAfterMs?: number): Promise<Run> {
  return new Promise((done, fail) => {
    const started = performance.now()
    const child = spawn(process.execPath, [CLI, 'ingest', ...paths, '--db', db], {
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (b: Buffer) => (stdout += b.toString()))
    child.stderr.on('data', (b: Buffer) => (stderr += b.toString()))
    const timer = killAfterMs === undefined ? undefined : setTimeout(() => child.kill('SIGKILL'), killAfterMs)
    child.on('error', fail)
    child.on('exit', (code, signal) => {
      clearTimeout(timer)
      done({ code, signal, stdout, stderr, ms: performance.now() - started })
    })
  })
}

/** Runs crash-child.ts: ingests every batch, one call each, and SIGKILLs itself inside commit `killAt`. */
function childCli(db: string, killAt: number, delayMs: number): Promise<Run> {
  return new Promise((done, fail) => {
    const started = performance.now()
    const arg = JSON.stringify({ db, files: files.map((f) => f.file), killAt, delayMs })
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD, arg], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (b: Buffer) => (stdout += b.toString()))
    child.stderr.on('data', (b: Buffer) => (stderr += b.toString()))
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000)
    child.on('error', fail)
    child.on('exit', (code, signal) => {
      clearTimeout(timer)
      done({ code, signal, stdout, stderr, ms: performance.now() - started })
    })
  })
}

const figures: string[] = []

beforeAll(async () => {
  if (!existsSync(CLI)) {
    const r = spawnSync('npx', ['tsc', '-p', 'tsconfig.build.json'], { cwd: ROOT, encoding: 'utf8' })
    if (r.status !== 0) throw new Error(`npm run build failed: ${r.stdout}${r.stderr}`)
  }
  files = writeBatches(join(TMP, 'in'), BATCHES, PER_BATCH, SEED)
  refDb = join(TMP, 'ref.duckdb')
  const r = await ingestCli(
    files.map((f) => f.file),
    refDb,
  )
  expect(r.code, r.stderr).toBe(0)
  refMs = r.ms
  refDigest = await storeDigest(refDb)
  refCounts = await batchCounts(refDb)
  expect([...refCounts.keys()]).toEqual(files.map((f) => f.batch))
}, 600_000)

afterAll(() => {
  console.log(`[reliability] crash: ${figures.join('; ')}`)
  cleanup()
})

describe('kill -9 during ingest into a file-backed store', () => {
  it(
    `${KILLS} kills at random moments: reopens, batches all-or-nothing, resume equals an uninterrupted run`,
    async () => {
      const r = rng(SEED)
      const committedHist: Record<number, number> = {}
      let finishedBeforeKill = 0
      for (let k = 0; k < KILLS; k++) {
        const db = join(TMP, `kill-${k}.duckdb`)
        // spread the moments over the whole run: opening, validation, staging, commit, close
        const delay = Math.floor(r() * refMs * 1.05)
        const run = await ingestCli(
          files.map((f) => f.file),
          db,
          delay,
        )
        if (run.signal !== 'SIGKILL') finishedBeforeKill++
        else expect(run.code).toBeNull()

        // the store reopens (WAL replayed) through the engine itself
        if (existsSync(db)) {
          const e = await openEngine({ path: db })
          await e.close()
        }
        const counts = existsSync(db) ? await batchCounts(db) : new Map()
        const problems = existsSync(db) ? await consistencyProblems(db) : []
        expect(problems, `kill ${k} after ${delay} ms`).toEqual([])
        // all or nothing, per batch, and batches commit in file order
        let committed = 0
        for (const f of files) {
          const got = counts.get(f.batch)
          if (got === undefined) continue
          expect(got, `kill ${k} after ${delay} ms: batch ${f.batch}`).toEqual(refCounts.get(f.batch))
          committed++
          expect(f.batch).toBe(committed)
        }
        committedHist[committed] = (committedHist[committed] ?? 0) + 1

        // resume: ingest the batches that are not stored
        const rest = files.filter((f) => !counts.has(f.batch)).map((f) => f.file)
        if (rest.length > 0) {
          const again = await ingestCli(rest, db)
          expect(again.code, again.stderr).toBe(0)
        }
        expect(await storeDigest(db), `kill ${k} after ${delay} ms, ${committed} batches committed`).toEqual(
          refDigest,
        )
      }
      figures.push(
        `${KILLS} kills over ${BATCHES}x${PER_BATCH} analyses (uninterrupted ${(refMs / 1000).toFixed(1)} s); committed batches at kill: ${JSON.stringify(committedHist)}; finished before the kill: ${finishedBeforeKill}`,
      )
    },
    LONG ? 7_200_000 : 180_000,
  )

  it(
    'kill -9 inside a COMMIT (each batch, right after the COMMIT is handed over and on a 0-2 ms timer): the kill interrupted a commit, the store holds a prefix of the batches, the interrupted one whole or not at all, and resuming equals an uninterrupted run',
    async () => {
      const r = rng(SEED + 1)
      const runs: string[] = []
      let interrupted = 0
      for (let killAt = 1; killAt <= BATCHES; killAt++) {
        for (const delayMs of [-1, Math.floor(r() * 3)]) {
          const label = `kill in commit ${killAt} (${delayMs < 0 ? 'at once' : `after ${delayMs} ms`})`
          const db = join(TMP, `commit-${killAt}-${delayMs}.duckdb`)
          const run = await childCli(db, killAt, delayMs)
          expect(run.signal, `${label}: ${run.stderr}`).toBe('SIGKILL')
          const started = [...run.stdout.matchAll(/^start (\d+)$/gm)].map((m) => Number(m[1]))
          const ended = [...run.stdout.matchAll(/^end (\d+)$/gm)].map((m) => Number(m[1]))
          // The kill came inside commit `killAt`: every earlier commit acknowledged, that one started.
          expect(started, label).toEqual(Array.from({ length: killAt }, (_, i) => i + 1))
          expect(
            ended.filter((n) => n < killAt),
            label,
          ).toEqual(started.slice(0, -1))
          const inFlight = !ended.includes(killAt)
          if (delayMs < 0) expect(inFlight, `${label}: the COMMIT was still in flight`).toBe(true)
          if (inFlight) interrupted++

          const e = await openEngine({ path: db })
          await e.close()
          expect(await consistencyProblems(db), label).toEqual([])
          const counts = await batchCounts(db)
          // A prefix: every acknowledged batch whole; the interrupted one whole or absent; none after.
          const stored = files.filter((f) => counts.has(f.batch)).map((f) => f.batch)
          const acked = files.slice(0, killAt - 1).map((f) => f.batch)
          expect([acked, [...acked, files[killAt - 1]!.batch]], label).toContainEqual(stored)
          for (const b of stored) expect(counts.get(b), `${label}: batch ${b}`).toEqual(refCounts.get(b))
          const rest = files.filter((f) => !counts.has(f.batch)).map((f) => f.file)
          const again = await ingestCli(rest, db)
          expect(again.code, again.stderr).toBe(0)
          expect(await storeDigest(db), label).toEqual(refDigest)
          runs.push(`${label}: ${inFlight ? 'in flight' : 'acknowledged'}, ${stored.length} stored`)
        }
      }
      expect(interrupted).toBeGreaterThanOrEqual(BATCHES)
      figures.push(`kills inside a COMMIT: ${interrupted} of ${runs.length} in flight (${runs.join('; ')})`)
    },
    LONG ? 3_600_000 : 300_000,
  )

  it('re-ingesting files already stored changes no payload (the same file twice changes nothing)', async () => {
    const db = join(TMP, 'twice.duckdb')
    const a = await openEngine({ path: db })
    for (const f of [...files, ...files]) await a.ingestFile(f.file)
    const b = await openEngine({ path: refDb, readOnly: true })
    try {
      expect(await observeRounded(a)).toBe(await observeRounded(b))
    } finally {
      await a.close()
      await b.close()
    }
    const d = await storeDigest(db)
    for (const t of Object.keys(refDigest)) expect(d[t]!.rows, t).toBe(refDigest[t]!.rows)
  }, 600_000)
})

describe('an error in the middle of a batch leaves zero rows of that batch', () => {
  it('CLI: a bad record after good ones in file 2 stops the ingest; file 1 stays, file 2 has no row', async () => {
    const db = join(TMP, 'midbatch.duckdb')
    const lines = readFileSync(files[1]!.file, 'utf8').trimEnd().split('\n')
    const badLine = lines.length - 3
    lines[badLine - 1] = lines[badLine - 1]!.replace('"channel":"', '"channel":"nope-')
    const bad = join(TMP, 'bad-batch-2.ndjson')
    writeFileSync(bad, lines.join('\n') + '\n')
    const run = await ingestCli([files[0]!.file, bad, ...files.slice(2).map((f) => f.file)], db)
    expect(run.code).toBe(1)
    expect(run.stderr).toContain(`line ${badLine}: channel:`)
    expect(run.stderr).toContain('nothing stored')
    const counts = await batchCounts(db)
    expect([...counts.keys()]).toEqual([1])
    expect(counts.get(1)).toEqual(refCounts.get(1))
    expect(await consistencyProblems(db)).toEqual([])
  })

  it('API: a source that throws after 2000 good records, and a bad record after 2000 good ones, store nothing', async () => {
    const db = join(TMP, 'midsource.duckdb')
    const dims = makeDims(SEED, {
      teams: 3,
      domainsPerTeam: 3,
      promptsPerDomain: 20,
      competitorsPerDomain: 6,
      themesPerDomain: 8,
    })
    expect((await ingestCli([files[0]!.file], db)).code).toBe(0)
    const before = await storeDigest(db)
    const e = await openEngine({ path: db })
    try {
      const good = makeAnalyses(SEED, dims, 0x99, 2000)
      async function* throwing() {
        yield* good
        throw new Error('the source broke')
      }
      const err1 = await e.ingest(throwing()).catch((x: unknown) => x)
      expect(err1).toBeInstanceOf(Error)
      const badLast = [...good, { ...good[0]!, id: analysisId(0x99, 99_999), prompt_id: 'nope' }]
      const err2 = await e.ingest(badLast).catch((x: unknown) => x)
      expect(isIngestError(err2)).toBe(true)
      expect((err2 as IngestError).issues).toEqual([
        expect.objectContaining({ index: 2000, field: 'prompt_id' }),
      ])
      // the engine is still usable: the good part alone goes in
      expect((await e.ingest(good.slice(0, 10))).analyses).toBe(10)
    } finally {
      await e.close()
    }
    const after = await batchCounts(db)
    expect(after.get(0x99)?.analyses).toBe(10)
    const d = await storeDigest(db)
    expect(d.teams).toEqual(before.teams)
    expect(d.analyses!.rows).toBe(before.analyses!.rows + 10)
  })
})
