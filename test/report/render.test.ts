/**
 * Rendering check: the report page in headless Chromium (Debian's, driven by playwright-core; no
 * browser is downloaded), for a realistic payload set, the demo's payloads and the empty set. What
 * the page shows is checked, not only that a picture came out: the section headings, numbers and
 * names of the payload in the KPIs and tables, and every chart an SVG laid out with a non-empty
 * size and drawn marks. Without Chromium (CHROMIUM_PATH, default /usr/bin/chromium) the suite is
 * skipped loudly, except under CI=true where that is a failure.
 * REPORT_SCREENSHOT=path writes the demo page's PNG there, REPORT_SCREENSHOT_HEIGHT sets its height:
 * that is how docs/report-screenshot.png is made (REPORT_SCREENSHOT_HEIGHT=6400).
 */
/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
import { writeFile } from 'node:fs/promises'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { seedDemo } from '../../src/demo/index.js'
import { openEngine } from '../../src/index.js'
import { formatInt, formatNumber, formatPercent } from '../../src/report/format.js'
import { renderReportHtml, type ReportInput } from '../../src/report/html.js'
import { CHROMIUM_PRESENT, launchChromium, warnWithoutChromium } from '../support/chromium.js'
import { emptySet, realisticSet } from './payloads.js'
import { datasetPath } from '../support/golden.js'
import { readNdjson } from '../support/ndjson.js'
import { DEMO_NOW, reportInputOf } from './demo-input.js'

const CI = process.env.CI === 'true'
warnWithoutChromium('render.test.ts', 'the report rendering check')

let browser: Browser
beforeAll(async () => {
  browser = await launchChromium('the report must be rendered')
}, 120_000)
afterAll(async () => {
  await browser?.close()
})

/** The console errors and page errors of each open page. */
const problems = new WeakMap<Page, string[]>()

/** The page of `html` at the given viewport (closed by the caller); its console errors recorded. */
async function open(html: string, width = 1280, height = 2000): Promise<Page> {
  const page = await browser.newPage({ viewport: { width, height } })
  const seen: string[] = []
  problems.set(page, seen)
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') seen.push(`${m.type()}: ${m.text()}`)
  })
  page.on('pageerror', (e) => seen.push(`pageerror: ${e.message}`))
  await page.setContent(html, { waitUntil: 'load' })
  return page
}

/** What the page shows: headings, KPI cards, visible text, and each chart's laid-out size and marks. */
async function shown(page: Page) {
  return page.evaluate(() => {
    const text = (e: Element | null) => (e as HTMLElement | null)?.innerText.trim() ?? ''
    return {
      headings: [...document.querySelectorAll('section.card h2')].map(text),
      kpis: Object.fromEntries(
        [...document.querySelectorAll('.kpi')].map((k) => [
          text(k.querySelector('.kpi-label')),
          `${text(k.querySelector('.kpi-value'))} | ${text(k.querySelector('.kpi-detail'))}`,
        ]),
      ),
      empty: document.querySelectorAll('.empty').length,
      body: document.body.innerText,
      charts: [...document.querySelectorAll('svg.chart, svg.donut, svg.spark, svg.ci')].map((svg) => {
        const box = svg.getBoundingClientRect()
        const marks = [...svg.querySelectorAll('path, rect, circle, polyline, line')].filter((m) => {
          const b = (m as SVGGraphicsElement).getBBox()
          return b.width > 0 || b.height > 0
        })
        return { cls: svg.getAttribute('class'), width: box.width, height: box.height, marks: marks.length }
      }),
    }
  })
}

