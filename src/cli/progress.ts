/**
 * A small progress bar for long ingests, exports and reports. It draws on stderr, and only when
 * stderr is a terminal: piped or redirected output stays clean (no bar, no escape codes).
 */

/** The part of a writable stream the bar needs (process.stderr fits). */
export interface ProgressStream {
  write(chunk: string): unknown
  isTTY?: boolean
  columns?: number
}

export interface ProgressOptions {
  /** Shown before the bar, e.g. a domain or file name. */
  label: string
  /** Known amount of work; without it the bar shows a spinner, the count and the rate. */
  total?: number
  /** What is counted, e.g. 'records' (default: no unit). */
  unit?: string
  /** Where to draw (default process.stderr). */
  stream?: ProgressStream
  /** Draw or not (default: whether the stream is a TTY). */
  enabled?: boolean
  /** Clock in milliseconds (default Date.now); tests pass a fake one. */
  now?: () => number
  /** Redraw at most this often (default 80 ms); the first and the last state are always drawn. */
  minIntervalMs?: number
  /** Width of the bar in characters (default 24). */
  barWidth?: number
}

export interface Progress {
  /** Whether the bar draws anything. */
  readonly enabled: boolean
  /** Work done so far. */
  readonly value: number
  /** Adds `n` (default 1) to the work done. */
  tick(n?: number): void
  /** Sets the work done. */
  update(done: number): void
  /** Sets (or changes) the total. */
  setTotal(total: number): void
  /** Changes the label, e.g. to say which step runs. */
  setLabel(label: string): void
  /** Draws the final state, with an optional closing message, and ends the line. */
  done(message?: string): void
  /** Clears the bar's line without a final state (e.g. before printing an error). */
  clear(): void
}

const SPINNER = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏']

/**
 * A duration in seconds as '0.4s', '12s', '3m05s' or '1h02m'.
 * @example
 * formatDuration(185) // '3m05s'
 */
export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return '?'
  if (seconds < 9.95) return `${seconds.toFixed(1)}s`
  const s = Math.round(seconds)
  if (s < 60) return `${s}s`
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`
}

/**
 * A rate per second as '3.4/s', '340/s', '12.3k/s' or '1.2M/s'.
 * @example
 * formatRate(12_345) // '12.3k/s'
 */
export function formatRate(perSecond: number): string {
  if (!Number.isFinite(perSecond) || perSecond < 0) return '?/s'
  if (perSecond < 10) return `${perSecond.toFixed(1)}/s`
  if (perSecond < 1000) return `${Math.round(perSecond)}/s`
  if (perSecond < 1e6) return `${(perSecond / 1000).toFixed(1)}k/s`
  return `${(perSecond / 1e6).toFixed(1)}M/s`
}

function formatCount(n: number): string {
  return String(Math.round(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ',')
}

/**
 * Creates a progress bar. With a total it shows the bar, percent, count, rate and ETA; without one
 * a spinner, the count, rate and elapsed time. Quiet (every call a no-op) when the stream is not a
 * TTY, unless `enabled` says otherwise.
 * @example
 * const bar = createProgress({ label: 'ingest data.ndjson', total: lines, unit: 'records' })
 * for await (const batch of batches) bar.tick(batch.length)
 * bar.done()
 * // ingest data.ndjson [██████████░░░░░░░░░░░░░░]  42% 420,000/1,000,000 records · 210.0k/s · ETA 3s
 */
export function createProgress(options: ProgressOptions): Progress {
  const stream = options.stream ?? process.stderr
  const enabled = options.enabled ?? stream.isTTY === true
  const now = options.now ?? Date.now
  const minInterval = options.minIntervalMs ?? 80
  const barWidth = options.barWidth ?? 24
  const unit = options.unit ? ` ${options.unit}` : ''
  const start = now()
  let label = options.label
  let total = options.total
  let value = 0
  let lastDraw = Number.NEGATIVE_INFINITY
  let frame = 0
  let finished = false
  let drawn = false

  function line(final: boolean, suffix = ''): string {
    const elapsed = (now() - start) / 1000
    const rate = elapsed > 0 ? value / elapsed : Number.NaN
    const parts: string[] = []
    if (total !== undefined && total > 0) {
      const ratio = Math.min(1, Math.max(0, value / total))
      const full = Math.round(ratio * barWidth)
      const bar = '█'.repeat(full) + '░'.repeat(barWidth - full)
      parts.push(`${label} [${bar}] ${String(Math.floor(ratio * 100)).padStart(3)}%`)
      parts.push(` ${formatCount(value)}/${formatCount(total)}${unit}`)
      if (Number.isFinite(rate) && value > 0) parts.push(` · ${formatRate(rate)}`)
      if (final) parts.push(` · ${formatDuration(elapsed)}`)
      else if (Number.isFinite(rate) && rate > 0 && value < total) {
        parts.push(` · ETA ${formatDuration((total - value) / rate)}`)
      }
    } else {
      parts.push(`${label} ${final ? '✓' : SPINNER[frame++ % SPINNER.length]} ${formatCount(value)}${unit}`)
      if (Number.isFinite(rate) && value > 0) parts.push(` · ${formatRate(rate)}`)
      parts.push(` · ${formatDuration(elapsed)}`)
    }
    const text = parts.join('') + suffix
    const columns = stream.columns
    // Never wrap: a wrapped line cannot be redrawn with \r.
    const max = columns !== undefined && columns > 1 ? columns - 1 : Number.POSITIVE_INFINITY
    const chars = Array.from(text)
    return chars.length > max ? chars.slice(0, Math.max(0, max - 1)).join('') + '…' : text
  }

  function draw(force: boolean): void {
    if (!enabled || finished) return
    const t = now()
    if (!force && t - lastDraw < minInterval) return
    lastDraw = t
    drawn = true
    stream.write(`\r${line(false)}\x1b[K`)
  }

  return {
    enabled,
    get value() {
      return value
    },
    tick(n = 1) {
      value += n
      draw(total !== undefined && value >= total)
    },
    update(done) {
      value = done
      draw(total !== undefined && value >= total)
    },
    setTotal(t) {
      total = t
      draw(false)
    },
    setLabel(l) {
      label = l
      draw(true)
    },
    done(message) {
      if (!enabled || finished) return
      stream.write(`\r${line(true, message ? ` ${message}` : '')}\x1b[K\n`)
      finished = true
    },
    clear() {
      if (!enabled || finished) return
      if (drawn) stream.write('\r\x1b[K')
      finished = true
    },
  }
}
