/**
 * Ingest fuzzing (semantics.md 1.3): calls that mix good records with 1-3 malformed ones, as JS
 * objects and as NDJSON files (plus byte-level damage: truncated lines, invalid UTF-8, garbage).
 * Every call must be refused with an IngestError that names each bad record (index or line) and
 * its field, names no good record, and stores nothing: the payloads and catalog are unchanged
 * after every call, and a digest of every table of the store file is identical before and after
 * the whole run.
 *
 * VA_LONG=1 runs thousands of calls (`npm run test:reliability:long`); VA_FUZZ_RUNS overrides.
 */
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  isIngestError,
  openEngine,
  type Engine,
  type IngestError,
  type RecordIssue,
} from '../../src/index.js'
import { dimRecords, makeAnalyses, makeDims, toNdjson } from '../support/generate.js'
import { analysis, mention } from '../support/records.js'
import { badSpec, goodRecord, makeBad, MUTATION_NAMES, type Bad, type World } from './mutations.js'
import { NOW, observe, storeDigest, tempDir, type StoreDigest } from './store.js'

const LONG = process.env.VA_LONG === '1'
const RUNS = Number(process.env.VA_FUZZ_RUNS ?? (LONG ? 2500 : 100))
const FILE_RUNS = Math.max(1, Math.round((RUNS * 3) / 5))
const SEED = Number(process.env.VA_SEED ?? 20261122)
const STORED = 300
const TIMEOUT = LONG ? 3_600_000 : 120_000

const dims = makeDims(1)
let counter = 0
const world: World = { dims, stored: STORED, next: () => counter++ }

/** Tallies reported in docs/RELIABILITY.md (printed at the end). */
const tally = { calls: 0, badRecords: 0, goodRecords: 0, byKind: {} as Record<string, number> }

let engine: Engine
let path: string
let cleanup: () => void
let digestBefore: StoreDigest
let observedBefore: string
let domainsBefore: string

beforeAll(async () => {
  const t = tempDir()
  cleanup = t.cleanup
  path = join(t.dir, 'store.duckdb')
  const e = await openEngine({ path })
  await e.ingest([...dimRecords(dims), ...makeAnalyses(1, dims, 1, STORED)])
  await e.close()
  digestBefore = await storeDigest(path)
  engine = await openEngine({ path })
  observedBefore = await observe(engine)
  domainsBefore = JSON.stringify(await engine.computeDomainList({ now: NOW }))
})

afterAll(async () => {
  await engine?.close()
  console.log(`[reliability] ingest fuzz: ${JSON.stringify(tally)}`)
  cleanup?.()
})

const locKey = (i: { line?: number; index?: number }) =>
  i.line !== undefined ? `line ${i.line}` : `record ${i.index}`

/**
 * A valid-shaped record that moves a stored prompt to another domain (or a stored domain to another
 * team) is replaced (last one wins) when a later record of the call has the same id: it then need
 * not be named.
 */
function shadowed(bad: Map<string, Bad[]>, order: Array<[string, unknown]>): Set<string> {
  const out = new Set<string>()
  order.forEach(([loc], i) => {
    const b = bad.get(loc)?.[0]
    if (b?.taints === undefined) return
    const later = order
      .slice(i + 1)
      .some(
        ([, r]) =>
          typeof r === 'object' &&
          r !== null &&
          String((r as { id?: unknown }).id).toLowerCase() === b.taints,
      )
    if (later) out.add(loc)
  })
  return out
}

/** Checks one refused call: every bad record named with its field, no good record named (except tainted ones). */
function checkRefusal(
  err: unknown,
  bad: Map<string, Bad[]>,
  goods: Map<string, unknown>,
  optional = new Set<string>(),
): void {
  for (const loc of optional) bad.delete(loc)
  if (!isIngestError(err))
    throw new Error(
      `expected an IngestError, got ${String((err as Error)?.name)}: ${String((err as Error)?.message).slice(0, 300)}`,
    )
  const e = err as IngestError
  expect(e.issues.length).toBeGreaterThan(0)
  expect(e.issues.length).toBeLessThanOrEqual(100)
  expect(e.total).toBeGreaterThanOrEqual(Math.min(bad.size, 100))
  const byLoc = new Map<string, RecordIssue[]>()
  for (const i of e.issues) {
    expect(typeof i.field).toBe('string')
    expect(i.message.length).toBeGreaterThan(0)
    expect(i.message.length).toBeLessThan(500)
    expect(i.field.length).toBeLessThan(500)
    const k = locKey(i)
    byLoc.set(k, [...(byLoc.get(k) ?? []), i])
  }
  const taints = [...bad.values()].flat().flatMap((b) => (b.taints ? [b.taints] : []))
  for (const [k, issues] of byLoc) {
    if (bad.has(k) || optional.has(k)) continue
    const good = JSON.stringify(goods.get(k) ?? null)
    const tainted = taints.some((t) => good.includes(t))
    if (!tainted)
      throw new Error(`a good record was named: ${k}: ${JSON.stringify(issues)} ${good.slice(0, 300)}`)
  }
  for (const [k, bs] of bad) {
    const issues = byLoc.get(k)
    if (issues === undefined)
      throw new Error(
        `bad record ${k} (${bs.map((b) => b.kind).join(', ')}) not named; issues: ${JSON.stringify(e.issues).slice(0, 500)}`,
      )
    for (const b of bs) {
      if (b.field === '*') continue
      if (!issues.some((i) => i.field === b.field))
        throw new Error(
          `${k} (${b.kind}) named with ${JSON.stringify(issues.map((i) => i.field))}, expected field ${b.field}`,
        )
    }
    expect(e.message).toContain(`${k}: `)
  }
}

