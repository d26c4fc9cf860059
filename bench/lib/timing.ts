/**
 * Timing with tinybench: one Bench per case so each case gets its own budget, samples retained so
 * the median and p95 come from the same samples. A case's last returned payload is kept so the
 * caller can check that what was timed was right.
 */
import { readFileSync } from 'node:fs'
import { Bench } from 'tinybench'

export interface TimingOptions {
  /** Time budget in ms (tinybench `time`). */
  time: number
  /** Minimum iterations. */
  iterations: number
  warmupIterations: number
  warmupTime: number
}

export interface Timing {
  median: number
  /** First and third quartiles (the spread a baseline comparison reads, bench/lib/baseline.ts). */
  p25?: number
  p75?: number
  p95: number
  mean: number
  min: number
  max: number
  samples: number
}

/** Linear-interpolated quantile of sorted samples. */
export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return NaN
  const pos = (sorted.length - 1) * q
  const lo = Math.floor(pos)
  const hi = Math.ceil(pos)
  const a = sorted[lo] as number
  const b = sorted[hi] as number
  return a + (b - a) * (pos - lo)
}

/** The statistics of samples taken by hand (ms). */
export function summarize(samples: readonly number[]): Timing {
  const sorted = [...samples].sort((a, b) => a - b)
  return {
    median: quantile(sorted, 0.5),
    p25: quantile(sorted, 0.25),
    p75: quantile(sorted, 0.75),
    p95: quantile(sorted, 0.95),
    mean: sorted.reduce((a, b) => a + b, 0) / sorted.length,
    min: sorted[0] ?? NaN,
    max: sorted[sorted.length - 1] ?? NaN,
    samples: sorted.length,
  }
}

/** Times `fn`; returns the statistics (ms) and the value the last iteration returned. */
export async function timeCase(
  name: string,
  fn: () => unknown,
  opts: TimingOptions,
): Promise<{ timing: Timing; last: unknown }> {
  let last: unknown
  const bench = new Bench({
    name,
    time: opts.time,
    iterations: opts.iterations,
    warmup: opts.warmupIterations > 0,
    warmupIterations: opts.warmupIterations,
    warmupTime: opts.warmupTime,
    retainSamples: true,
    throws: true,
  })
  bench.add(name, async () => {
    last = await fn()
  })
  await bench.run()
  const task = bench.tasks[0]
  const r = task?.result
  if (!r || !('latency' in r)) throw new Error(`${name}: no result (${r?.state ?? 'missing'})`)
  const samples = [...(r.latency.samples ?? [])].sort((x, y) => x - y)
  return {
    timing: {
      median: quantile(samples, 0.5),
      p25: quantile(samples, 0.25),
      p75: quantile(samples, 0.75),
      p95: quantile(samples, 0.95),
      mean: r.latency.mean,
      min: r.latency.min,
      max: r.latency.max,
      samples: samples.length,
    },
    last,
  }
}

/** Wall-clock of one async step, ms. */
export async function stopwatch<T>(fn: () => Promise<T> | T): Promise<{ ms: number; value: T }> {
  const t0 = performance.now()
  const value = await fn()
  return { ms: performance.now() - t0, value }
}

/** The median CPU time (user + system, ms) of `n` calls of `f`, one after the other. */
export async function cpuMedian(f: () => Promise<unknown>, n: number): Promise<number> {
  const ms: number[] = []
  for (let i = 0; i < n; i++) {
    const c0 = process.cpuUsage()
    await f()
    const d = process.cpuUsage(c0)
    ms.push((d.user + d.system) / 1000)
  }
  return ms.sort((a, b) => a - b)[Math.floor(n / 2)]!
}

/**
 * The main thread's time on a CPU and waiting for one, in ms (Linux: its schedstat), or NaN
 * elsewhere. On a loaded machine a wall-clock gap includes the time the thread waited for a core.
 * @example
 * const t0 = mainThreadTimes() // later: mainThreadTimes().cpu - t0.cpu
 */
export function mainThreadTimes(): { cpu: number; wait: number } {
  try {
    const [cpu, wait] = readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8').split(' ')
    return { cpu: Number(cpu) / 1e6, wait: Number(wait) / 1e6 }
  } catch {
    return { cpu: Number.NaN, wait: Number.NaN }
  }
}
