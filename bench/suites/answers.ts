/**
 * Suite "answers": the answers listing (docs/API.md, "GET /api/v1/answers") on a file store of the
 * dataset with its answer texts (bench/data/generator.ts, `answers: true`).
 *
 *   npm run bench -- --only=answers-L [--parts=size,pages,commit] [--store=STORE.duckdb] [--rounds=5]
 *
 * - `size`: the dataset as NDJSON with its answers and the same file without them, each ingested
 *   into a fresh file store (`ingestFile`, analyses/s), CHECKPOINTed; the file sizes, the bytes the
 *   answer column takes (its blocks in `pragma storage_info`) against the raw text, and two reports
 *   with the aggregate cache off on both stores, alternated (the text is never read on their paths).
 * - `pages`: a page of 20 at page 1 and at page 1,000 (reached by following the cursors), over 30
 *   and 365 days, warm, beside the naive DuckDB peer (bench/peers/naive-sql-answers.ts: `ORDER BY
 *   answered_at DESC, id DESC LIMIT 20 OFFSET n` on its own file); pages 1, 2, 500 and 1,000 are
 *   checked equal to the peer's (items, and whether a next page exists) before anything is timed,
 *   and the last payload of each timed loop again.
 * - `commit`: the first page after a 500-analysis call on the domain's last day (new ids each
 *   round), against the same page after the domain's kept structures are dropped whole (a rebuild
 *   from the whole history); median of --rounds.
 *
 * The store with answers is the one `size` builds, or --store (built there when missing, kept; the
 * suite works on a copy, so the commit rounds never change it; the store is kept in bench/out/). The peer's file and the NDJSON
 * files are kept in bench/out/ and reused (the generator is deterministic).
 */
import { copyFileSync, existsSync, renameSync, statSync } from 'node:fs'
import { DuckDBInstance } from '@duckdb/node-api'
import type { Engine } from '../../src/types.js'
import type { AnswersPayload } from '../../src/reports/index.js'
import { BENCH_NOW, DATASETS, DomainGenerator, datasetRecords, type DatasetSpec } from '../data/generator.js'
import { writeNdjson } from '../data/ndjson.js'
import { diffPayloads } from '../lib/compare.js'
import { loadEngineModule } from '../lib/engine.js'
import { gc, outPath, profiles, removeStore, startSuite, withRoundIds, writeJson } from '../lib/suite.js'
import { stopwatch, summarize, timeCase } from '../lib/timing.js'
import { NaiveSqlAnswers } from '../peers/naive-sql-answers.js'

const { args, quick, dsName, out, log } = startSuite('answers', { defaultDataset: 'L' })
const spec: DatasetSpec = { ...DATASETS[dsName] }
delete spec.crowd
const gen = new DomainGenerator(spec.seed, 0, spec.main, spec.endDate)
const domainId = gen.domainId
const prof = profiles(quick)
const PARTS = new Set(typeof args.parts === 'string' ? args.parts.split(',') : ['size', 'pages', 'commit'])
const ROUNDS = Number(args.rounds ?? (quick ? 2 : 5))
const LIMIT = 20
/** The deep page: page 1,000 (fewer on a small dataset, where the window holds fewer pages). */
const DEEP = Number(args['deep-page'] ?? (quick ? 50 : 1000))
const WINDOWS = [30, 365]

type Open = (path: string, options?: Record<string, unknown>) => Promise<Engine>

/** Writes the dataset's NDJSON once (to a temporary name, renamed when complete). */
async function ndjson(name: string, answers: boolean): Promise<string> {
  const path = outPath(name)
  if (existsSync(path)) return path
  const w = await stopwatch(() => writeNdjson(`${path}.tmp`, datasetRecords(spec, { answers })))
  renameSync(`${path}.tmp`, path)
  log(
    `wrote ${name}: ${w.value.lines} lines, ${(w.value.bytes / 2 ** 20).toFixed(0)} MiB in ${w.ms.toFixed(0)} ms`,
  )
  return path
}

