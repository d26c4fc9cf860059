/**
 * Payload comparison for the correctness gate: structure, key order, strings and integers exact;
 * non-integer numbers within a relative tolerance (peers sum floats in different orders);
 * `generated_at` compared as an instant (format is the golden tests' business, not the bench's).
 */

export interface CompareOptions {
  /** Relative tolerance for non-integer numbers. */
  relTol?: number
  /** Stop after this many differences. */
  max?: number
}

/** Differences between `actual` and `expected` (empty when equal), as `path: actual vs expected`. */
export function diffPayloads(actual: unknown, expected: unknown, opts: CompareOptions = {}): string[] {
  const relTol = opts.relTol ?? 1e-9
  const max = opts.max ?? 10
  const out: string[] = []
  const show = (v: unknown): string => {
    const s = JSON.stringify(v)
    return s === undefined ? String(v) : s.length > 80 ? s.slice(0, 77) + '...' : s
  }
  const walk = (a: unknown, e: unknown, path: string): void => {
    if (out.length >= max) return
    if (typeof e === 'number' && typeof a === 'number') {
      if (a === e) return
      if (Number.isInteger(e) && Number.isInteger(a)) {
        out.push(`${path}: ${a} vs ${e}`)
        return
      }
      const scale = Math.max(Math.abs(a), Math.abs(e), 1e-12)
      if (Math.abs(a - e) / scale > relTol || !Number.isFinite(a)) out.push(`${path}: ${a} vs ${e}`)
      return
    }
    if (Array.isArray(e)) {
      if (!Array.isArray(a)) {
        out.push(`${path}: ${show(a)} vs array`)
        return
      }
      if (a.length !== e.length) out.push(`${path}.length: ${a.length} vs ${e.length}`)
      const n = Math.min(a.length, e.length)
      for (let i = 0; i < n; i++) walk(a[i], e[i], `${path}[${i}]`)
      return
    }
    if (e !== null && typeof e === 'object') {
      if (a === null || typeof a !== 'object' || Array.isArray(a)) {
        out.push(`${path}: ${show(a)} vs object`)
        return
      }
      const ak = Object.keys(a)
      const ek = Object.keys(e)
      if (ak.join(',') !== ek.join(',')) out.push(`${path} keys: [${ak.join(',')}] vs [${ek.join(',')}]`)
      for (const k of ek) {
        const av = (a as Record<string, unknown>)[k]
        const ev = (e as Record<string, unknown>)[k]
        if (k === 'generated_at' && typeof av === 'string' && typeof ev === 'string') {
          if (Date.parse(av) !== Date.parse(ev)) out.push(`${path}.${k}: ${av} vs ${ev}`)
        } else walk(av, ev, `${path}.${k}`)
      }
      return
    }
    if (a !== e) out.push(`${path}: ${show(a)} vs ${show(e)}`)
  }
  walk(actual, expected, '$')
  return out
}
