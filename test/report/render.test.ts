/**
 * Rendering check: the report page for a realistic payload set, screenshotted by headless
 * Chromium. Skipped when no Chromium binary is found (set CHROMIUM_PATH to point at one).
 * REPORT_SCREENSHOT=path copies the PNG there, REPORT_SCREENSHOT_HEIGHT sets its height: that is how
 * docs/report-screenshot.png is made from the demo's page (REPORT_SCREENSHOT_HEIGHT=4500).
 */
import { execFile } from 'node:child_process'
import { accessSync, constants } from 'node:fs'
import { copyFile, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { delimiter, join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, describe, expect, it } from 'vitest'
import { seedDemo } from '../../src/demo/index.js'
import { openEngine } from '../../src/index.js'
import { renderReportHtml, type ReportInput } from '../../src/report/html.js'
import { emptySet, realisticSet } from './payloads.js'

const run = promisify(execFile)

function findChromium(): string | null {
  const candidates = process.env.CHROMIUM_PATH
    ? [process.env.CHROMIUM_PATH]
    : ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable']
  for (const name of candidates) {
    const paths = name.includes('/')
      ? [name]
      : (process.env.PATH ?? '').split(delimiter).map((d) => join(d, name))
    for (const p of paths) {
      try {
        accessSync(p, constants.X_OK)
        return p
      } catch {
        // not here
      }
    }
  }
  return null
}

const chromium = findChromium()
if (!chromium) {
  console.warn(
    'render.test.ts: no chromium binary found (PATH or CHROMIUM_PATH); skipping the rendering check',
  )
}

const dirs: string[] = []
afterAll(async () => {
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })))
})

async function screenshot(html: string, width = 1280, height = 2000): Promise<Buffer> {
  const dir = await mkdtemp(join(tmpdir(), 'report-render-'))
  dirs.push(dir)
  const page = join(dir, 'report.html')
  const png = join(dir, 'report.png')
  await writeFile(page, html)
  await run(
    chromium!,
    [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--hide-scrollbars',
      `--user-data-dir=${join(dir, 'profile')}`,
      `--screenshot=${png}`,
      `--window-size=${width},${height}`,
      pathToFileURL(page).href,
    ],
    { timeout: 60_000 },
  )
  return readFile(png)
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
    const now = '2026-11-20T12:00:00.000Z'
    const seed = await seedDemo(engine, { now, days: 90 })
    const domain = (await engine.getDomain(seed.domains[0]!.id))!
    const base = { domainId: domain.id, days: 90, now }
    return {
      domain,
      prompts: await engine.computePromptSeries(base),
      competitors: await engine.computeCompetitorSeries(base),
      overview: await engine.sentimentOverview(base),
      themes: await engine.sentimentThemes(base),
      leaderboard: await engine.modelLeaderboard(base),
      sentimentSeries: await engine.sentimentSeries(base),
      citedDomains: await engine.citedDomains(base),
      citations: await engine.citations(base),
    }
  } finally {
    await engine.close()
  }
}

describe.skipIf(!chromium)('report rendering in headless chromium', () => {
  it('renders a realistic report to a non-trivial PNG', async () => {
    const s = realisticSet()
    const png = await screenshot(renderReportHtml(s))
    expect(pngSize(png)).toEqual({ width: 1280, height: 2000 })
    // A blank page of this size compresses to a few KB; charts, tables and text take far more.
    expect(png.length).toBeGreaterThan(60_000)
  })

  it('renders every section of the demo report (the docs screenshot)', async () => {
    const html = renderReportHtml(await demoReport())
    // The docs screenshot shows the whole page: REPORT_SCREENSHOT_HEIGHT=4500 fits it.
    const height = Number(process.env.REPORT_SCREENSHOT_HEIGHT ?? 2000)
    const png = await screenshot(html, 1280, height)
    expect(pngSize(png)).toEqual({ width: 1280, height })
    expect(png.length).toBeGreaterThan(60_000)
    const out = process.env.REPORT_SCREENSHOT
    if (out) {
      await writeFile(out, png)
      expect((await stat(out)).size).toBe(png.length)
    }
  })

  it('renders the empty report too', async () => {
    const png = await screenshot(renderReportHtml(emptySet()), 1280, 900)
    expect(pngSize(png)).toEqual({ width: 1280, height: 900 })
    expect(png.length).toBeGreaterThan(10_000)
    const out = process.env.REPORT_SCREENSHOT_EMPTY
    if (out) await copyFile(join(dirs.at(-1)!, 'report.png'), out)
  })
})