/** Ingests an NDJSON file into a fresh file store, CHECKPOINTs it; the rate and the file's size. */
async function ingestInto(open: Open, file: string, store: string) {
  removeStore(store)
  const engine = await open(store)
  const t0 = performance.now()
  const r = await engine.ingestFile(file)
  const ms = performance.now() - t0
  await engine.close()
  // The engine's close checkpoints; a second CHECKPOINT on the file makes sure no WAL is left.
  const inst = await DuckDBInstance.create(store)
  const con = await inst.connect()
  await con.run('CHECKPOINT')
  con.closeSync()
  inst.closeSync()
  return { analyses: r.analyses, ms, perSecond: r.analyses / (ms / 1000), bytes: statSync(store).size }
}

/** The answer texts' raw size and the bytes their column's blocks take (pragma storage_info). */
async function answerBytes(store: string) {
  const inst = await DuckDBInstance.create(store, { access_mode: 'READ_ONLY' })
  const con = await inst.connect()
  const row = async (sql: string) =>
    (await con.runAndReadAll(sql)).getRowObjectsJS()[0] as Record<string, unknown>
  const raw = await row(
    'SELECT count(*)::DOUBLE AS n, sum(strlen(response))::DOUBLE AS bytes FROM analysis_responses',
  )
  const blockSize = Number(
    (await row("SELECT current_setting('block_size')::DOUBLE AS b").catch(() => ({ b: 262144 }))).b,
  )
  // Every block that holds a segment of the response column (its own blocks and the overflow
  // blocks of long strings): what the text takes on disk, compressed.
  const blocks = await row(`
    WITH s AS (
      SELECT block_id, additional_block_ids FROM pragma_storage_info('analysis_responses')
      WHERE column_name = 'response' AND persistent AND block_id >= 0)
    SELECT count(DISTINCT b)::DOUBLE AS n FROM (
      SELECT block_id AS b FROM s
      UNION ALL SELECT unnest(additional_block_ids) FROM s)`)
  const compression = (
    await con.runAndReadAll(`
      SELECT compression, count(*)::DOUBLE AS segments FROM pragma_storage_info('analysis_responses')
      WHERE column_name = 'response' GROUP BY compression ORDER BY segments DESC`)
  ).getRowObjectsJS()
  con.closeSync()
  inst.closeSync()
  return {
    answers: Number(raw.n),
    rawBytes: Number(raw.bytes),
    columnBytes: Number(blocks.n) * blockSize,
    compression: compression.map((c) => `${String(c.compression)} x${Number(c.segments)}`).join(', '),
  }
}

