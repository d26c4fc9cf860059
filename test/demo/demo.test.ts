/**
 * The demo dataset (src/demo): deterministic, realistic (teams on different plans, months of data
 * up to today on every channel and several raw models, competitors with websites, citations to own,
 * competitor and third-party sites on www. and subdomain hosts, themes of both tones, archived and
 * renamed), with the record additions only behind their flag; every endpoint of the table answers
 * it with data; seeding leaves other stores alone; the README's curls are the ones `npm start`
 * prints.
 */
import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ENDPOINTS, type Endpoint } from '../../src/api/index.js'
import { demoCurls } from '../../src/cli/commands/demo.js'
import {
  DEMO_DAYS,
  DEMO_RECORD_ADDITIONS,
  demoDataset,
  demoDomainId,
  seedDemo,
} from '../../src/demo/index.js'
import {
  CHANNELS,
  isIngestError,
  openEngine,
  type AnalysisRecord,
  type CompetitorRecord,
  type DomainRecord,
  type Engine,
  type PromptRecord,
  type TeamRecord,
  type ThemeRecord,
} from '../../src/index.js'
import { siteHost, urlHost } from '../../src/schemas/records.js'
import { base } from '../support/records.js'

const NOW = '2026-11-20T15:00:00Z'
const rows = ENDPOINTS as readonly Endpoint[]

type Extra = Record<string, unknown>
const of = <T extends { type: string }>(records: readonly { type: string }[], type: T['type']) =>
  records.filter((r) => r.type === type) as unknown as Array<T & Extra>

