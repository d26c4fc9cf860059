/**
 * The dashboard in real Chromium (Debian's, driven by playwright-core; no browser is downloaded)
 * against a real server on 127.0.0.1 over the demo data: the key from the fragment (then cleared,
 * kept in sessionStorage, never in a request URL), the charts drawn, domain, window, granularity
 * and model switches refetching and redrawing, the starter plan's 403 detail in its sections, a
 * refused key back at the form. Without Chromium the suite is skipped, except under CI=true where
 * that is a failure. DASHBOARD_SCREENSHOT=path writes a full-page screenshot (docs/dashboard.png).
 */
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ENDPOINTS } from '../../src/api/index.js'
import { seedDemo, type DemoDomain } from '../../src/demo/index.js'
import { startServer, type RunningServer } from '../../src/http/index.js'
import { openEngine } from '../../src/index.js'
import { CHROMIUM_PRESENT, launchChromium, warnWithoutChromium } from '../support/chromium.js'

warnWithoutChromium('browser.test.ts', 'the dashboard in a browser')

const WAIT = { timeout: 30_000 }
const pathOf = (id: string): string => ENDPOINTS.find((e) => e.id === id)!.path

let server: RunningServer
let browser: Browser
let key: string
let starterKey: string
let domains: DemoDomain[]
let starter: DemoDomain

beforeAll(async () => {
  const engine = await openEngine()
  const seed = await seedDemo(engine, { days: 40 })
  domains = seed.domains
  starter = domains.find((d) => d.plan === 'starter')!
  const teams = [...new Set(domains.map((d) => d.teamId))]
  key = (await engine.createApiKey({ teamId: teams[0]!, scopeTeamIds: teams, name: 'dashboard' })).key
  starterKey = (await engine.createApiKey({ teamId: starter.teamId, name: 'starter' })).key
  // A dashboard view is nine calls: room for the switches of a test within the minute.
  server = await startServer({
    engine,
    port: 0,
    host: '127.0.0.1',
    signals: [],
    logger: false,
    rateLimit: { limit: 1000, windowSeconds: 60 },
  })
  browser = await launchChromium('the dashboard must be tested in a browser')
}, 120_000)

afterAll(async () => {
  await browser?.close()
  await server?.close()
})

/** A fresh tab recording every request URL and console line. */
async function open(): Promise<{ context: BrowserContext; page: Page; urls: string[]; logs: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
  const page = await context.newPage()
  const urls: string[] = []
  const logs: string[] = []
  page.on('request', (r) => urls.push(r.url()))
  page.on('console', (m) => logs.push(m.text()))
  page.on('pageerror', (e) => logs.push(`pageerror: ${e.message}`))
  return { context, page, urls, logs }
}

/** Waits for the `n`th drawing of the report. */
async function rendered(page: Page, n: number): Promise<void> {
  await page.waitForSelector(`#report[data-render="${n}"]`, WAIT)
  await page.waitForSelector('body[data-state="ready"]', WAIT)
}

/** Points of the brand's line in the first trend chart (the visibility chart). */
const brandPoints = async (page: Page): Promise<number> =>
  (
    (await page.locator('[data-section="trends"] svg.chart path.line.brand').first().getAttribute('d')) ?? ''
  ).split(/[ML]/).length - 1

const brandOf = (id: string): string => domains.find((d) => d.id === id)!.brand

const text = (page: Page, selector: string): Promise<string> => page.locator(selector).first().innerText()

/** Calls of the report endpoint `id` among the recorded URLs, as parsed URLs. */
const calls = (urls: string[], id: string): URL[] =>
  urls.map((u) => new URL(u)).filter((u) => u.pathname === pathOf(id))