/** Part `size`: ingest with and without answers, bytes on disk, reports' medians on both stores. */
async function sizePart(open: Open, withStore: string): Promise<void> {
  const withFile = await ndjson(`answers-${dsName}.ndjson`, true)
  const plainFile = await ndjson(`answers-${dsName}-plain.ndjson`, false)
  const plainStore = outPath(`store-answers-${dsName}-plain.duckdb`)
  const runs: Record<
    'with' | 'without',
    ReturnType<typeof ingestInto> extends Promise<infer T> ? T : never
  > = {} as never
  // Without first, then with: the with-answers store is the one the other parts read.
  runs.without = await ingestInto(open, plainFile, plainStore)
  log(`ingest without answers: ${runs.without.perSecond.toFixed(0)} analyses/s`)
  runs.with = await ingestInto(open, withFile, withStore)
  log(`ingest with answers: ${runs.with.perSecond.toFixed(0)} analyses/s`)
  const bytes = await answerBytes(withStore)
  const fileDelta = runs.with.bytes - runs.without.bytes
  const size = {
    ndjson_bytes: { with: statSync(withFile).size, without: statSync(plainFile).size },
    ingest: {
      with_analyses_per_s: Math.round(runs.with.perSecond),
      without_analyses_per_s: Math.round(runs.without.perSecond),
      ratio: +(runs.with.perSecond / runs.without.perSecond).toFixed(2),
      with_ms: Math.round(runs.with.ms),
      without_ms: Math.round(runs.without.ms),
    },
    store_bytes: { with: runs.with.bytes, without: runs.without.bytes },
    answers: bytes.answers,
    raw_bytes_per_answer: Math.round(bytes.rawBytes / bytes.answers),
    file_delta_bytes_per_answer: Math.round(fileDelta / bytes.answers),
    column_bytes_per_answer: Math.round(bytes.columnBytes / bytes.answers),
    file_delta_vs_raw: +(fileDelta / bytes.rawBytes).toFixed(3),
    column_vs_raw: +(bytes.columnBytes / bytes.rawBytes).toFixed(3),
    compression: bytes.compression,
  }
  out.extra = { ...out.extra, size }
  out.sizes.answers = bytes.answers
  out.notes.push(
    `NDJSON ingest with answers ${size.ingest.with_analyses_per_s}/s vs without ${size.ingest.without_analyses_per_s}/s: ${size.ingest.ratio}x (target >= 0.75x)`,
    `answer text ${size.raw_bytes_per_answer} B raw; on disk ${size.column_bytes_per_answer} B per answer in the column's blocks (${size.column_vs_raw}x), ${size.file_delta_bytes_per_answer} B per answer as file growth (${size.file_delta_vs_raw}x)`,
  )
  // Reports with the aggregate cache off (every call reads DuckDB), on both stores, alternated.
  const reports: [string, (e: Engine) => Promise<unknown>][] = [
    [
      'competitorSeries days=30',
      (e) => e.computeCompetitorSeries({ domainId, days: 30, model: 'all', now: BENCH_NOW }),
    ],
    [
      'promptSeries days=365',
      (e) => e.computePromptSeries({ domainId, days: 365, limit: 25, now: BENCH_NOW }),
    ],
  ]
  const engines = {
    without: await open(plainStore, { aggregateCache: false }),
    with: await open(withStore, { aggregateCache: false }),
  }
  for (const [name, call] of reports) {
    const want = await call(engines.without)
    const samples: Record<string, number[]> = { with: [], without: [] }
    for (let round = 0; round < ROUNDS; round++) {
      for (const side of round % 2 === 0 ? (['with', 'without'] as const) : (['without', 'with'] as const)) {
        gc()
        const { timing, last } = await timeCase(`${side} ${name}`, () => call(engines[side]), prof.slow)
        samples[side]!.push(timing.median)
        if (diffPayloads(last, want).length > 0)
          out.failures.push(`${name} on the store ${side} answers: wrong payload`)
      }
    }
    for (const side of ['with', 'without'] as const) {
      out.timings.push({
        case: `${name}, aggregate cache off, store ${side} answers`,
        fn: name,
        days: name.endsWith('365') ? 365 : 30,
        impl: 'engine',
        ...summarize(samples[side]!),
      })
    }
    const ratio = summarize(samples.with!).median / summarize(samples.without!).median
    out.notes.push(
      `${name} (cache off) with answers / without: ${ratio.toFixed(2)}x (medians of ${ROUNDS} rounds)`,
    )
  }
  await engines.with.close()
  await engines.without.close()
  removeStore(plainStore)
}

const pageCall = (engine: Engine, days: number, cursor: string | undefined) =>
  engine.computeAnswers({
    domainId,
    days,
    limit: LIMIT,
    now: BENCH_NOW,
    ...(cursor === undefined ? {} : { cursor }),
  })

/** An engine page against the peer's: the items and whether a next page exists. */
function pageDiffs(got: AnswersPayload, want: { items: unknown[]; more: boolean }): string[] {
  const diffs = diffPayloads(got.data.items, want.items)
  if ((got.data.next_cursor !== null) !== want.more)
    diffs.push(`next_cursor ${got.data.next_cursor} vs more=${want.more}`)
  return diffs
}

