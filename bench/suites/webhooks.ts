/**
 * Webhooks speed (docs/WEBHOOKS.md), on the S store in a temp file:
 *  - a 500-analysis ingest call with detection on (a subscription, VA_SIGNALS_INTERVAL_S=0, the
 *    detector a real report read returning 20 new signals per call) beside the same call with
 *    webhooks off, rounds alternated; the median call latency of each and their ratio;
 *  - a backlog of 10,000 pending events drained to a local receiver (deliveries per second), and
 *    the p99 of a report read during the drain beside the p99 of the same reads idle.
 *
 *   npm run bench -- --only=webhooks-S   (--rounds=7, --backlog=10000; --quick: 3 rounds, 500 events)
 *
 * Writes the suite's JSON (its figures in `extra`). Until the signals report is merged, detection's report read is the brand
 * rankings (a read of the same aggregates).
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openEngine, webhooksOf } from '../../src/index.js'
import { BENCH_NOW, DATASETS, DomainGenerator, datasetRecords } from '../data/generator.js'
import { startSuite, writeJson } from '../lib/suite.js'

const suite = startSuite('webhooks', { defaultDataset: 'S' })
const ROUNDS = Number(suite.args.rounds ?? (suite.quick ? 3 : 7))
const BACKLOG = Number(suite.args.backlog ?? (suite.quick ? 500 : 10_000))
const spec = DATASETS[suite.dsName]
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
const p99 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.99)]!

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'va-bench-webhooks-'))
  let delivered = 0
  const server = createServer((req, res) => {
    req.resume()
    req.on('end', () => {
      delivered++
      res.end('ok')
    })
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`
  const engine = await openEngine({ path: join(dir, 'bench.duckdb') })
  try {
    await engine.ingest(datasetRecords(spec))
    const gen = new DomainGenerator(spec.seed, 0, spec.main, spec.endDate)
    const domainId = gen.domainId
    const hooks = webhooksOf(engine)!
    const read = () => engine.computeBrandRankings({ domainId, days: 30, now: BENCH_NOW })
    let detections = 0
    hooks.configure({
      allowPrivate: true,
      signalsIntervalS: 0,
      pollMs: 50,
      detect: async () => {
        await read()
        detections++
        return Array.from({ length: 20 }, (_, i) => ({
          id: `bench-${detections}-${i}`,
          metric: 'visibility',
        }))
      },
    })
    const lastDay = [...gen.analysesOfDay(spec.main.days - 1)].slice(0, 500)
    const call = (round: number) =>
      lastDay.map((a, i) => ({
        ...a,
        id: `${a.id.slice(0, 24)}${(round * 1000 + i).toString(16).padStart(12, 'e')}`,
      }))

    // 1. Ingest latency, webhooks off vs on (alternating; the service starts once, "off" means no subscriber).
    await hooks.start()
    const off: number[] = []
    const on: number[] = []
    let sub: string | null = null
    let round = 0
    for (let r = 0; r < ROUNDS; r++) {
      for (const mode of r % 2 === 0 ? ['off', 'on'] : ['on', 'off']) {
        if (mode === 'on' && sub === null)
          sub = (
            await hooks.create({ team_id: gen.teamId, url, events: ['signal.created'], domain_ids: null })
          ).id
        if (mode === 'off' && sub !== null) {
          await hooks.delete(sub)
          sub = null
        }
        await new Promise((res) => setTimeout(res, 300)) // the previous detection and deliveries settle
        const t0 = performance.now()
        await engine.ingest(call(round++))
        ;(mode === 'on' ? on : off).push(performance.now() - t0)
      }
    }
    if (sub !== null) await hooks.delete(sub)

    // 2. Backlog drain with reads beside it.
    const idle: number[] = []
    for (let i = 0; i < 50; i++) await read() // warm
    for (let i = 0; i < 300; i++) {
      const t = performance.now()
      await read()
      idle.push(performance.now() - t)
    }
    await hooks.close() // stop the worker: the backlog is written first
    const backlogSub = await hooks.create({
      team_id: gen.teamId,
      url,
      events: ['signal.created'],
      domain_ids: null,
    })
    const store = await hooks.store()
    const items = Array.from({ length: BACKLOG }, (_, i) => ({
      id: `backlog-${i}`,
      metric: 'visibility',
      n: i,
    }))
    await store.recordSignals({ id: domainId, team_id: gen.teamId }, items, Date.now())
    delivered = 0
    const busy: number[] = []
    const t0 = performance.now()
    await hooks.start()
    while ((await hooks.queue()).pending > 0 && performance.now() - t0 < 300_000) {
      const t = performance.now()
      await read()
      busy.push(performance.now() - t)
    }
    const seconds = (performance.now() - t0) / 1000
    void backlogSub
    const out = {
      ingest500: {
        webhooks_off_ms: +median(off).toFixed(1),
        detection_on_ms: +median(on).toFixed(1),
        ratio: +(median(on) / median(off)).toFixed(3),
        rounds: ROUNDS,
      },
      backlog: {
        events: BACKLOG,
        delivered,
        seconds: +seconds.toFixed(2),
        deliveries_per_s: Math.round(delivered / seconds),
        read_p99_idle_ms: +p99(idle).toFixed(2),
        read_p99_draining_ms: +p99(busy).toFixed(2),
        read_p99_ratio: +(p99(busy) / p99(idle)).toFixed(3),
        reads_during_drain: busy.length,
      },
    }
    suite.log(JSON.stringify(out, null, 2))
    suite.out.sizes = { rounds: ROUNDS, backlog: BACKLOG }
    suite.out.extra = out
    writeJson(`suite-webhooks-${spec.name}.json`, suite.out)
  } finally {
    await engine.close()
    server.close()
    rmSync(dir, { recursive: true, force: true })
  }
}

await main()