describe.skipIf(!CHROMIUM_PRESENT && process.env.CI !== 'true')('dashboard in Chromium', () => {
  it('takes the key from the fragment, clears it, draws the report and switches domain, window, granularity, model', async () => {
    const { context, page, urls, logs } = await open()
    try {
      await page.goto(`${server.url}/#key=${encodeURIComponent(key)}`)
      await rendered(page, 1)
      // The fragment is gone from the address bar; the key is in sessionStorage only.
      expect(page.url()).toBe(`${server.url}/`)
      expect(await page.evaluate('location.hash')).toBe('')
      expect(await page.evaluate('Object.values(sessionStorage)')).toContain(key)
      expect(await page.evaluate('Object.values(localStorage)')).not.toContain(key)
      expect(await page.evaluate('document.cookie')).toBe('')

      // The key's domains are offered; the selected one is drawn.
      const options = (await page.evaluate(
        "[...document.querySelectorAll('#domain option')].map((o) => o.value)",
      )) as string[]
      expect([...options].sort()).toEqual(domains.map((d) => d.id).sort())
      const firstId = await page.locator('#domain').inputValue()
      expect(await text(page, '[data-section="header"] h1')).toBe(brandOf(firstId))
      for (const id of [
        'competitor-series',
        'prompt-series',
        'sentiment-overview',
        'sentiment-themes',
        'citations',
      ]) {
        expect(calls(urls, id).map((u) => u.searchParams.get('domain_id'))).toEqual([firstId])
      }

      // Another domain (one whose plan has sentiment): refetched and redrawn, every chart drawn.
      const second = domains.find((d) => d.id !== firstId && d.plan !== 'starter')!.id
      await page.selectOption('#domain', second)
      await rendered(page, 2)
      expect(await text(page, '[data-section="header"] h1')).toBe(brandOf(second))
      expect(calls(urls, 'competitor-series').at(-1)!.searchParams.get('domain_id')).toBe(second)
      expect(await page.locator('[data-section="trends"] svg.chart path.line').count()).toBeGreaterThan(1)
      expect(await brandPoints(page)).toBeGreaterThan(20)
      expect(await page.locator('[data-section="prompts"] svg.spark path').count()).toBeGreaterThan(0)
      expect(await page.locator('[data-section="sentiment"] svg circle').count()).toBeGreaterThan(0)
      expect(await page.locator('[data-section="sentiment-trend"] svg.chart path').count()).toBeGreaterThan(0)
      expect(await page.locator('[data-section="competitors"] tbody tr').count()).toBeGreaterThan(1)
      expect(await page.locator('[data-section="cited-pages"] tbody tr').count()).toBeGreaterThan(0)
      expect(await page.locator('#report .api-error').count()).toBe(0)
      // The report's style sheet applies (a constructed sheet, allowed by the CSP).
      expect(
        await page.evaluate("getComputedStyle(document.querySelector('#report .card')).borderRadius"),
      ).toBe('14px')

      // Another window: 7 days.
      await page.selectOption('#days', '7')
      await rendered(page, 3)
      expect(await text(page, '[data-section="header"] .meta')).toMatch(/\(7 days\)/)
      expect(calls(urls, 'competitor-series').at(-1)!.searchParams.get('days')).toBe('7')
      expect(await brandPoints(page)).toBeLessThanOrEqual(7)
      // Short windows mark each day with a dot.
      expect(await page.locator('[data-section="trends"] svg.chart circle.dot').count()).toBeGreaterThan(0)

      // Another granularity: weeks.
      await page.selectOption('#days', '30')
      await rendered(page, 4)
      await page.selectOption('#granularity', 'week')
      await rendered(page, 5)
      expect(calls(urls, 'competitor-series').at(-1)!.searchParams.get('granularity')).toBe('week')
      expect(await text(page, '[data-section="competitors"] thead')).toMatch(/Mentions \/ week/i)
      // Endpoints without a granularity parameter are not sent one.
      expect(calls(urls, 'model-leaderboard').at(-1)!.searchParams.has('granularity')).toBe(false)

      // A date range (by day).
      await page.selectOption('#granularity', 'day')
      await rendered(page, 6)
      await page.selectOption('#days', 'custom')
      await page.fill('#start', '2026-01-01')
      await page.fill('#end', '2026-01-07')
      await page.locator('#end').dispatchEvent('change')
      // Waits through locators, not page functions: the page's CSP (no eval) refuses string predicates.
      await page.locator('[data-section="header"] .meta', { hasText: '(7 days)' }).waitFor(WAIT)
      const ranged = calls(urls, 'competitor-series').at(-1)!
      expect(ranged.searchParams.get('start_date')).toBe('2026-01-01')
      expect(ranged.searchParams.get('end_date')).toBe('2026-01-07')
      expect(ranged.searchParams.has('days')).toBe(false)

      // A model.
      await page.selectOption('#days', '30')
      await page.waitForSelector('.range:not([hidden])', { state: 'detached', ...WAIT })
      await page.waitForSelector('body[data-state="ready"]', WAIT)
      const before = Number(await page.locator('#report').getAttribute('data-render'))
      await page.selectOption('#model', 'chatgpt')
      await rendered(page, before + 1)
      expect(await text(page, '[data-section="header"] .meta')).toMatch(/ChatGPT/)
      expect(calls(urls, 'sentiment-overview').at(-1)!.searchParams.get('model')).toBe('chatgpt')

      // The key never travels in an address and is never logged.
      expect(urls.length).toBeGreaterThan(20)
      for (const u of urls) {
        expect(u).not.toContain(key)
        expect(u).not.toContain(encodeURIComponent(key))
      }
      for (const line of logs) expect(line).not.toContain(key)
      expect(logs.filter((l) => l.startsWith('pageerror'))).toEqual([])

      if (process.env.DASHBOARD_SCREENSHOT) {
        await page.selectOption('#domain', firstId)
        await page.selectOption('#model', 'all')
        await page.selectOption('#granularity', 'day')
        await page.waitForSelector('body[data-state="ready"]', WAIT)
        await page.waitForTimeout(500)
        await page.screenshot({ path: process.env.DASHBOARD_SCREENSHOT, fullPage: true })
      }
    } finally {
      await context.close()
    }
  }, 120_000)

  it("shows the starter plan's 403 detail in the sentiment sections and draws the rest", async () => {
    const res = await fetch(`${server.url}${pathOf('sentiment-overview')}?domain_id=${starter.id}`, {
      headers: { authorization: `Bearer ${starterKey}` },
    })
    expect(res.status).toBe(403)
    const { detail } = (await res.json()) as { detail: string }
    const { context, page, urls } = await open()
    try {
      await page.goto(`${server.url}/#key=${encodeURIComponent(starterKey)}`)
      await rendered(page, 1)
      expect(await page.locator('#domain').inputValue()).toBe(starter.id)
      for (const section of ['sentiment', 'themes', 'sentiment-trend']) {
        expect(await text(page, `[data-section="${section}"] .api-error`)).toBe(detail)
        expect(await page.locator(`[data-section="${section}"]`).getAttribute('data-error')).toBe('true')
      }
      expect(await page.locator('[data-section="trends"] svg.chart path.line').count()).toBeGreaterThan(1)
      expect(await page.locator('[data-section="trends"]').getAttribute('data-error')).toBe('false')
      for (const u of urls) expect(u).not.toContain(starterKey)
    } finally {
      await context.close()
    }
  }, 60_000)

  it('asks for a key when there is none, and shows the 401 detail of a refused one', async () => {
    const res = await fetch(`${server.url}${pathOf('domain-list')}`, {
      headers: { authorization: 'Bearer va_nope' },
    })
    const { detail } = (await res.json()) as { detail: string }
    const { context, page, urls } = await open()
    try {
      await page.goto(`${server.url}/`)
      await page.waitForSelector('#key-form:not([hidden])', WAIT)
      await page.fill('#key-input', 'va_nope')
      await page.click('#key-form button[type="submit"]')
      await page.waitForSelector('#key-error:not([hidden])', WAIT)
      expect(await text(page, '#key-error')).toBe(detail)
      expect(await page.evaluate('Object.values(sessionStorage)')).not.toContain('va_nope')

      // The form's key works like the fragment's.
      await page.fill('#key-input', key)
      await page.click('#key-form button[type="submit"]')
      await rendered(page, 1)
      expect(await page.locator('[data-section="trends"] svg.chart path.line').count()).toBeGreaterThan(1)
      expect(await page.evaluate('Object.values(sessionStorage)')).toContain(key)
      // "Forget key" clears it.
      await page.click('#forget')
      await page.waitForSelector('#key-form:not([hidden])', WAIT)
      expect(await page.evaluate('Object.values(sessionStorage)')).not.toContain(key)
      for (const u of urls) expect(u).not.toContain(key)
    } finally {
      await context.close()
    }
  }, 60_000)
})
