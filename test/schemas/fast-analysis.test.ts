/**
 * The ingest fast path may only ever accept what zod accepts: on valid records and on thousands of
 * mutated ones, `isPlainValidAnalysis(x)` implies `analysisSchema.safeParse(x).success`.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { isPlainValidAnalysis } from '../../src/schemas/fast-analysis.js'
import { analysisSchema } from '../../src/schemas/records.js'
import { CHANNELS } from '../../src/foundation/vocabulary.js'

const hex = (n: number) => fc.stringMatching(new RegExp(`^[0-9a-fA-F]{${n}}$`))
const uuid = fc.tuple(hex(8), hex(4), hex(4), hex(4), hex(12)).map((p) => p.join('-'))
const stamp = fc
  .tuple(
    fc.date({
      min: new Date('2000-01-01T00:00:00Z'),
      max: new Date('2099-12-31T00:00:00Z'),
      noInvalidDate: true,
    }),
    fc.constantFrom('Z', '+05:30', '-03:00', '+00:00'),
    fc.boolean(),
  )
  .map(([d, tz, ms]) => d.toISOString().slice(0, ms ? 23 : 19) + tz)

/** Text of 1 to `max` characters, or null. */
const textOrNull = (max: number) => fc.oneof(fc.constant(null), fc.string({ minLength: 1, maxLength: max }))
/** A fan-out query: 1-500 characters once trimmed, maybe padded with white space. */
const fanoutQuery = fc
  .tuple(
    fc.constantFrom('', ' ', '\t', '\u00a0', '\n'),
    fc.string({ minLength: 1, maxLength: 40 }).filter((q) => q.trim().length > 0),
    fc.constantFrom('', '  ', '\ufeff'),
  )
  .map(([a, q, b]) => a + q + b)

const validAnalysis = fc.record(
  {
    type: fc.constant('analysis'),
    id: uuid,
    domain_id: uuid,
    prompt_id: uuid,
    channel: fc.constantFrom(...CHANNELS),
    model: fc.stringMatching(/^[A-Za-z0-9._:/@+-]{1,20}$/),
    answered_at: stamp,
    mentions: fc.array(
      fc.record({
        entity_id: fc.oneof(fc.constant('brand'), uuid),
        position: fc.oneof(fc.constant(null), fc.integer({ min: 1, max: 50 })),
        sentiment: fc.oneof(
          fc.constant(null),
          fc.integer({ min: 0, max: 100 }),
          fc.double({ min: 0, max: 100, noNaN: true }),
        ),
      }),
      { maxLength: 4 },
    ),
    citations: fc.array(
      fc.record(
        {
          url: fc.webUrl({ validSchemes: ['http', 'https'], withQueryParameters: true, withFragments: true }),
          title: textOrNull(1000),
          page_type: textOrNull(100),
        },
        { requiredKeys: ['url'] },
      ),
      { maxLength: 3 },
    ),
    themes: fc.array(fc.record({ theme_id: uuid, occurrences: fc.integer({ min: 1, max: 9 }) }), {
      maxLength: 3,
    }),
    fanout_queries: fc.array(fanoutQuery, { maxLength: 5 }),
    country: fc.oneof(fc.constant(null), fc.stringMatching(/^[A-Za-z]{2}$/)),
    response: fc.oneof(fc.constant(null), fc.constant(''), fc.string({ maxLength: 200 })),
  },
  {
    requiredKeys: [
      'type',
      'id',
      'domain_id',
      'prompt_id',
      'channel',
      'model',
      'answered_at',
      'mentions',
      'citations',
      'themes',
    ],
  },
)

/** A JSON-ish value to put where it does not belong. */
const junk = fc.oneof(
  fc.constant(null),
  fc.constant(undefined),
  fc.boolean(),
  fc.integer(),
  fc.double(),
  fc.string(),
  fc.constant(''),
  fc.constant('brand'),
  fc.constant(-1),
  fc.constant(0),
  fc.constant(101),
  fc.constant(1.5),
  fc.constant(2 ** 31),
  fc.constant(Number.NaN),
  fc.constant(Number.POSITIVE_INFINITY),
  fc.constant('2026-11-19T10:00:00'),
  fc.constant('ftp://x.com'),
  fc.constant('https://'),
  fc.constant('   '),
  fc.constant('x'.repeat(101)),
  fc.constant('x'.repeat(501)),
  fc.constant('x'.repeat(1001)),
  fc.constant(Array.from({ length: 101 }, () => 'q')),
  fc.constant('x'.repeat(200_001)),
  fc.constantFrom('us', 'USA', 'U', 'u1', '\u00c9S', 'us '),
  fc.constant([' ']),
  fc.array(fc.anything(), { maxLength: 2 }),
  fc.object({ maxDepth: 1 }),
)

/** Sets, deletes or adds a value somewhere in the record (top level or one level into an array item). */
function mutate(
  record: Record<string, unknown>,
  path: string[],
  value: unknown,
  mode: 'set' | 'delete' | 'add',
) {
  const copy = structuredClone(record) as Record<string, unknown>
  let target: Record<string, unknown> = copy
  for (const key of path.slice(0, -1)) {
    const next = (target as Record<string, unknown>)[key]
    if (typeof next !== 'object' || next === null) return copy
    target = next as Record<string, unknown>
  }
  const last = path[path.length - 1]!
  if (mode === 'delete') delete target[last]
  else if (mode === 'add') target[`${last}_extra`] = value
  else target[last] = value
  return copy
}

const paths = [
  ['type'],
  ['id'],
  ['domain_id'],
  ['prompt_id'],
  ['channel'],
  ['model'],
  ['answered_at'],
  ['mentions'],
  ['citations'],
  ['themes'],
  ['mentions', '0'],
  ['mentions', '0', 'entity_id'],
  ['mentions', '0', 'position'],
  ['mentions', '0', 'sentiment'],
  ['citations', '0', 'url'],
  ['citations', '0', 'title'],
  ['citations', '0', 'page_type'],
  ['fanout_queries'],
  ['fanout_queries', '0'],
  ['country'],
  ['response'],
  ['themes', '0', 'theme_id'],
  ['themes', '0', 'occurrences'],
]

describe('the analysis fast path', () => {
  it('accepts valid records (and zod agrees)', () => {
    fc.assert(
      fc.property(validAnalysis, (a) => {
        expect(analysisSchema.safeParse(a).success).toBe(true)
        expect(isPlainValidAnalysis(a)).toBe(true)
      }),
      { numRuns: 500 },
    )
  })

  it('never accepts what zod refuses', () => {
    let refused = 0
    fc.assert(
      fc.property(
        validAnalysis,
        fc.constantFrom(...paths),
        junk,
        fc.constantFrom('set', 'delete', 'add') as fc.Arbitrary<'set' | 'delete' | 'add'>,
        (a, path, value, mode) => {
          const m = mutate(a, path, value, mode)
          const zodOk = analysisSchema.safeParse(m).success
          if (!zodOk) refused++
          if (isPlainValidAnalysis(m)) expect(zodOk).toBe(true)
        },
      ),
      { numRuns: 3000 },
    )
    expect(refused).toBeGreaterThan(1000)
  })
})