/** Part `pages`: pages checked against the peer, then timed beside it. */
async function pagesPart(engine: Engine): Promise<void> {
  const peerPath = outPath(`peer-answers-${dsName}.duckdb`)
  if (!existsSync(peerPath)) {
    removeStore(`${peerPath}.tmp`)
    const loaded = await stopwatch(async () =>
      (await NaiveSqlAnswers.open(`${peerPath}.tmp`, datasetRecords(spec, { answers: true }))).close(),
    )
    renameSync(`${peerPath}.tmp`, peerPath)
    out.setup['naive-sql-offset: load'] = loaded.ms
  }
  const peer = await NaiveSqlAnswers.open(peerPath)
  try {
    for (const days of WINDOWS) {
      const first = await stopwatch(() => pageCall(engine, days, undefined))
      out.setup[`engine days=${days}: first page, cold (index built)`] = first.ms
      // Pages checked: 1, 2, the middle one and the deep one (cursors followed from page 1).
      const checked = [1, 2, Math.ceil(DEEP / 2), DEEP]
      const cursors = new Map<number, string | undefined>()
      let cursor: string | undefined
      const walk = await stopwatch(async () => {
        for (let page = 1; page <= DEEP; page++) {
          if (checked.includes(page)) cursors.set(page, cursor)
          if (page === DEEP) break
          const p = await pageCall(engine, days, cursor)
          if (p.data.next_cursor === null) throw new Error(`days=${days}: no page ${page + 1}`)
          cursor = p.data.next_cursor
        }
      })
      out.setup[`engine days=${days}: ${DEEP - 1} pages followed`] = walk.ms
      for (const page of checked) {
        const got = await pageCall(engine, days, cursors.get(page))
        const want = await peer.page({ domainId, days, now: BENCH_NOW, limit: LIMIT, page })
        const diffs = pageDiffs(got, want)
        out.checks.push({
          case: `days=${days} page ${page}`,
          impl: 'engine',
          ok: diffs.length === 0,
          against: peer.name,
          diffs,
        })
        if (diffs.length > 0)
          out.failures.push(`engine days=${days} page ${page}: wrong page: ${diffs.slice(0, 3).join('; ')}`)
      }
      for (const page of [1, DEEP]) {
        const key = `page ${page} of ${LIMIT}, days=${days}`
        const want = await peer.page({ domainId, days, now: BENCH_NOW, limit: LIMIT, page })
        const medians: Record<string, number> = {}
        for (const [impl, call, slow] of [
          ['engine', () => pageCall(engine, days, cursors.get(page)), false],
          [peer.name, () => peer.page({ domainId, days, now: BENCH_NOW, limit: LIMIT, page }), true],
        ] as const) {
          gc()
          const { timing, last } = await timeCase(`${impl} ${key}`, call, slow ? prof.slow : prof.fast)
          const diffs =
            impl === 'engine'
              ? pageDiffs(last as AnswersPayload, want)
              : diffPayloads((last as typeof want).items, want.items)
          if (diffs.length > 0) out.failures.push(`${impl} ${key}: wrong while timed`)
          out.timings.push({ case: key, fn: 'computeAnswers', days, impl, ...timing })
          medians[impl] = timing.median
          log(impl.padEnd(18), key.padEnd(34), `median ${timing.median.toFixed(2)} ms`)
        }
        const ratio = medians[peer.name]! / medians.engine!
        out.notes.push(
          `${key}: engine ${medians.engine!.toFixed(2)} ms (target <= 10), ${ratio.toFixed(1)}x faster than OFFSET${page === DEEP && DEEP === 1000 ? ' (target >= 10x)' : ''}`,
        )
      }
    }
  } finally {
    peer.close()
  }
}