async function assertUnchanged(full: boolean): Promise<void> {
  expect(JSON.stringify(await engine.computeDomainList({ now: NOW }))).toBe(domainsBefore)
  if (full) expect(await observe(engine)).toBe(observedBefore)
}

const callShape = fc.record({
  before: fc.array(fc.nat(), { maxLength: 12 }),
  after: fc.array(fc.nat(), { maxLength: 12 }),
  bads: fc.array(fc.record({ spec: badSpec, at: fc.nat() }), { minLength: 1, maxLength: 3 }),
})

describe('ingest fuzzing: malformed records are refused, named, and nothing is stored', () => {
  it(
    `JS objects: ${RUNS} calls mixing good and bad records`,
    async () => {
      let n = 0
      await fc.assert(
        fc.asyncProperty(callShape, async ({ before, after, bads }) => {
          const records: unknown[] = [...before, ...after].map((s) => goodRecord(world, s))
          const badAt = new Map<number, Bad>()
          for (const { spec, at } of bads) {
            const b = makeBad(world, spec)
            const pos = before.length + (at % (records.length - before.length + 1))
            records.splice(pos, 0, b.record)
            for (const [p, v] of [...badAt].sort((x, y) => y[0] - x[0])) {
              if (p >= pos) {
                badAt.delete(p)
                badAt.set(p + 1, v)
              }
            }
            badAt.set(pos, b)
          }
          const bad = new Map<string, Bad[]>([...badAt].map(([p, b]) => [`record ${p}`, [b]]))
          const goods = new Map<string, unknown>()
          records.forEach((r, i) => !badAt.has(i) && goods.set(`record ${i}`, r))
          const optional = shadowed(
            bad,
            records.map((r, i) => [`record ${i}`, r]),
          )
          fc.pre(optional.size < bad.size) // a call whose every bad record is replaced is valid
          tally.calls++
          tally.badRecords += bad.size
          tally.goodRecords += goods.size
          for (const b of badAt.values()) tally.byKind[b.kind] = (tally.byKind[b.kind] ?? 0) + 1
          let err: unknown
          try {
            await engine.ingest(records)
          } catch (e) {
            err = e
          }
          checkRefusal(err, bad, goods, optional)
          await assertUnchanged(++n % 40 === 0)
        }),
        { numRuns: RUNS, seed: SEED, endOnFailure: true },
      )
    },
    TIMEOUT,
  )

  it(
    `NDJSON files: ${FILE_RUNS} files with bad records and damaged bytes`,
    async () => {
      const { dir, cleanup: done } = tempDir()
      const file = join(dir, 'call.ndjson')
      const damage = fc.record({
        how: fc.constantFrom('truncate', 'utf8', 'garbage', 'nul', 'record', 'record'),
        seed: fc.nat(),
        spec: badSpec,
      })
      const INVALID_UTF8 = [
        [0xff],
        [0xc0, 0xaf],
        [0xed, 0xa0, 0x80],
        [0xe2, 0x82],
        [0xf4, 0x90, 0x80, 0x80],
        [0x80],
        [0xf8, 0x88, 0x80, 0x80, 0x80],
      ]
      let n = 0
      try {
        await fc.assert(
          fc.asyncProperty(
            fc.record({
              goods: fc.array(fc.nat(), { maxLength: 20 }),
              blanks: fc.array(fc.nat(), { maxLength: 4 }),
              bads: fc.array(fc.record({ d: damage, at: fc.nat() }), { minLength: 1, maxLength: 3 }),
              crlf: fc.boolean(),
              finalNewline: fc.boolean(),
            }),
            async ({ goods: goodSeeds, blanks, bads, crlf, finalNewline }) => {
              type Line = { bytes: Buffer; bad?: Bad; good?: unknown }
              const lines: Line[] = goodSeeds.map((s) => {
                const rec = goodRecord(world, s)
                return { bytes: Buffer.from(JSON.stringify(rec)), good: rec }
              })
              for (const { d, at } of bads) {
                let line: Line
                const base = Buffer.from(JSON.stringify(goodRecord(world, d.seed)))
                const cut = 1 + (d.seed % (base.length - 1))
                switch (d.how) {
                  case 'truncate':
                    line = {
                      bytes: base.subarray(0, cut),
                      bad: { record: null, field: 'record', kind: 'truncated line' },
                    }
                    break
                  case 'utf8': {
                    const seq = Buffer.from(INVALID_UTF8[d.seed % INVALID_UTF8.length]!)
                    line = {
                      bytes: Buffer.concat([base.subarray(0, cut), seq, base.subarray(cut)]),
                      bad: { record: null, field: 'record', kind: 'invalid UTF-8' },
                    }
                    break
                  }
                  case 'garbage':
                    line = {
                      bytes: Buffer.from(
                        [
                          'not json',
                          '{"type":',
                          "'); DROP TABLE analyses; --",
                          '{}{}',
                          '[1,2',
                          'NaN',
                          '{"a":1,}',
                        ][d.seed % 7]!,
                      ),
                      bad: { record: null, field: d.seed % 7 === 4 ? '*' : 'record', kind: 'garbage' },
                    }
                    break
                  case 'nul':
                    line = {
                      bytes: Buffer.concat([base.subarray(0, cut), Buffer.from([0]), base.subarray(cut)]),
                      bad: { record: null, field: 'record', kind: 'NUL byte' },
                    }
                    break
                  default: {
                    const b = makeBad(world, d.spec)
                    line = { bytes: Buffer.from(b.json ?? JSON.stringify(b.record) ?? 'null'), bad: b }
                  }
                }
                lines.splice(at % (lines.length + 1), 0, line)
              }
              for (const b of blanks)
                lines.splice(b % (lines.length + 1), 0, { bytes: Buffer.from(b % 2 ? '' : '  \t') })
              const eol = Buffer.from(crlf ? '\r\n' : '\n')
              const parts: Buffer[] = []
              const bad = new Map<string, Bad[]>()
              const goods = new Map<string, unknown>()
              lines.forEach((l, i) => {
                parts.push(l.bytes)
                if (i < lines.length - 1 || finalNewline) parts.push(eol)
                if (l.bad) bad.set(`line ${i + 1}`, [l.bad])
                if (l.good) goods.set(`line ${i + 1}`, l.good)
              })
              const optional = shadowed(
                bad,
                lines.map((l, i) => [`line ${i + 1}`, l.good ?? l.bad?.record]),
              )
              fc.pre(optional.size < bad.size)
              writeFileSync(file, Buffer.concat(parts))
              tally.calls++
              tally.badRecords += bad.size
              tally.goodRecords += goods.size
              for (const b of [...bad.values()].flat()) tally.byKind[b.kind] = (tally.byKind[b.kind] ?? 0) + 1
              let err: unknown
              try {
                await engine.ingestFile(file)
              } catch (e) {
                err = e
              }
              checkRefusal(err, bad, goods, optional)
              await assertUnchanged(++n % 40 === 0)
            },
          ),
          { numRuns: FILE_RUNS, seed: SEED + 1, endOnFailure: true },
        )
      } finally {
        done()
      }
    },
    TIMEOUT,
  )

  it('more than 100 bad records: 100 issues named, the total counted, nothing stored', async () => {
    const records: unknown[] = []
    for (let i = 0; i < 250; i++) {
      const r = goodRecord(world, i)
      records.push(i % 2 ? { ...r, type: 'nope' } : r)
    }
    const err = await engine.ingest(records).catch((e: unknown) => e)
    expect(isIngestError(err)).toBe(true)
    const e = err as IngestError
    expect(e.issues).toHaveLength(100)
    expect(e.total).toBe(125)
    expect(e.issues.every((i) => i.index! % 2 === 1 && i.field === 'type')).toBe(true)
    await assertUnchanged(true)
  })

  it('a line longer than 16 MiB is refused by its line number, not buffered', async () => {
    const { dir, cleanup: done } = tempDir()
    try {
      const file = join(dir, 'long.ndjson')
      const good = toNdjson([goodRecord(world, 1)])
      writeFileSync(file, good + `{"type":"prompt","text":"${'y'.repeat(17 * 1024 * 1024)}"}\n` + good)
      const err = await engine.ingestFile(file).catch((e: unknown) => e)
      expect(isIngestError(err)).toBe(true)
      expect((err as IngestError).issues).toEqual([expect.objectContaining({ line: 2, field: 'record' })])
      await assertUnchanged(false)
    } finally {
      done()
    }
  })

  it('a same-id duplicate inside a call is legal: the last one wins', async () => {
    // run on a separate in-memory engine so the fuzzed store stays untouched
    const e = await openEngine()
    try {
      const [team, domain] = [dims.teams[0]!, dims.domains[0]!]
      const prompt = dims.prompts.find((p) => p.domain_id === domain.id)!
      await e.ingest([
        team,
        domain,
        { ...prompt, text: 'first' },
        { ...prompt, id: String(prompt.id).toUpperCase(), text: 'second' },
      ])
      const a = analysis({
        id: 'a0000000-0000-4000-8000-000000000001',
        domain_id: domain.id,
        prompt_id: prompt.id,
        model: 'm',
        answered_at: '2026-03-30T10:00:00Z',
        citations: [],
        themes: [],
      })
      const r = await e.ingest([
        { ...a, mentions: [] },
        { ...a, mentions: [mention('brand', 3)] },
      ])
      expect(r.analyses).toBe(1)
      const p = await e.computePromptSeries({ domainId: String(domain.id), now: '2026-03-31T00:00:00Z' })
      expect(p.data.items).toEqual([
        expect.objectContaining({
          text: 'second',
          series: [expect.objectContaining({ mentions: 1, responses: 1, avg_position: 3 })],
        }),
      ])
    } finally {
      await e.close()
    }
  })

  it('the store file is identical (every table, every row) after all refused calls', async () => {
    await assertUnchanged(true)
    await engine.close()
    expect(await storeDigest(path)).toEqual(digestBefore)
    engine = await openEngine({ path })
  })

  it('the digest is sensitive: one good call of the same shapes changes it (control)', async () => {
    const r = await engine.ingest([goodRecord(world, 2), goodRecord(world, 5)])
    expect(r).toBeDefined()
    await engine.close()
    expect(await storeDigest(path)).not.toEqual(digestBefore)
    engine = await openEngine({ path })
  })
})