/** Width and height from a PNG's IHDR chunk. */
function pngSize(buf: Buffer): { width: number; height: number } {
  expect(buf.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
  expect(buf.subarray(12, 16).toString('ascii')).toBe('IHDR')
  return { width: buf.readUInt32BE(16), height: buf.readUInt32BE(20) }
}

/** Every section's payload for the demo's first brand: 90 days up to a fixed clock. */
async function demoReport(): Promise<ReportInput> {
  const engine = await openEngine()
  try {
    const seed = await seedDemo(engine, { now: DEMO_NOW, days: 90 })
    return await reportInputOf(engine, seed.domains[0]!.id, { days: 90, now: DEMO_NOW })
  } finally {
    await engine.close()
  }
}

/** The payload's figures the page must show: KPIs, competitor names, top prompt, top theme. */
function expectPayloadShown(s: Awaited<ReturnType<typeof shown>>, input: ReportInput, emptySections: number) {
  const items = input.competitors!.data.items
  const brand = items.find((e) => e.is_brand)!
  const rank = [...items].sort((a, b) => b.avg_visibility - a.avg_visibility).findIndex((e) => e.is_brand) + 1
  expect(s.kpis.Visibility).toBe(
    `${formatPercent(brand.avg_visibility)} | Rank ${rank} of ${items.length} tracked`,
  )
  expect(s.kpis['Share of voice']).toMatch(
    new RegExp(`^${formatPercent(brand.avg_sov).replace('.', '\\.')} \\| `),
  )
  const ov = input.overview!.data
  expect(s.kpis['Positive themes']).toBe(
    `${formatPercent(ov.positive_percent)} | ${formatInt(ov.total_mentions)} theme mentions`,
  )
  for (const c of [...items].sort((a, b) => b.avg_visibility - a.avg_visibility).slice(0, 5))
    expect(s.body, c.name).toContain(c.name)
  const topPrompt = input.prompts!.data.items[0]!
  expect(s.body).toContain(topPrompt.text)
  expect(s.body).toContain(input.themes!.data.items[0]!.name)
  expect(s.empty, 'sections showing "No data"').toBe(emptySections)
  // Every chart laid out at a real size with drawn marks.
  expect(s.charts.filter((c) => c.cls === 'chart').length).toBeGreaterThanOrEqual(2)
  for (const c of s.charts) {
    expect(c.width, `${c.cls} width`).toBeGreaterThan(20)
    expect(c.height, `${c.cls} height`).toBeGreaterThan(10)
    expect(c.marks, `${c.cls} marks`).toBeGreaterThan(0)
  }
}

const CORE = ['Visibility and share of voice', 'Competitive landscape', 'Top prompts', 'Sentiment', 'Themes']

describe.skipIf(!CHROMIUM_PRESENT && !CI)('report rendering in headless chromium', () => {
  it('a realistic report shows its sections, the payload figures and drawn charts', async () => {
    const input = realisticSet()
    const page = await open(renderReportHtml(input))
    try {
      const s = await shown(page)
      for (const h of CORE) expect(s.headings).toContain(h)
      // The set has no signals, leaderboard, breakdowns, sample answers, sentiment series, cited
      // domains or pages: those eight say so.
      expectPayloadShown(s, input, 8)
      const png = await page.screenshot()
      expect(pngSize(png)).toEqual({ width: 1280, height: 2000 })
    } finally {
      await page.close()
    }
  }, 60_000)

  it('the demo report shows every section with data (the docs screenshot)', async () => {
    const input = await demoReport()
    const height = Number(process.env.REPORT_SCREENSHOT_HEIGHT ?? 2000)
    const page = await open(renderReportHtml(input), 1280, height)
    try {
      const s = await shown(page)
      expect(s.headings).toEqual([
        'Signals',
        'Visibility and share of voice',
        'Competitive landscape',
        'Model leaderboard',
        'Visibility by country',
        'Visibility by topic',
        'Top prompts',
        'Sample answers',
        'Sentiment',
        'Themes',
        'Sentiment over time',
        'Cited domains',
        'Cited pages',
      ])
      expectPayloadShown(s, input, 0)
      expect(s.body).toContain(input.citedDomains!.data.items[0]!.domain)
      expect(input.signals!.data.items.length).toBeGreaterThan(0)
      expect(await page.locator('.signals-table tbody tr').count()).toBe(input.signals!.data.items.length)
      const png = await page.screenshot()
      expect(pngSize(png)).toEqual({ width: 1280, height })
      const out = process.env.REPORT_SCREENSHOT
      if (out) await writeFile(out, png)
      expect(problems.get(page)).toEqual([])
    } finally {
      await page.close()
    }
  }, 120_000)

  it('the breakdowns and sample answers render: intervals on their axis, marks, a link that opens its answer', async () => {
    const input = await demoReport()
    const page = await open(renderReportHtml(input), 1280, 2000)
    try {
      for (const [dim, field] of [
        ['country', 'byCountry'],
        ['topic', 'byTopic'],
      ] as const) {
        const rows = input[field]!.window.data.items.filter((r) => r.is_brand)
        const week = input[field]!.week!.data.items
        const drawn = await page.evaluate((d) => {
          return [...document.querySelectorAll(`.breakdown-${d} tbody tr`)].map((tr) => {
            const cell = tr.querySelector('td.strip')!.getBoundingClientRect()
            const svg = tr.querySelector('svg.ci')!.getBoundingClientRect()
            const axis = tr.querySelector('.ci-axis')!.getBoundingClientRect()
            const band = tr.querySelector('.ci-band')?.getBoundingClientRect()
            const dot = tr.querySelector('.ci-dot')!.getBoundingClientRect()
            const mark = tr.querySelector('.sig')
            return {
              group: tr.getAttribute('data-group'),
              inCell: svg.left >= cell.left - 0.5 && svg.right <= cell.right + 0.5 && svg.width > 100,
              band: band ? [band.left - axis.left, band.right - axis.left] : null,
              dot: (dot.left + dot.right) / 2 - axis.left,
              axis: axis.width,
              mark: mark ? mark.getAttribute('title') : null,
            }
          })
        }, dim)
        expect(drawn).toHaveLength(rows.length)
        for (const row of drawn) {
          const r = rows.find((x) => (x[dim] ?? '') === row.group)!
          expect(row.inCell).toBe(true)
          // Band and dot where the interval and the visibility fall on the laid-out axis (2 px).
          const [low, high] = r.visibility_ci as [number, number]
          const [left, right] = row.band as [number, number]
          expect(Math.abs(left - (low / 100) * row.axis)).toBeLessThan(2)
          expect(Math.abs(right - (high / 100) * row.axis)).toBeLessThan(2)
          expect(Math.abs(row.dot - (r.visibility / 100) * row.axis)).toBeLessThan(2)
          const w = week.find((x) => (x[dim] ?? '') === row.group)
          expect(row.mark !== null, `${dim} ${row.group}`).toBe(w?.change?.significant === true)
          if (row.mark !== null) expect(row.mark).toContain(`p = `)
        }
      }
      // The first sample link opens its answer, which shows the answer's text (its first line).
      const link = page.locator('a.sample-link').first()
      const target = (await link.getAttribute('href'))!.slice(1)
      const details = page.locator('details.sample', { has: page.locator(`#${target}`) })
      expect(await details.evaluate((d) => (d as HTMLDetailsElement).open)).toBe(false)
      await link.click()
      expect(await details.evaluate((d) => (d as HTMLDetailsElement).open)).toBe(true)
      const answer = input
        .samples!.flatMap((p) => p.data.items)
        .find((a) => `answer-${a.prompt_id}` === target)!
      const shownText = await details.locator('.answer-text').innerText()
      expect(shownText.startsWith(answer.response!.slice(0, 40).trim())).toBe(true)
      expect(problems.get(page)).toEqual([])
    } finally {
      await page.close()
    }
  }, 120_000)

  it('the signals section lists each signal: tier, entity, segment, visibilities, change, p-value', async () => {
    const engine = await openEngine()
    try {
      await engine.ingest(readNdjson(datasetPath('signals')) as never)
      const now = '2026-11-20T15:00:00Z'
      const domainId = 'd2500000-0000-4000-8000-000000000002'
      const signals = await engine.computeSignals({ domainId, window: 2, now })
      const page = await open(renderReportHtml({ domain: (await engine.getDomain(domainId))!, signals }))
      try {
        const rows = await page.locator('.signals-table tbody tr').allInnerTexts()
        expect(rows).toHaveLength(signals.data.items.length)
        expect(signals.data.items.length).toBe(4)
        // In the payload's order (p-value, then the size of the change, then id).
        signals.data.items.forEach((item, i) => {
          const cells = rows[i]!.split('\t').map((c) => c.trim())
          expect(cells[0]).toBe(item.tier === 'high' ? 'High' : 'Confident')
          expect(cells[1]).toContain('Segmento')
          expect(cells[3]).toBe(
            `${formatPercent(item.baseline.visibility)} → ${formatPercent(item.current.visibility)}`,
          )
          expect(cells[4]).toBe(`▲ ${formatNumber(item.visibility_delta)} pts`)
          expect(cells[5]).toBe(`${item.baseline.responses} / ${item.current.responses}`)
        })
        expect(rows.map((r) => r.split('\t')[2]!.trim()).sort()).toEqual([
          'All answers',
          'ChatGPT',
          'Country: US',
          'Topic: pricing',
        ])
      } finally {
        await page.close()
      }
    } finally {
      await engine.close()
    }
  }, 60_000)

  it('the empty report says "No data" in each section and draws no chart', async () => {
    const page = await open(renderReportHtml(emptySet()), 1280, 900)
    try {
      const s = await shown(page)
      for (const h of CORE) expect(s.headings).toContain(h)
      expect(s.empty).toBe(s.headings.length)
      expect(s.charts.filter((c) => c.cls === 'chart')).toEqual([])
      expect(s.kpis.Visibility).toBe('— | No data in this window')
      const png = await page.screenshot()
      expect(pngSize(png)).toEqual({ width: 1280, height: 900 })
      const out = process.env.REPORT_SCREENSHOT_EMPTY
      if (out) await writeFile(out, png)
    } finally {
      await page.close()
    }
  }, 60_000)
})