/** Part `commit`: the first page after a 500-analysis call, against a rebuild from the whole history. */
async function commitPart(engine: Engine): Promise<void> {
  const internals = engine as unknown as {
    aggregates: { invalidate(keys: number[]): void }
    catalog: { domains: Map<string, { key: number }> }
  }
  const key = internals.catalog.domains.get(domainId)!.key
  const dayAnalyses = [...gen.analysesOfDay(spec.main.days - 1, { answers: true })]
  const lastDay = dayAnalyses.slice(0, 500)
  // New ids each round, answered after the dataset's newest analysis (L has one at 23:59:57) and
  // still on the last day: the newest analyses of the domain (the window is a range of dates).
  const newest = Math.max(...dayAnalyses.map((a) => Date.parse(a.answered_at))) + 1
  const answeredAt = (round: number, i: number) => newest + round * lastDay.length + i
  if (answeredAt(ROUNDS - 1, lastDay.length - 1) >= Date.parse(`${spec.endDate}T00:00:00.000Z`) + 86_400_000)
    throw new Error(
      `commit: ${ROUNDS} rounds of ${lastDay.length} analyses do not fit after the last day's newest`,
    )
  const call = (round: number) =>
    withRoundIds(lastDay, round).map((a, i) => ({
      ...a,
      answered_at: new Date(answeredAt(round, i)).toISOString(),
    }))
  const after: number[] = []
  const rebuild: number[] = []
  const ingest: number[] = []
  for (let round = 0; round < ROUNDS; round++) {
    await pageCall(engine, 30, undefined) // warm
    const t0 = performance.now()
    await engine.ingest(call(round))
    ingest.push(performance.now() - t0)
    const t1 = performance.now()
    const page = await pageCall(engine, 30, undefined)
    after.push(performance.now() - t1)
    // The call's last analysis is the domain's newest: the first page starts with it.
    const want = call(round).at(-1)!.id.toLowerCase()
    if (page.data.items[0]?.id !== want)
      out.failures.push(
        `commit round ${round}: the first page does not start with the call's newest analysis`,
      )
    internals.aggregates.invalidate([key])
    const t2 = performance.now()
    const again = await pageCall(engine, 30, undefined)
    rebuild.push(performance.now() - t2)
    if (diffPayloads(again, page).length > 0) out.failures.push(`commit round ${round}: rebuilt page differs`)
  }
  for (const [impl, samples] of [
    ['first page after the commit', after],
    ['after a rebuild from the whole history', rebuild],
  ] as const) {
    out.timings.push({
      case: `page 1 of ${LIMIT}, days=30, after a 500-analysis commit`,
      fn: 'computeAnswers',
      days: 30,
      impl,
      ...summarize(samples),
    })
  }
  const a = summarize(after).median
  const b = summarize(rebuild).median
  out.notes.push(
    `first page after a 500-analysis commit: ${a.toFixed(1)} ms, against ${b.toFixed(1)} ms after a rebuild from the whole history (${(b / a).toFixed(1)}x; the call itself ${summarize(ingest).median.toFixed(0)} ms, medians of ${ROUNDS})`,
  )
}

async function main(): Promise<void> {
  const loaded = await loadEngineModule()
  if (!loaded.module) {
    out.failures.push(`engine not available: ${loaded.error}`)
    return
  }
  const mod = loaded.module
  const open: Open = (path, options = {}) => mod.openEngine({ path, ...options })
  const given = typeof args.store === 'string' ? args.store : null
  const store = given ?? outPath(`store-answers-${dsName}.duckdb`)
  if (PARTS.has('size')) await sizePart(open, store)
  else if (!existsSync(store)) {
    const r = await ingestInto(open, await ndjson(`answers-${dsName}.ndjson`, true), store)
    out.setup['engine: ingest with answers'] = r.ms
  }
  if (!PARTS.has('pages') && !PARTS.has('commit')) return
  // A copy: the commit rounds add analyses, and a kept --store must stay as the peer's data.
  const work = outPath(`store-answers-${dsName}-work.duckdb`)
  removeStore(work)
  copyFileSync(store, work)
  const engine = await open(work)
  try {
    out.sizes = { ...out.sizes, ...(await engine.stats()) }
    if (PARTS.has('pages')) await pagesPart(engine)
    if (PARTS.has('commit')) await commitPart(engine)
  } finally {
    await engine.close()
    removeStore(work)
  }
  out.memory = { rssMB: process.memoryUsage().rss / 2 ** 20, maxRssMB: process.resourceUsage().maxRSS / 1024 }
}

main()
  .catch((e: unknown) => {
    out.failures.push(`suite crashed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`)
    console.error(e)
  })
  .finally(() => {
    writeJson(`suite-answers-${dsName}.json`, out)
    process.exit(out.failures.length > 0 ? 1 : 0)
  })
