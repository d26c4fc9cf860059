/**
 * The NDJSON worker path (src/ingest/ndjson-feed.ts) against the in-thread path: the same store,
 * the same payloads, the same errors. VA_INGEST_WORKER forces one path or the other.
 */
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { IngestError, openEngine, ValidationError, type Engine } from '../../src/index.js'
import { ndjsonWorkerHeapLimits, ndjsonWorkerId } from '../../src/ingest/ndjson-feed.js'
import {
  analysis,
  base,
  COMPETITOR,
  competitor,
  DOMAIN,
  domain,
  NOW,
  OTHER_DOMAIN,
  OTHER_PROMPT,
  prompt,
  THEME,
  theme,
} from '../support/records.js'

const dir = mkdtempSync(join(tmpdir(), 'va-worker-'))
let n = 0
const writeNdjson = (lines: unknown[]) => {
  const file = join(dir, `f${n++}.ndjson`)
  writeFileSync(file, lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n') + '\n')
  return file
}
const saved = process.env.VA_INGEST_WORKER
afterEach(() => {
  if (saved === undefined) delete process.env.VA_INGEST_WORKER
  else process.env.VA_INGEST_WORKER = saved
})

async function payloads(engine: Engine) {
  const out: unknown[] = []
  for (const domainId of [DOMAIN, OTHER_DOMAIN]) {
    for (const days of [2, 30]) {
      out.push(await engine.computePromptSeries({ domainId, days, now: NOW }))
      out.push(await engine.computeCompetitorSeries({ domainId, days, now: NOW }))
      out.push(await engine.computeSentimentOverview({ domainId, days, now: NOW }))
      out.push(await engine.computeSentimentThemes({ domainId, days, now: NOW }))
      out.push(await engine.computeCitations({ domainId, days, now: NOW }))
      out.push(await engine.computeCitedDomains({ domainId, days, now: NOW }))
      out.push(await engine.computeFanoutQueries({ domainId, days, now: NOW }))
      out.push(await engine.computeSentimentSeries({ domainId, days, now: NOW }))
    }
  }
  return out
}

/** Ingests each file in turn with one path; the store's counts, payloads and each call's outcome. */
async function run(mode: 'never' | 'always' | 'default', files: string[], workers: unknown[] = []) {
  if (mode === 'default') delete process.env.VA_INGEST_WORKER
  else process.env.VA_INGEST_WORKER = mode
  const engine = await openEngine()
  const outcomes: unknown[] = []
  for (const f of files) {
    workers.push(ndjsonWorkerId())
    outcomes.push(
      await engine.ingestFile(f).then(
        (r) => ({ ok: r }),
        (e: unknown) =>
          e instanceof IngestError
            ? { issues: e.issues, total: e.total, message: e.message }
            : e instanceof ValidationError
              ? { validation: e.message }
              : { other: String(e) },
      ),
    )
    workers.push(ndjsonWorkerId())
  }
  const result = { outcomes, stats: await engine.stats(), payloads: await payloads(engine) }
  await engine.close()
  return result
}

const channels = ['chatgpt', 'perplexity', 'gemini', 'claude'] as const
const PROMPT3 = '33333333-3333-4333-8333-333333333333'
const COMPETITOR2 = 'c0000000-0000-4000-8000-00000000000b'
const THEME2 = 'e0000000-0000-4000-8000-000000000002'

/** Enough analyses for several worker batches, with duplicates, upper-case ids and offsets. */
function bigCall(seed: number) {
  const lines: unknown[] = [
    ...base(),
    prompt({ id: OTHER_PROMPT, text: 'second' }),
    prompt({ id: PROMPT3.toUpperCase(), text: 'third', estimated_search_volume: null }),
    competitor({ id: COMPETITOR2, name: 'Initech', website: null }),
    theme({ id: THEME2, sentiment: 'negative', custom_name: 'Pricing' }),
    domain({ id: OTHER_DOMAIN, brand_name: 'Other', website: null }),
  ]
  const prompts = [prompt().id, OTHER_PROMPT, PROMPT3]
  for (let i = 0; i < 5000; i++) {
    const k = (i * 7919 + seed) % 10007
    const id = `b0000000-0000-4000-8000-${String(i % 4500).padStart(12, '0')}` // 500 repeats: last wins
    lines.push(
      analysis({
        id: i % 3 === 0 ? id.toUpperCase() : id,
        prompt_id: prompts[k % 3]!,
        channel: channels[k % 4]!,
        model: `m-${k % 5}`,
        answered_at: new Date(Date.parse(NOW) - (k % 40) * 3_600_000 * 13)
          .toISOString()
          .replace('Z', '+00:00'),
        mentions: [
          ...(k % 2
            ? [
                {
                  entity_id: 'brand' as const,
                  position: k % 4 ? 1 + (k % 5) : null,
                  sentiment: k % 7 ? k % 101 : null,
                },
              ]
            : []),
          ...(k % 3 ? [{ entity_id: COMPETITOR, position: 2, sentiment: 40.5 }] : []),
          ...(k % 5 ? [{ entity_id: COMPETITOR2.toUpperCase(), position: null, sentiment: null }] : []),
        ],
        citations: [
          { url: 'https://www.acme.com/a', title: k % 3 ? `Title ${k % 7}` : null },
          { url: `https://Blog.Acme.com./p${k}`, page_type: k % 5 ? 'article' : null },
          { url: 'http://acme.com.evil.net/x#f', title: 'Evil', page_type: 'forum' },
        ].slice(0, k % 4),
        ...(k % 4 ? { fanout_queries: [` query ${k % 6} `, 'crm', 'crm'] } : {}),
        themes:
          k % 2
            ? [
                { theme_id: THEME, occurrences: 1 + (k % 3) },
                { theme_id: THEME2, occurrences: 1 },
              ]
            : [],
      }),
    )
  }
  return lines
}

describe('NDJSON worker', () => {
  it('stores the same rows and answers the same payloads as the in-thread path, over several calls', async () => {
    const files = [
      writeNdjson(bigCall(1)),
      writeNdjson(bigCall(2)),
      writeNdjson([domain({ website: 'acme.com' })]),
    ]
    const inThread = await run('never', files)
    const inWorker = await run('always', files)
    expect(inThread.stats.analyses).toBe(4500)
    expect(inWorker).toEqual(inThread)
  })

  it('refuses a bad file with the same issues, total and message, and stores nothing', async () => {
    const good = writeNdjson(bigCall(3))
    const bad = writeNdjson([
      ...bigCall(4).slice(0, 3000),
      '{"type":"analysis",',
      '[1,2]',
      { type: 'nope' },
      analysis({ channel: 'bing' as never, extra: 1 } as never),
      analysis({ prompt_id: '99999999-9999-4999-8999-999999999999' }),
      analysis({ domain_id: OTHER_DOMAIN }),
      analysis({
        mentions: [
          { entity_id: COMPETITOR, position: 1, sentiment: 1 },
          { entity_id: COMPETITOR.toUpperCase(), position: 2, sentiment: 2 },
        ],
      }),
      analysis({ themes: [{ theme_id: THEME, occurrences: 0 }] }),
      analysis({ answered_at: '2026-11-19 10:00' }),
      analysis({ citations: [{ url: 'ftp://x.com' }] }),
      ...Array.from({ length: 120 }, () => analysis({ model: '' })),
      '\xff',
    ])
    const inThread = await run('never', [good, bad])
    const inWorker = await run('always', [good, bad])
    expect(inWorker).toEqual(inThread)
    const refused = inWorker.outcomes[1] as { issues: unknown[]; total: number }
    expect(refused.issues).toHaveLength(100)
    expect(refused.total).toBeGreaterThan(120)
  })

  it('reports a missing file as the in-thread path does', async () => {
    const files = [writeNdjson([...base(), domain({ id: OTHER_DOMAIN })]), join(dir, 'missing.ndjson')]
    const inThread = await run('never', files)
    const inWorker = await run('always', files)
    expect(inWorker).toEqual(inThread)
    expect(inWorker.outcomes[1]).toMatchObject({ validation: expect.stringContaining('no such file') })
  })

  it('reads every file, small ones too, in one worker kept between calls, refused and missing files included', async () => {
    const small = () => writeNdjson([...base(), analysis({})])
    const files = [
      writeNdjson(bigCall(5).slice(0, 2200)), // two batches
      small(),
      writeNdjson([...bigCall(6).slice(0, 300), '{"type":"analysis",']),
      join(dir, 'missing.ndjson'),
      small(),
    ]
    const workers: unknown[] = []
    const inWorker = await run('default', files, workers)
    const inThread = await run('never', files)
    expect(inWorker).toEqual(inThread)
    expect(inWorker.outcomes[2]).toMatchObject({ total: 1 })
    // Before each file and after it: one worker, started by the first file and kept.
    const id = workers[1]
    expect(typeof id).toBe('number')
    expect(workers.slice(1)).toEqual(Array(workers.length - 1).fill(id))
  })

  it('stops the worker after a large file (its heap not resident through the steps), starts another for the next', async () => {
    process.env.VA_NDJSON_RETIRE_BATCHES = '2'
    try {
      const files = [
        writeNdjson([...base(), analysis({})]),
        writeNdjson(bigCall(7)),
        writeNdjson(bigCall(8).slice(0, 300)),
      ]
      const workers: unknown[] = []
      const inWorker = await run('default', files, workers)
      expect(inWorker).toEqual(await run('never', files))
      // [before, after] each file: the small one keeps its worker; the large one (3 batches) stops it.
      const [, first, second, afterLarge, third, last] = workers
      expect(typeof first).toBe('number')
      expect(second).toBe(first)
      expect(afterLarge).toBeNull()
      expect(third).toBeNull()
      expect(typeof last).toBe('number')
      expect(last).not.toBe(first)
    } finally {
      delete process.env.VA_NDJSON_RETIRE_BATCHES
    }
  }, 300_000)

  it('reads in a worker whose V8 heap is bounded (a 32 MB young and a 1 GB old generation)', async () => {
    delete process.env.VA_INGEST_WORKER
    const engine = await openEngine()
    try {
      await engine.ingestFile(writeNdjson([...base(), analysis({})]))
      // V8's defaults (a 48 MB young generation, an old one of a few GB) let the heap of a large
      // file's feed grow to ~110 MB of mostly garbage (bench/NOTES.md, "n11"); a 12 MB young one
      // spent 30 % of the worker's time collecting it ("s18").
      const limits = ndjsonWorkerHeapLimits()
      expect(limits?.maxYoungGenerationSizeMb).toBeLessThanOrEqual(32)
      expect(limits?.maxOldGenerationSizeMb).toBeLessThanOrEqual(1024)
    } finally {
      await engine.close()
    }
  }, 120_000)
})