describe('demo dataset', () => {
  const dataset = demoDataset({ now: NOW })
  const teams = of<TeamRecord>(dataset.records, 'team')
  const domains = of<DomainRecord>(dataset.records, 'domain')
  const prompts = of<PromptRecord>(dataset.records, 'prompt')
  const competitors = of<CompetitorRecord>(dataset.records, 'competitor')
  const themes = of<ThemeRecord>(dataset.records, 'theme')
  const analyses = of<AnalysisRecord>(dataset.records, 'analysis')

  it('is deterministic: the same clock gives the same records; a date gives the same analyses whenever generated', () => {
    expect(JSON.stringify(demoDataset({ now: NOW }).records)).toBe(JSON.stringify(dataset.records))
    const laterSet = demoDataset({ now: '2026-11-23T09:00:00Z' })
    const later = of<AnalysisRecord>(laterSet.records, 'analysis')
    const day = (a: AnalysisRecord) => a.answered_at.slice(0, 10)
    // Dates both generations hold in full (not today's partial date of either).
    const shared = (a: AnalysisRecord) => day(a) >= laterSet.from && day(a) < dataset.to
    const a = analyses.filter(shared)
    expect(a.length).toBeGreaterThan(10_000)
    expect(JSON.stringify(later.filter(shared))).toBe(JSON.stringify(a))
    expect(new Set(dataset.records.map((r) => r.id)).size).toBe(dataset.records.length)
  })

  it('teams on plans with and without sentiment, several domains, months of analyses up to now', () => {
    expect(teams.length).toBeGreaterThanOrEqual(3)
    expect(new Set(teams.map((t) => t.plan))).toEqual(new Set(['enterprise', 'pro', 'business', 'starter']))
    expect(domains.length).toBeGreaterThanOrEqual(4)
    expect(dataset.domains.map((d) => d.id)).toEqual(domains.map((d) => d.id))
    expect(dataset.domains[0]!.id).toBe(demoDomainId(0))
    for (const d of domains)
      expect(prompts.filter((p) => p.domain_id === d.id).length).toBeGreaterThanOrEqual(5)
    expect(DEMO_DAYS).toBeGreaterThanOrEqual(90)
    const dates = new Set(analyses.map((a) => a.answered_at.slice(0, 10)))
    expect(dates.size).toBe(DEMO_DAYS)
    expect([dataset.from, dataset.to]).toEqual([[...dates].sort()[0], '2026-11-20'])
    expect(analyses.every((a) => Date.parse(a.answered_at) <= Date.parse(NOW))).toBe(true)
    // Every domain has analyses on every date.
    for (const d of domains) {
      const own = new Set(analyses.filter((a) => a.domain_id === d.id).map((a) => a.answered_at.slice(0, 10)))
      expect(own.size, d.brand_name).toBe(DEMO_DAYS)
    }
  })

  it('every channel, several raw model ids', () => {
    expect(new Set(analyses.map((a) => a.channel))).toEqual(new Set(CHANNELS))
    const models = new Map<string, Set<string>>()
    for (const a of analyses) models.set(a.channel, (models.get(a.channel) ?? new Set()).add(a.model))
    expect(new Set(analyses.map((a) => a.model)).size).toBeGreaterThanOrEqual(8)
    expect([...models.values()].filter((m) => m.size >= 2).length).toBeGreaterThanOrEqual(4)
  })

  it('competitors with websites (and one without), mentioned with positions and sentiment', () => {
    expect(competitors.filter((c) => c.website !== null).length).toBeGreaterThanOrEqual(12)
    expect(competitors.some((c) => c.website === null)).toBe(true)
    const mentions = analyses.flatMap((a) => a.mentions)
    const ids = new Set(mentions.map((m) => m.entity_id))
    for (const c of competitors) expect(ids.has(c.id), c.name).toBe(true)
    expect(mentions.filter((m) => m.entity_id === 'brand').length).toBeGreaterThan(analyses.length / 5)
    expect(mentions.some((m) => m.position === null) && mentions.some((m) => m.sentiment === null)).toBe(true)
    // Positions are the order of the names in the answer.
    for (const a of analyses.slice(0, 2000)) {
      const positions = a.mentions.map((m) => m.position).filter((p) => p !== null)
      expect(new Set(positions).size).toBe(positions.length)
    }
  })

  it('citations to the own site, competitors and third parties, on www. and subdomain hosts', () => {
    const kinds = new Set<string>()
    let twice = 0
    for (const a of analyses) {
      const site = siteHost(domains.find((d) => d.id === a.domain_id)!.website)!
      const rivals = competitors
        .filter((c) => c.domain_id === a.domain_id && c.website !== null)
        .map((c) => siteHost(c.website)!)
      const urls = a.citations.map((c) => c.url)
      if (new Set(urls).size < urls.length) twice += 1
      for (const url of urls) {
        const raw = new URL(url).hostname
        const host = urlHost(url).replace(/^www\./, '')
        const under = (s: string) => host === s || host.endsWith(`.${s}`)
        const kind = under(site) ? 'own' : rivals.some(under) ? 'competitor' : 'third'
        const form = raw.startsWith('www.') ? 'www' : rivals.includes(host) || host === site ? 'bare' : 'sub'
        kinds.add(`${kind}:${form}`)
      }
    }
    for (const k of [
      'own:www',
      'own:sub',
      'own:bare',
      'competitor:www',
      'competitor:sub',
      'third:www',
      'third:sub',
    ])
      expect(kinds, k).toContain(k)
    expect(twice).toBeGreaterThan(0)
  })

  it('themes positive and negative, archived and renamed, occurring in the answers', () => {
    expect(new Set(themes.map((t) => t.sentiment))).toEqual(new Set(['positive', 'negative']))
    expect(themes.some((t) => t.archived)).toBe(true)
    expect(themes.some((t) => t.custom_name !== null)).toBe(true)
    const occurring = new Set(analyses.flatMap((a) => a.themes.map((t) => t.theme_id)))
    for (const t of themes) expect(occurring.has(t.id), t.name).toBe(true)
  })

  it('the record additions appear only with their flag, within the documented bounds', () => {
    const plain = demoDataset({ now: NOW, additions: false }).records
    const dated = [...of<DomainRecord>(plain, 'domain'), ...of<PromptRecord>(plain, 'prompt')]
    expect(dated.some((r) => 'created_at' in r)).toBe(false)
    const plainAnalyses = of<AnalysisRecord>(plain, 'analysis')
    expect(plainAnalyses.some((a) => 'fanout_queries' in a)).toBe(false)
    expect(plainAnalyses.flatMap((a) => a.citations).every((c) => Object.keys(c).join() === 'url')).toBe(true)
    // The default follows the flag.
    expect(analyses.some((a) => 'fanout_queries' in a)).toBe(DEMO_RECORD_ADDITIONS)

    const rich = demoDataset({ now: NOW, additions: true }).records
    const richDomains = of<DomainRecord>(rich, 'domain')
    const richPrompts = of<PromptRecord>(rich, 'prompt')
    const richAnalyses = of<AnalysisRecord>(rich, 'analysis')
    const timestamp = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/
    expect(richDomains.every((d) => timestamp.test(String(d.created_at)))).toBe(true)
    expect(richPrompts.every((p) => p.created_at === null || timestamp.test(String(p.created_at)))).toBe(true)
    expect(richPrompts.some((p) => p.created_at === null)).toBe(true)
    const queries = richAnalyses.map((a) => a.fanout_queries as string[])
    expect(queries.every((q) => Array.isArray(q) && q.length <= 100)).toBe(true)
    expect(queries.flat().every((q) => q.trim().length >= 1 && q.trim().length <= 500)).toBe(true)
    expect(queries.filter((q) => q.length > 0).length).toBeGreaterThan(richAnalyses.length / 4)
    expect(new Set(queries.flat()).size).toBeGreaterThan(100)
    const citations = richAnalyses.flatMap(
      (a) => a.citations as Array<{ title?: unknown; page_type?: unknown }>,
    )
    expect(citations.every((c) => 'title' in c && 'page_type' in c)).toBe(true)
    const text = (v: unknown, max: number) =>
      v === null || (typeof v === 'string' && v.length >= 1 && v.length <= max)
    expect(citations.every((c) => text(c.title, 1000) && text(c.page_type, 100))).toBe(true)
    expect(citations.some((c) => c.title === null)).toBe(true)
    expect(new Set(citations.map((c) => c.page_type)).size).toBeGreaterThanOrEqual(5)
  })

  it('DEMO_RECORD_ADDITIONS is on exactly when the ingest accepts the additions', async () => {
    const engine = await openEngine()
    try {
      const rich = demoDataset({ now: NOW, days: 1, additions: true }).records
      const accepted = await engine.ingest(rich).then(
        () => true,
        (e: unknown) => {
          if (!isIngestError(e)) throw e
          return false
        },
      )
      expect(DEMO_RECORD_ADDITIONS, 'flip DEMO_RECORD_ADDITIONS in src/demo/dataset.ts').toBe(accepted)
    } finally {
      await engine.close()
    }
  })
})

