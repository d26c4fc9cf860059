import { describe, expect, it } from 'vitest'
import { seedDemo } from '../../src/demo/index.js'
import { openEngine } from '../../src/index.js'
import { renderReportHtml, modelLabel } from '../../src/report/html.js'
import { dayNumber, escapeHtml, formatInt, formatPercent, formatTimestamp } from '../../src/report/format.js'
import { dayTicks, niceScale } from '../../src/report/svg.js'
import { emptySet, exampleSet, realisticSet } from './payloads.js'
import { expectBalanced, expectSelfContained } from './page-checks.js'

describe('renderReportHtml', () => {
  it('renders a full page with header, charts, tables, sentiment and themes', () => {
    const s = realisticSet()
    const html = renderReportHtml(s)
    expect(html.startsWith('<!doctype html>')).toBe(true)
    expect(html).toContain('<meta charset="utf-8">')
    expect(html).toContain('<h1 dir="auto">Acme</h1>')
    expect(html).toContain('Oct 22, 2026 – Nov 20, 2026 (30 days)')
    expect(html).toContain('2026-11-20 15:00 UTC')
    expect(html).toContain('All channels')
    expect(html.match(/<svg class="chart"/g)).toHaveLength(2)
    expect(html.match(/<svg class="spark"/g)).toHaveLength(10)
    expect(html).toContain('<svg class="donut"')
    expect(html).toContain('Umbrella &amp; Sons')
    expect(html).toContain('価格が高い')
    expect(html).toContain('Strong security &lt;SOC 2&gt;')
    expect(html).toContain('Flexible &quot;custom fields&quot;')
    expect(html).toContain('2 more competitors in the table below.')
    expect(html).not.toMatch(/NaN|Infinity|undefined|\[object/)
    expectSelfContained(html)
    expectBalanced(html)
  })

  it('the balance check itself catches broken markup', () => {
    expect(() => expectBalanced('<div><span></div>')).toThrow()
    expect(() => expectBalanced('<div>')).toThrow()
    expect(() => expectBalanced('<svg><circle r="1"/></svg><meta charset="utf-8">')).not.toThrow()
  })

  it('escapes every piece of text, wherever it lands', () => {
    const s = exampleSet()
    const evil = `<script>alert("x")</script> & 'Co'`
    s.domain.brand_name = evil
    s.domain.website = `"><img src=x onerror=alert(1)>`
    s.competitors.data.items[1]!.name = `</style><svg onload=alert(1)>`
    s.prompts.data.items[0]!.text = `" onmouseover="alert(1)`
    s.themes.data.items[0]!.name = `</text><script>alert(1)</script>`
    s.overview.model = `gpt-5<b>`
    const html = renderReportHtml({ ...s, notes: ['<i>note</i>'] })
    expect(html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;Co&#39;')
    expect(html).toContain('&lt;/style&gt;&lt;svg onload=alert(1)&gt;')
    expect(html).toContain('title="&quot; onmouseover=&quot;alert(1)"')
    expect(html).toContain('gpt-5&lt;b&gt;')
    expect(html).toContain('&lt;i&gt;note&lt;/i&gt;')
    expect(html).not.toContain('<i>note')
    expectSelfContained(html)
    expectBalanced(html)
    // The escaped brand name is also the page title.
    expect(html).toContain('<title>&lt;script&gt;')
  })

  it('says "No data in this window" for empty payloads and missing ones', () => {
    const e = emptySet()
    const html = renderReportHtml(e)
    // trends, landscape, leaderboard, by country, by topic, prompts, sample answers, sentiment,
    // themes, sentiment over time, cited domains, cited pages
    expect(html.match(/<div class="empty">No data in this window<\/div>/g)).toHaveLength(12)
    expectBalanced(html)
    expect(html).not.toMatch(/NaN|Infinity|undefined/)
    expectSelfContained(html)

    const bare = renderReportHtml({ domain: { id: e.domain.id, brand_name: 'Acme' } })
    // The twelve, and the signals section: "No significant change".
    expect(bare.match(/<div class="empty">/g)).toHaveLength(13)
    expect(bare.match(/<div class="empty">No significant change<\/div>/g)).toHaveLength(1)
    expect(bare).not.toMatch(/NaN|Infinity|undefined/)
  })

  it('competitors configured but without data: table rows, no chart', () => {
    const s = exampleSet()
    for (const e of s.competitors.data.items) {
      e.series = []
      Object.assign(e, {
        avg_mentions: 0,
        avg_position: 0,
        avg_visibility: 0,
        avg_sov: 0,
        avg_sentiment: 0,
        total_queries: 0,
      })
    }
    const html = renderReportHtml(s)
    expect(html).not.toContain('<svg class="chart"')
    expect(html).toContain('Globex')
    expect(html).not.toMatch(/NaN|Infinity/)
  })

  it('a single day draws points, not an empty chart', () => {
    const s = exampleSet()
    for (const e of s.competitors.data.items) e.series = e.series.slice(0, 1)
    const html = renderReportHtml(s)
    expect(html.match(/<circle [^>]*class="dot"/g)!.length).toBe(6)
    expect(html).not.toMatch(/NaN/)
  })

  it('notes when competitors and sentiment use different models', () => {
    const s = exampleSet()
    s.overview.model = 'gpt-5'
    s.themes.model = 'gpt-5'
    const html = renderReportHtml(s)
    expect(html).toContain(
      'Visibility, share of voice and competitors cover all channels: the competitor series filters by channel only, and gpt-5 is a model id. Sentiment and themes cover gpt-5 only.',
    )
    s.overview.model = 'claude'
    s.themes.model = 'claude'
    s.competitors.model = 'claude'
    expect(renderReportHtml(s)).not.toContain('class="notes"')
    s.competitors.model = 'all'
    expect(renderReportHtml(s)).toContain(
      'Visibility, share of voice and competitors use All channels; sentiment uses Claude.',
    )
    expect(modelLabel('google-ai-overviews')).toBe('Google AI Overviews')
    expect(modelLabel('claude-3-5-sonnet')).toBe('claude-3-5-sonnet')
  })
})

describe('format and scales', () => {
  it('formats', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;')
    expect(formatInt(1234567)).toBe('1,234,567')
    expect(formatInt(null)).toBe('—')
    expect(formatPercent(33.333333333333336)).toBe('33.3%')
    expect(formatPercent(Number.NaN)).toBe('—')
    expect(formatTimestamp('2026-11-20T17:30:00+02:00')).toBe('2026-11-20 15:30 UTC')
    expect(formatTimestamp('garbage')).toBe('garbage')
    expect(dayNumber('2026-03-01')).toBe(20513)
    expect(dayNumber('2026-3-1')).toBeNaN()
  })

  it('nice scales and day ticks', () => {
    expect(niceScale(62)).toEqual({ max: 80, step: 20 })
    expect(niceScale(95, 100)).toEqual({ max: 100, step: 25 })
    expect(niceScale(100, 100)).toEqual({ max: 100, step: 25 })
    expect(niceScale(3.2)).toEqual({ max: 4, step: 1 })
    expect(niceScale(0, 100).max).toBeGreaterThan(0)
    const d = dayNumber('2026-11-01')
    expect(dayTicks(d, d)).toHaveLength(1)
    expect(dayTicks(d, d + 6).map((t) => t.label)).toEqual([
      'Nov 1',
      'Nov 2',
      'Nov 3',
      'Nov 4',
      'Nov 5',
      'Nov 6',
      'Nov 7',
    ])
    expect(dayTicks(d, d + 29).length).toBeLessThanOrEqual(7)
    const year = dayTicks(dayNumber('2025-11-21'), dayNumber('2026-11-20'))
    expect(year.length).toBeLessThanOrEqual(7)
    expect(year[0]!.label).toBe("Dec '25")
  })

  it('draws the leaderboard, sentiment over time, cited domains and cited pages from the demo data', async () => {
    const engine = await openEngine()
    try {
      const now = '2026-11-20T12:00:00.000Z'
      const seed = await seedDemo(engine, { now, days: 30 })
      const domain = (await engine.getDomain(seed.domains[0]!.id))!
      const base = { domainId: domain.id, days: 30, now }
      const [leaderboard, sentimentSeries, citedDomains, citations] = await Promise.all([
        engine.computeModelLeaderboard(base),
        engine.computeSentimentSeries(base),
        engine.computeCitedDomains(base),
        engine.computeCitations(base),
      ])
      const html = renderReportHtml({ domain, leaderboard, sentimentSeries, citedDomains, citations })
      expectBalanced(html)
      expectSelfContained(html)
      expect(html).not.toMatch(/NaN|Infinity|undefined/)
      for (const title of ['Model leaderboard', 'Sentiment over time', 'Cited domains', 'Cited pages'])
        expect(html).toContain(`<h2>${title}</h2>`)
      // One row per channel, the top 10 hosts and pages, and whose each is.
      const rows = (cls: string) => html.split(`<table class="grid-table ${cls}">`)[1]!.split('</table>')[0]!
      const tables = html.split('<table class="grid-table ranked').slice(1)
      expect(tables).toHaveLength(3)
      expect(tables[0]!.match(/<tr>/g)).toHaveLength(leaderboard.data.items.length + 1)
      for (const item of leaderboard.data.items) expect(tables[0]).toContain(`>${modelLabel(item.model)}<`)
      expect(citedDomains.data.items.length).toBeGreaterThan(10)
      expect(tables[1]!.match(/<tr[ >]/g)).toHaveLength(11)
      expect(html).toContain(`And ${formatInt(citedDomains.data.total - 10)} more domains.`)
      const brandHost = citedDomains.data.items.find((d) => d.is_brand)!
      expect(tables[1]).toContain(
        `${escapeHtml(brandHost.domain)}</span><span class="pill brand-pill">Your site</span>`,
      )
      expect(tables[1]).toContain('Competitor</span>')
      expect(tables[1]).toContain('Third party</span>')
      const top = citations.data.items[0]!
      expect(rows('ranked pages')).toContain(escapeHtml(top.title ?? top.url))
      expect(html).toContain(
        `${formatInt(sentimentSeries.data.items.reduce((s, d) => s + d.total_mentions, 0))} theme mentions on ${sentimentSeries.data.items.length} days.`,
      )
    } finally {
      await engine.close()
    }
  })
})
