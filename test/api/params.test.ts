/**
 * One home for the parameter rules (src/schemas/params.ts): the library, the HTTP service and the
 * CLI refuse the same values with the same sentence, and fill in the same defaults.
 */
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  channelModelParam,
  daysParam,
  domainIdParam,
  limitParam,
  ENDPOINTS,
  modelParam,
  nowParam,
  sentimentDomainIdParam,
  type Param,
} from '../../src/api/index.js'
import { flagValue } from '../../src/cli/flags.js'
import { UsageError } from '../../src/cli/errors.js'
import { buildServer } from '../../src/http/index.js'
import { CHANNELS, isValidationError, openEngine, type Engine } from '../../src/index.js'
import { base, DOMAIN, NOW, TEAM } from '../support/records.js'

const CHANNEL_LIST = CHANNELS.join(', ')

/** The sentence every surface must give for a bad value (the HTTP one is published in docs/API.md). */
const MESSAGES = {
  domain_id: 'domain_id must be a UUID.',
  days: 'days must be an integer from 1 to 365.',
  limit: 'limit must be an integer from 1 to 100.',
  channelModel: `model must be all or one of the channels ${CHANNEL_LIST}.`,
  model: `model must be all, one of the channels ${CHANNEL_LIST}, or a raw model identifier of 1 to 100 characters from A-Z a-z 0-9 . _ : / @ + -.`,
}

type Compute = 'computePromptSeries' | 'computeCompetitorSeries' | 'computeSentimentOverview'
/** Each engine function's route, read from the endpoint table. */
const PATHS = Object.fromEntries(
  (['computePromptSeries', 'computeCompetitorSeries', 'computeSentimentOverview'] as const).map((m) => [
    m,
    ENDPOINTS.find((e) => e.method === m)!.path,
  ]),
) as Record<Compute, string>

/** [what, engine function, library value, query-string value, param, expected message] */
const CASES: Array<[string, Compute, Record<string, unknown>, string, Param<unknown, unknown>, string]> = [
  ['days 0', 'computePromptSeries', { days: 0 }, 'days=0', daysParam, MESSAGES.days],
  ['days 366', 'computeCompetitorSeries', { days: 366 }, 'days=366', daysParam, MESSAGES.days],
  ['days 1.5', 'computeSentimentOverview', { days: 1.5 }, 'days=1.5', daysParam, MESSAGES.days],
  ['limit 0', 'computePromptSeries', { limit: 0 }, 'limit=0', limitParam, MESSAGES.limit],
  ['limit 101', 'computePromptSeries', { limit: 101 }, 'limit=101', limitParam, MESSAGES.limit],
  [
    'competitor model gpt-4o',
    'computeCompetitorSeries',
    { model: 'gpt-4o' },
    'model=gpt-4o',
    channelModelParam,
    MESSAGES.channelModel,
  ],
  [
    'sentiment model with a space',
    'computeSentimentOverview',
    { model: 'gpt 4' },
    'model=gpt%204',
    modelParam,
    MESSAGES.model,
  ],
]

