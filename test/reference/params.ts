/**
 * Parameter rules of the reference model: the model filter (semantics.md section 3) and integer
 * bounds. Each throws the engine's ValidationError naming the parameter.
 */
import { CHANNELS } from '../../src/foundation/vocabulary.js'
import { ValidationError } from '../../src/errors.js'

const RAW_MODEL = /^[A-Za-z0-9._:/@+-]{1,100}$/
export const isChannel = (m: string): boolean => (CHANNELS as readonly string[]).includes(m)

/**
 * The model filter, checked: `all`, a channel name, and with `rawIds` any raw model identifier.
 * Returns the analysis predicate and the echoed value.
 */
export function modelFilter(
  model: string | undefined,
  rawIds: boolean,
): { model: string; keep: (a: { channel: string; model: string }) => boolean } {
  const m = model ?? 'all'
  if (m === 'all') return { model: m, keep: () => true }
  if (isChannel(m)) return { model: m, keep: (a) => a.channel === m }
  if (!rawIds) {
    throw new ValidationError([{ path: 'model', message: 'model must be all or a channel name.' }])
  }
  if (!RAW_MODEL.test(m)) {
    throw new ValidationError([
      { path: 'model', message: 'model must be all, a channel name or a model id.' },
    ])
  }
  return { model: m, keep: (a) => a.model === m }
}

/** An integer parameter within bounds (no upper bound when `max` is Infinity), or its default. */
export function intParam(
  name: string,
  value: number | undefined,
  dflt: number,
  min: number,
  max: number,
): number {
  const v = value ?? dflt
  if (!Number.isInteger(v) || v < min || v > max) {
    const range = max === Infinity ? `>= ${min}` : `from ${min} to ${max}`
    throw new ValidationError([{ path: name, message: `${name} must be an integer ${range}.` }])
  }
  return v
}

/**
 * `granularity` on an endpoint that is not a time series is refused (docs/API.md, "Date ranges and
 * buckets").
 */
export function rejectGranularity(p: object): void {
  if ('granularity' in p && (p as { granularity?: unknown }).granularity !== undefined) {
    throw new ValidationError([
      { path: 'granularity', message: 'granularity is accepted only by the time-series endpoints.' },
    ])
  }
}