describe('ingest fuzzing: hostile shapes are refused and bounded (regressions of fixed engine bugs)', () => {
  // Fixed bug: engine.ingest([{ type: <array nested 200000 deep> }]) rejected with QueryError
  // "query ingest failed" (cause RangeError: Maximum call stack size exceeded from
  // JSON.stringify(type) in IngestCall.add) instead of an IngestError naming record 0, field type.
  it('a deeply nested `type` value is an IngestError naming the record (was: QueryError)', async () => {
    let deep: unknown = 1
    for (let i = 0; i < 200_000; i++) deep = [deep]
    const e = await openEngine()
    try {
      const err = await e.ingest([goodRecord(world, 1), { type: deep }]).catch((x: unknown) => x)
      expect(isIngestError(err)).toBe(true)
      expect((err as IngestError).issues[0]).toMatchObject({ index: 1, field: 'type' })
    } finally {
      await e.close()
    }
  })

  it('the same in an NDJSON file: {"type": [[[...]]]} is refused by line (was: QueryError)', async () => {
    const { dir, cleanup: done } = tempDir()
    const e = await openEngine()
    try {
      const file = join(dir, 'deep.ndjson')
      writeFileSync(
        file,
        toNdjson([goodRecord(world, 1)]) + `{"type":${'['.repeat(300_000)}${']'.repeat(300_000)}}\n`,
      )
      const err = await e.ingestFile(file).catch((x: unknown) => x)
      expect(isIngestError(err)).toBe(true)
      expect((err as IngestError).issues[0]).toMatchObject({ line: 2, field: 'type' })
    } finally {
      await e.close()
      done()
    }
  })

  // Fixed bug: engine.ingest([{ type: 'x'.repeat(2e6) }]) gave an IngestError whose message was 2 MB:
  // the unknown type (and an unknown field's name) was echoed whole. A clear error bounds the echo.
  it('an unknown type or field name is echoed bounded, not whole (was: a 2 MB message)', async () => {
    const e = await openEngine()
    try {
      const rec = { ...goodRecord(world, 1), ['k'.repeat(1_000_000)]: 1 }
      for (const bad of [{ type: 'x'.repeat(2_000_000) }, rec]) {
        const err = (await e.ingest([bad]).catch((x: unknown) => x)) as IngestError
        expect(isIngestError(err)).toBe(true)
        expect(err.message.length).toBeLessThan(2000)
      }
    } finally {
      await e.close()
    }
  })
})

// Keeps the mutation list honest: every mutation is reachable by the arbitrary.
it('every mutation kind is exercised by the arbitrary', () => {
  expect(MUTATION_NAMES.length).toBeGreaterThanOrEqual(15)
})