describe('parameter rules: one sentence per rule on every surface', () => {
  let engine: Engine
  let app: FastifyInstance
  let headers: Record<string, string>

  beforeAll(async () => {
    engine = await openEngine()
    await engine.ingest(base())
    const { key } = await engine.createApiKey({ teamId: TEAM })
    headers = { authorization: `Bearer ${key}` }
    app = await buildServer({ engine, logger: false, rateLimit: { limit: 1000, windowSeconds: 60 } })
  })
  afterAll(async () => {
    await app.close()
    await engine.close()
  })

  it.each(CASES)(
    '%s: library, HTTP and CLI say the same',
    async (_what, fn, libValue, query, param, message) => {
      const error = await engine[fn]({ domainId: DOMAIN, now: NOW, ...libValue }).catch((e: unknown) => e)
      expect(isValidationError(error) && error.issues[0]?.message).toBe(message)

      const res = await app.inject({ url: `${PATHS[fn]}?domain_id=${DOMAIN}&${query}`, headers })
      expect([res.statusCode, res.json()]).toEqual([400, { detail: message }])

      const cli = (() => {
        try {
          return flagValue(param, decodeURIComponent(query.split('=')[1]!))
        } catch (e) {
          return e
        }
      })()
      expect(cli).toBeInstanceOf(UsageError)
      expect((cli as Error).message).toBe(`--${param.flag} ${message.slice(param.name.length + 1, -1)}`)
    },
  )

  it('domain_id: a malformed id is the same sentence in the library and over HTTP (prompt, competitor)', async () => {
    const error = await engine.computePromptSeries({ domainId: 'nope' }).catch((e: unknown) => e)
    expect(isValidationError(error) && error.issues[0]?.message).toBe(MESSAGES.domain_id)
    const res = await app.inject({ url: `${PATHS.computePromptSeries}?domain_id=nope`, headers })
    expect(res.json()).toEqual({ detail: MESSAGES.domain_id })
    expect(() => flagValue(domainIdParam, 'nope')).toThrow('--domain must be a UUID')
    expect(() => flagValue(domainIdParam, undefined)).toThrow('--domain is required')
    // The sentiment form lets any id through to the domain check (404 over HTTP).
    expect(sentimentDomainIdParam.text.parse('NOPE')).toBe('nope')
  })

  it('defaults are the same everywhere: days 30, limit 25, model all', async () => {
    const lib = await engine.computePromptSeries({ domainId: DOMAIN, now: NOW })
    const http = await app.inject({ url: `${PATHS.computePromptSeries}?domain_id=${DOMAIN}`, headers })
    expect([lib.days, lib.limit]).toEqual([30, 25])
    expect(http.json()).toMatchObject({ days: 30, limit: 25 })
    // days: absent stays absent in the flag (a range may stand instead); the window rules default it.
    const flags = {
      domain_id: DOMAIN,
      days: flagValue(daysParam, undefined),
      limit: flagValue(limitParam, undefined),
    }
    const prompts = ENDPOINTS.find((e) => e.id === 'prompt-series')!
    expect(prompts.normalize(flags as never)).toEqual({ domain_id: DOMAIN, days: 30, limit: 25 })
    const sentiment = await engine.computeSentimentOverview({ domainId: DOMAIN, now: NOW })
    expect(sentiment.model).toBe('all')
    expect([flagValue(modelParam, undefined), flagValue(channelModelParam, undefined)]).toEqual([
      'all',
      'all',
    ])
  })

  it('the text form accepts what the value form accepts, at the bounds', () => {
    for (const [param, values] of [
      [daysParam, [1, 365]],
      [limitParam, [1, 100]],
    ] as const) {
      for (const v of values) expect([param.text.parse(String(v)), param.value.parse(v)]).toEqual([v, v])
      expect(param.text.parse('007')).toBe(7)
    }
    for (const model of ['all', ...CHANNELS]) expect(channelModelParam.text.parse(model)).toBe(model)
    expect(modelParam.value.parse('gpt-4o-2024-08-06')).toBe('gpt-4o-2024-08-06')
  })

  it('now: an ISO 8601 timestamp with an offset (library: also a Date)', async () => {
    expect(flagValue(nowParam, '2026-11-20T12:00:00-03:00')).toBe('2026-11-20T12:00:00-03:00')
    expect(() => flagValue(nowParam, '2026-11-20')).toThrow(
      '--now must be an ISO 8601 timestamp with Z or an offset',
    )
    const error = await engine
      .computePromptSeries({ domainId: DOMAIN, now: 'yesterday' })
      .catch((e: unknown) => e)
    expect(isValidationError(error) && error.issues[0]?.message).toBe(
      'now must be a Date or an ISO 8601 timestamp with Z or an offset.',
    )
  })
})
