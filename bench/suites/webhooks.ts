/**
 * Webhooks speed (docs/WEBHOOKS.md), on a store of the dataset in a temp file:
 *  - a 500-analysis ingest call with detection on (a subscription, VA_SIGNALS_INTERVAL_S=0, the
 *    engine's own detector: the domain's signals with the defaults after each commit) beside the
 *    same call with no subscriber, rounds alternated; the median call latency of each, their
 *    ratio, and the detections that ran;
 *  - a backlog of 10,000 pending events drained to a local receiver (deliveries per second), and
 *    the p99 of a report read looping beside the drain against the p99 of the same reads idle
 *    (the queue is polled on its own timer, not between reads);
 *  - a receiver that accepts and never answers, holding its attempts (4 in flight, the 10 s
 *    timeout) while reads loop: their p99 against the idle p99.
 *
 *   npm run bench -- --only=webhooks-S   (--rounds=7, --backlog=10000, --hang-s=15; --quick: 3
 *   rounds, 500 events, 5 s)
 *
 * Writes the suite's JSON (its figures in `extra`).
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openEngine, webhooksOf } from '../../src/index.js'
import { BENCH_NOW, DATASETS, DomainGenerator, datasetRecords } from '../data/generator.js'
import { startSuite, withRoundIds, writeJson } from '../lib/suite.js'

const suite = startSuite('webhooks', { defaultDataset: 'S' })
const ROUNDS = Number(suite.args.rounds ?? (suite.quick ? 3 : 7))
const BACKLOG = Number(suite.args.backlog ?? (suite.quick ? 500 : 10_000))
const HANG_S = Number(suite.args['hang-s'] ?? (suite.quick ? 5 : 15))
/** The wait before each timed ingest call, for the previous call's detection and deliveries. */
const SETTLE_MS = Number(suite.args['settle-ms'] ?? 1000)
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
    hooks.configure({ allowPrivate: true, signalsIntervalS: 0, pollMs: 50 })
    await engine.computeSignals({ domainId, now: BENCH_NOW }) // the counts kept, as a serving engine's
    const lastDay = [...gen.analysesOfDay(spec.main.days - 1)].slice(0, 500)
    const call = (round: number) => withRoundIds(lastDay, round)

    // 1. Ingest latency, webhooks off vs on (alternating; the service starts once, "off" means no subscriber).
    await hooks.start()
    const off: number[] = []
    const on: number[] = []
    const eventsBefore = hooks.counters.eventsCreated
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
        await new Promise((res) => setTimeout(res, SETTLE_MS)) // the previous detection and deliveries settle
        const t0 = performance.now()
        await engine.ingest(call(round++))
        ;(mode === 'on' ? on : off).push(performance.now() - t0)
      }
    }
    await new Promise((res) => setTimeout(res, SETTLE_MS))
    if (sub !== null) await hooks.delete(sub)
    const detectionErrors = hooks.counters.detectionErrors
    const events = hooks.counters.eventsCreated - eventsBefore

    /** Reads in a loop until `done()` (checked between reads), or for at most `maxMs`: their times. */
    const readLoop = async (done: () => boolean, maxMs: number): Promise<number[]> => {
      const times: number[] = []
      const t0 = performance.now()
      while (!done() && performance.now() - t0 < maxMs) {
        // One read per turn of the event loop, as requests arrive over sockets (a kept answer
        // resolves in microtasks only: a bare loop would starve the worker's timers and sockets).
        await new Promise((res) => setImmediate(res))
        const t = performance.now()
        await read()
        times.push(performance.now() - t)
      }
      return times
    }
    // 2. Backlog drain with reads beside it.
    for (let i = 0; i < 50; i++) await read() // warm
    const idle = await readLoop(() => false, suite.quick ? 1000 : 5000)
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
    let drained = false
    const t0 = performance.now()
    await hooks.start()
    const poll = (async () => {
      while (!drained && performance.now() - t0 < 300_000) {
        await new Promise((res) => setTimeout(res, 100))
        if ((await hooks.queue()).pending === 0) drained = true
      }
      drained = true
    })()
    const busy = await readLoop(() => drained, 300_000)
    await poll
    const seconds = (performance.now() - t0) / 1000
    await hooks.delete(backlogSub.id)

    // 3. A receiver that never answers: its attempts held (up to the timeout) while reads loop.
    const held = new Set<ServerResponse>()
    const hanging = createServer((req, res) => {
      req.resume()
      held.add(res)
    })
    await new Promise<void>((r) => hanging.listen(0, '127.0.0.1', r))
    const hangUrl = `http://127.0.0.1:${(hanging.address() as AddressInfo).port}/hook`
    const idleBefore = await readLoop(() => false, suite.quick ? 1000 : 5000)
    const hangSub = await hooks.create({
      team_id: gen.teamId,
      url: hangUrl,
      events: ['signal.created'],
      domain_ids: null,
    })
    await store.recordSignals(
      { id: domainId, team_id: gen.teamId },
      Array.from({ length: 200 }, (_, i) => ({ id: `hang-${i}`, metric: 'visibility' })),
      Date.now(),
    )
    ;(await hooks.worker()).notify()
    const hungReads = await readLoop(() => false, HANG_S * 1000)
    const attempts = held.size
    await hooks.delete(hangSub.id)
    for (const res of held) res.destroy()
    hanging.closeAllConnections()
    hanging.close()
    const out = {
      ingest500: {
        webhooks_off_ms: +median(off).toFixed(1),
        detection_on_ms: +median(on).toFixed(1),
        ratio: +(median(on) / median(off)).toFixed(3),
        rounds: ROUNDS,
        events_created_on: events,
        detection_errors: detectionErrors,
      },
      backlog: {
        events: BACKLOG,
        delivered,
        seconds: +seconds.toFixed(2),
        deliveries_per_s: Math.round(delivered / seconds),
        read_p99_idle_ms: +p99(idle).toFixed(2),
        read_p99_draining_ms: +p99(busy).toFixed(2),
        read_p99_ratio: +(p99(busy) / p99(idle)).toFixed(3),
        reads_idle: idle.length,
        reads_during_drain: busy.length,
      },
      hanging: {
        seconds: HANG_S,
        attempts_held: attempts,
        read_p99_idle_ms: +p99(idleBefore).toFixed(2),
        read_p99_hanging_ms: +p99(hungReads).toFixed(2),
        read_p99_ratio: +(p99(hungReads) / p99(idleBefore)).toFixed(3),
        reads_idle: idleBefore.length,
        reads_hanging: hungReads.length,
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
