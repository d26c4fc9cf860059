import { describe, expect, it } from 'vitest'
import { createProgress, formatDuration, formatRate, type ProgressStream } from '../../src/cli/progress.js'

function fakeStream(isTTY: boolean, columns?: number): ProgressStream & { out: string[] } {
  const out: string[] = []
  return {
    out,
    isTTY,
    ...(columns !== undefined ? { columns } : {}),
    write(chunk: string) {
      out.push(chunk)
      return true
    },
  }
}

function fakeClock(start = 1_000_000): { now: () => number; advance: (ms: number) => void } {
  let t = start
  return { now: () => t, advance: (ms) => void (t += ms) }
}

/** What a terminal would show last: the text after the last \r, without escape codes. */
function screen(out: string[]): string {
  const all = out.join('')
  const last = all.slice(all.lastIndexOf('\r') + 1)
  // eslint-disable-next-line no-control-regex
  return last.replace(/\x1b\[K/g, '')
}

describe('progress bar', () => {
  it('is quiet when the stream is not a TTY', () => {
    const s = fakeStream(false)
    const p = createProgress({ label: 'x', total: 10, stream: s })
    p.tick(5)
    p.setLabel('y')
    p.done('ok')
    p.clear()
    expect(s.out).toEqual([])
    expect(p.enabled).toBe(false)
    expect(p.value).toBe(5)
  })

  it('draws a bar with percent, count, rate and ETA when the total is known', () => {
    const s = fakeStream(true, 200)
    const c = fakeClock()
    const p = createProgress({ label: 'ingest', total: 1000, unit: 'records', stream: s, now: c.now })
    c.advance(2000)
    p.tick(250)
    expect(screen(s.out)).toBe('ingest [██████░░░░░░░░░░░░░░░░░░]  25% 250/1,000 records · 125/s · ETA 6.0s')
    expect(s.out.at(-1)!.startsWith('\r')).toBe(true)
    expect(s.out.at(-1)!.endsWith('\x1b[K')).toBe(true)
    c.advance(6000)
    p.update(1000)
    expect(screen(s.out)).toBe('ingest [████████████████████████] 100% 1,000/1,000 records · 125/s')
    p.done('done')
    expect(s.out.at(-1)).toBe(
      '\ringest [████████████████████████] 100% 1,000/1,000 records · 125/s · 8.0s done\x1b[K\n',
    )
    const n = s.out.length
    p.tick()
    p.done()
    expect(s.out.length).toBe(n) // nothing after done
  })

  it('throttles redraws but always draws the end', () => {
    const s = fakeStream(true)
    const c = fakeClock()
    const p = createProgress({ label: 'x', total: 100, stream: s, now: c.now, minIntervalMs: 100 })
    for (let i = 0; i < 99; i++) {
      p.tick()
      c.advance(1)
    }
    expect(s.out.length).toBe(1) // the first tick only
    p.tick() // reaches the total: drawn at once
    expect(s.out.length).toBe(2)
    expect(screen(s.out)).toContain('100%')
  })

  it('shows a spinner, count, rate and elapsed time without a total', () => {
    const s = fakeStream(true)
    const c = fakeClock()
    const p = createProgress({ label: 'export', unit: 'rows', stream: s, now: c.now, minIntervalMs: 0 })
    c.advance(500)
    p.tick(1500)
    expect(screen(s.out)).toBe('export ⠋ 1,500 rows · 3.0k/s · 0.5s')
    c.advance(500)
    p.tick(1500)
    expect(screen(s.out)).toBe('export ⠙ 3,000 rows · 3.0k/s · 1.0s')
    p.done()
    expect(s.out.at(-1)).toBe('\rexport ✓ 3,000 rows · 3.0k/s · 1.0s\x1b[K\n')
  })

  it('never wraps: the line is cut to the terminal width', () => {
    const s = fakeStream(true, 30)
    const p = createProgress({ label: 'a very long label that goes on', total: 10, stream: s })
    p.tick()
    const shown = screen(s.out)
    expect(Array.from(shown).length).toBe(29)
    expect(shown.endsWith('…')).toBe(true)
  })

  it('clear() erases the line; setTotal and setLabel redraw', () => {
    const s = fakeStream(true)
    const c = fakeClock()
    const p = createProgress({ label: 'a', stream: s, now: c.now, minIntervalMs: 0 })
    p.tick()
    p.setTotal(4)
    p.setLabel('b')
    expect(screen(s.out)).toMatch(/^b \[█{6}░{18}\] {2}25% 1\/4/)
    p.clear()
    expect(s.out.at(-1)).toBe('\r\x1b[K')
    p.done()
    expect(s.out.at(-1)).toBe('\r\x1b[K')
  })

  it('formats durations and rates', () => {
    expect(formatDuration(0)).toBe('0.0s')
    expect(formatDuration(0.42)).toBe('0.4s')
    expect(formatDuration(9.96)).toBe('10s')
    expect(formatDuration(59.4)).toBe('59s')
    expect(formatDuration(185)).toBe('3m05s')
    expect(formatDuration(3725)).toBe('1h02m')
    expect(formatDuration(Number.NaN)).toBe('?')
    expect(formatRate(3.44)).toBe('3.4/s')
    expect(formatRate(340.2)).toBe('340/s')
    expect(formatRate(12_345)).toBe('12.3k/s')
    expect(formatRate(1_234_567)).toBe('1.2M/s')
  })
})
