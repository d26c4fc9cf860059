/**
 * Command-line flags checked by the API's parameter rules (src/schemas/params.ts through
 * src/api): the same bounds, patterns and defaults as the HTTP query string, with the flag's name
 * in the message (`--days must be an integer from 1 to 365`).
 */
import { isValidationError, type Engine } from '../index.js'
import { nowParam, type Endpoint, type Param } from '../api/index.js'
import { UsageError } from './errors.js'

/**
 * The value of a flag (its default when absent); a missing required flag or a bad value is a
 * usage error naming the flag.
 * @example
 * const days = flagValue(daysParam, values.days) // 30 when --days is absent
 */
export function flagValue<T>(param: Param<T, unknown>, raw: string | undefined): T {
  if (raw === undefined && param.required) throw new UsageError(`--${param.flag} is required`)
  const parsed = param.text.safeParse(raw)
  if (!parsed.success) throw new UsageError(`--${param.flag} must be ${param.mustBe}`)
  return parsed.data
}

/** The flags of an endpoint's parameters, by flag name. */
export function endpointFlags(endpoint: Endpoint): Map<string, Param> {
  return new Map(Object.values(endpoint.params).map((param) => [param.flag, param]))
}

/**
 * Runs an endpoint of the table with flag values (`--now` included), as a local caller.
 * Parameters the engine still refuses are usage errors too.
 * @example
 * const payload = await computeWithFlags(engine, endpoint, { domain: id, days: '7', now: undefined })
 */
export async function computeWithFlags(
  engine: Engine,
  endpoint: Endpoint,
  flags: Readonly<Record<string, string | undefined>>,
): Promise<unknown> {
  const values: Record<string, unknown> = {}
  for (const [flag, param] of endpointFlags(endpoint)) values[param.name] = flagValue(param, flags[flag])
  const now = flagValue(nowParam, flags[nowParam.flag]) ?? new Date()
  try {
    // The window's rules between flags (--days with --start, --start without --end, ...).
    const params = endpoint.normalize(values as never)
    return await endpoint.compute(engine, params, { now, caller: null })
  } catch (e) {
    if (isValidationError(e)) throw new UsageError(e.message, { cause: e })
    throw e
  }
}