describe('demo seeded into an engine', () => {
  let engine: Engine

  beforeAll(async () => {
    engine = await openEngine()
    const seed = await seedDemo(engine, { now: NOW })
    expect(seed.stored?.analyses).toBeGreaterThan(15_000)
  })
  afterAll(async () => {
    await engine.close()
  })

  /** Whether a payload's data holds something to look at: a non-empty list or a non-zero number. */
  function hasData(value: unknown): boolean {
    if (Array.isArray(value)) return value.length > 0
    if (typeof value === 'number') return value !== 0
    if (value !== null && typeof value === 'object') return Object.values(value).some(hasData)
    return false
  }
  /** The longest `series` of a payload. */
  function longestSeries(value: unknown): number {
    if (value === null || typeof value !== 'object') return 0
    const own = Array.isArray((value as { series?: unknown }).series)
      ? (value as { series: unknown[] }).series.length
      : 0
    return Math.max(own, ...Object.values(value).map(longestSeries))
  }

  it('every domain endpoint of the table answers every demo domain with data (90 days: a point per date)', async () => {
    // Rows without a domain (listings of the key's reach) are checked over HTTP with the demo key
    // (test/http/cli.test.ts).
    // A row without a window (the signals) reports only tested changes: a quiet domain may have
    // none, but the demo as a whole shows some.
    const someDomain = new Set<string>()
    for (const { id: domainId, brand } of demoDataset({ now: NOW }).domains) {
      for (const row of rows.filter((r) => r.access !== 'none')) {
        const params = row.query.parse({ domain_id: domainId, days: '90' })
        const payload = (await row.compute(engine, params, { now: NOW, caller: null })) as { data: unknown }
        if (hasData(payload.data)) someDomain.add(row.id)
        if (!('days' in row.params)) continue
        expect(hasData(payload.data), `${row.id} ${brand}`).toBe(true)
        const series = longestSeries(payload.data)
        if (series > 0) expect(series, `${row.id} ${brand}`).toBe(90)
      }
    }
    for (const row of rows.filter((r) => r.access !== 'none'))
      expect(someDomain.has(row.id), row.id).toBe(true)
  })

  it('the brand and its competitors differ: visibility, positions and sentiment move apart and over time', async () => {
    const payload = await engine.computeCompetitorSeries({ domainId: demoDomainId(0), days: 90, now: NOW })
    const items = payload.data.items
    expect(items.length).toBeGreaterThanOrEqual(5)
    expect(new Set(items.map((i) => Math.round(i.avg_visibility))).size).toBe(items.length)
    const brand = items[0]!.series.map((p) => p.visibility)
    expect(Math.max(...brand) - Math.min(...brand)).toBeGreaterThan(10)
    const themes = await engine.computeSentimentThemes({ domainId: demoDomainId(0), days: 90, now: NOW })
    expect(new Set(themes.data.items.map((t) => t.sentiment))).toEqual(new Set(['positive', 'negative']))
  })

  it('re-seeding upserts in place; a store with other domains is left alone', async () => {
    const before = await engine.stats()
    const again = await seedDemo(engine, { now: NOW })
    expect(again.stored).not.toBeNull()
    expect(await engine.stats()).toEqual(before)

    const other = await openEngine()
    try {
      await other.ingest(base().filter((r) => r.type === 'team' || r.type === 'domain'))
      await other.ingest([{ ...base()[1]!, id: '6c1f7d2b-9a3e-4f4c-b8da-2e3f4a5b6c7d' }])
      const seed = await seedDemo(other, { now: NOW })
      expect(seed.stored).toBeNull()
      expect((await other.stats()).domains).toBe(2)
    } finally {
      await other.close()
    }
  })
})

describe('README', () => {
  it('shows the curls npm start prints, one per endpoint of the table and a weekly series, for the demo domain', () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8')
    const curls = demoCurls({ url: 'http://127.0.0.1:8787', key: '$KEY', domainId: demoDomainId(0) })
    expect(curls).toHaveLength(rows.length + 3)
    expect(curls[rows.length]).toMatch(/\?domain_id=[0-9a-f-]{36}&days=90&granularity=week"$/)
    const block = `\`\`\`sh\n${curls.join('\n')}\n\`\`\``
    expect(readme, 'README Quick start: regenerate the curl block with `npm run docs`').toContain(block)
  })
})
