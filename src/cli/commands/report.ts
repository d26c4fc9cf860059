/**
 * `visibility report`: batch reports. For each domain, the report payloads as JSON, the series and
 * the citation lists as CSV and a self-contained HTML page, in DIR/<domain_id>/.
 */
import { mkdir, rename, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import {
  channelModelParam,
  countryParam,
  daysParam,
  domainIdParam,
  endDateParam,
  granularityParam,
  modelParam,
  nowParam,
  startDateParam,
  tagParam,
  topicParam,
} from '../../api/index.js'
import { isValidationError, type DomainInfo, type Engine } from '../../index.js'
import {
  methodOf,
  REPORT_EXTRA_ROWS,
  REPORT_ROWS,
  type ReportMethod,
  type ReportSection,
} from '../../internal.js'
import {
  citationsCsv,
  citedDomainsCsv,
  competitorSeriesCsv,
  promptSeriesCsv,
  renderReportHtml,
  sentimentThemesCsv,
} from '../../report/index.js'
import { parse, required } from '../args.js'
import { reportError, UsageError } from '../errors.js'
import { flagValue } from '../flags.js'
import { openDatabase } from '../open.js'
import { createProgress, type ProgressStream } from '../progress.js'

export const REPORT_USAGE = `Usage:
  visibility report --db PATH (--domain UUID... | --all) --out DIR [--days N | --start DATE --end DATE]
                    [--granularity day|week|month] [--model M] [--country CC] [--topic T] [--tag T]
                    [--now ISO]
  visibility report --cluster URL (--domain UUID... | --all) --out DIR [...]

Writes DIR/<domain_id>/{prompts.json, competitors.json, sentiment-overview.json,
sentiment-themes.json, model-leaderboard.json, sentiment-series.json, cited-domains.json,
citations.json, prompts.csv, competitors.csv, themes.csv, cited-domains.csv, citations.csv,
report.html} per domain.
  --domain UUID   a domain to report on (repeat for several)
  --all           every domain in the database
  --days N        trailing window, 1-365 (default 30)
  --start DATE    first UTC date YYYY-MM-DD of the window (with --end, instead of --days)
  --end DATE      last UTC date of the window, today at the latest (at most 365 days)
  --granularity G day (default), week or month: the buckets of the prompt, competitor and
                  sentiment series (JSON, CSV, the page's charts); week suits windows over 90 days
  --model M       all (default), a channel name, or a raw model id (sentiment and citations
                  only: the competitor series then covers all channels, and the page says so;
                  the model leaderboard always covers every channel)
  --country CC    only the analyses of this country (two letters, any case), in every section
  --topic T       only the analyses of prompts with this topic (trimmed, exact), in every section
  --tag T         only the analyses of prompts with this tag (trimmed, exact), in every section
  --now ISO       the clock (default: now); one clock for every domain
  --cluster URL   a cluster's control plane (postgres://) instead of --db: each domain computed
                  by the shard that owns it (the shards' admin token in VA_ADMIN_TOKEN)
Exit codes: 0 ok, 1 failed (one line on stderr), 2 usage error.
`

/** The files written per domain, in the order they are written. */
export const REPORT_FILES = [
  'prompts.json',
  'competitors.json',
  'sentiment-overview.json',
  'sentiment-themes.json',
  'model-leaderboard.json',
  'sentiment-series.json',
  'cited-domains.json',
  'citations.json',
  'prompts.csv',
  'competitors.csv',
  'themes.csv',
  'cited-domains.csv',
  'citations.csv',
  'report.html',
] as const

/** Where the command writes; tests pass their own streams. */
export interface ReportIo {
  stdout: { write(chunk: string): unknown }
  stderr: ProgressStream & NodeJS.WritableStream
}

/** The compute steps of the progress bar per domain: one per section, the breakdowns, the samples. */
export const COMPUTE_STEPS = 11

/** The prompts the page lists, each with a sample answer. */
const TOP_PROMPTS = 10

/** The week of the week-over-week marks. */
const WEEK_DAYS = 7

interface ReportArgs {
  /** The database file, or the cluster's control plane URL. */
  from: { db: string } | { cluster: string }
  out: string
  domains: string[] | 'all'
  /** The window as the engine takes it: days, or startDate and endDate. */
  window: { days?: number; startDate?: string; endDate?: string }
  granularity: 'day' | 'week' | 'month' | undefined
  model: string
  /** The segment filters given (docs/API.md, "Segment filters"), normalized: applied to every section. */
  segment: { country?: string; topic?: string; tag?: string }
  now: string
}

function parseReportArgs(argv: string[]): ReportArgs | 'help' {
  const { values } = parse<{
    db?: string
    cluster?: string
    domain?: string[]
    all?: boolean
    out?: string
    days?: string
    start?: string
    end?: string
    granularity?: string
    model?: string
    country?: string
    topic?: string
    tag?: string
    now?: string
    help?: boolean
  }>(
    argv,
    {
      db: { type: 'string' },
      cluster: { type: 'string' },
      domain: { type: 'string', multiple: true },
      all: { type: 'boolean' },
      out: { type: 'string' },
      days: { type: 'string' },
      start: { type: 'string' },
      end: { type: 'string' },
      granularity: { type: 'string' },
      model: { type: 'string' },
      country: { type: 'string' },
      topic: { type: 'string' },
      tag: { type: 'string' },
      now: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    false,
  )
  if (values.help) return 'help'
  if (values.db !== undefined && values.cluster !== undefined)
    throw new UsageError('give either --db or --cluster, not both')
  if (values.cluster !== undefined && !/^postgres(ql)?:\/\//.test(values.cluster))
    throw new UsageError('--cluster must be a postgres:// URL')
  const from = values.cluster !== undefined ? { cluster: values.cluster } : { db: required('db', values.db) }
  const out = required('out', values.out)
  const domainIds = values.domain ?? []
  if (values.all && domainIds.length > 0) throw new UsageError('give either --domain or --all, not both')
  if (!values.all && domainIds.length === 0) throw new UsageError('give --domain UUID (one or more) or --all')
  // Several --domain flags naming one domain (in any case) make one report.
  const unique = [...new Set(domainIds.map((id) => flagValue(domainIdParam, id)))]
  const days = flagValue(daysParam, values.days)
  const startDate = flagValue(startDateParam, values.start)
  const endDate = flagValue(endDateParam, values.end)
  const granularity = flagValue(granularityParam, values.granularity)
  const model = flagValue(modelParam, values.model)
  const country = flagValue(countryParam, values.country)
  const topic = flagValue(topicParam, values.topic)
  const tag = flagValue(tagParam, values.tag)
  const segment = {
    ...(country === undefined ? {} : { country }),
    ...(topic === undefined ? {} : { topic }),
    ...(tag === undefined ? {} : { tag }),
  }
  const now = flagValue(nowParam, values.now) ?? new Date().toISOString()
  const window = {
    ...(days === undefined ? {} : { days }),
    ...(startDate === undefined ? {} : { startDate }),
    ...(endDate === undefined ? {} : { endDate }),
  }
  return { from, out, domains: values.all ? 'all' : unique, window, granularity, model, segment, now }
}

/**
 * The week of the week-over-week marks: the last 7 days of the report's window (ending on its end
 * date when it has one, else today).
 */
function weekOf(window: ReportArgs['window']): { days: number } | { startDate: string; endDate: string } {
  if (window.endDate === undefined) return { days: WEEK_DAYS }
  const end = Date.parse(`${window.endDate}T00:00:00Z`)
  const startDate = new Date(end - (WEEK_DAYS - 1) * 86_400_000).toISOString().slice(0, 10)
  return { startDate, endDate: window.endDate }
}

/** Writes a file whole or not at all: a temp file renamed into place. */
async function writeAtomic(path: string, text: string): Promise<void> {
  const tmp = `${path}.${process.pid}.tmp`
  await writeFile(tmp, text)
  await rename(tmp, path)
}

/** What the report reads: a local engine, or a cluster's shards (the same methods). */
type ReportSource = Pick<Engine, ReportMethod>

/** The engine method of a section of the report: its row's in the endpoint table. */
const sectionMethod = <S extends ReportSection>(section: S) => methodOf(REPORT_ROWS[section])

async function resolveDomains(engine: ReportSource, wanted: string[] | 'all'): Promise<DomainInfo[]> {
  if (wanted === 'all') {
    const all = (await engine[methodOf('domain-list')]()).data.items
    if (all.length === 0) throw new Error('the database has no domains')
    return (await Promise.all(all.map((d) => engine.getDomain(d.id)))).filter((d) => d !== null)
  }
  const found: DomainInfo[] = []
  const missing: string[] = []
  for (const id of wanted) {
    const d = await engine.getDomain(id)
    if (d) found.push(d)
    else missing.push(id)
  }
  if (missing.length > 0) {
    throw new Error(`domain${missing.length === 1 ? '' : 's'} not found: ${missing.join(', ')}`)
  }
  return found
}

/**
 * `visibility report`: computes the four payloads per domain with one engine opened read-only and
 * writes JSON, CSV and an HTML page per domain, with a progress bar on stderr when it is a TTY.
 * Returns the exit code: 0 ok, 1 runtime error, 2 usage error (one line on stderr, no stack).
 * @example
 * process.exitCode = await reportCommand(['--db', 'data.duckdb', '--all', '--out', 'reports', '--days', '30'])
 */
export async function reportCommand(
  argv: string[],
  io: ReportIo = { stdout: process.stdout, stderr: process.stderr },
): Promise<number> {
  let close = async (): Promise<void> => {}
  let clearBar = (): void => {}
  try {
    const args = parseReportArgs(argv)
    if (args === 'help') {
      io.stdout.write(REPORT_USAGE)
      return 0
    }
    const competitorModel = channelModelParam.text.safeParse(args.model).success ? args.model : 'all'
    if (competitorModel !== args.model) {
      io.stderr.write(
        `visibility: note: --model ${args.model} is not a channel; competitors are computed with model all (sentiment uses ${args.model})\n`,
      )
    }
    const source = await openSource(args.from)
    close = source.close
    const engine = source.engine
    const { granularity } = args
    const domains = await resolveDomains(engine, args.domains)
    await mkdir(args.out, { recursive: true })

    for (const [i, domain] of domains.entries()) {
      const bar = createProgress({
        label: `[${i + 1}/${domains.length}] ${domain.brand_name}`,
        total: COMPUTE_STEPS + REPORT_FILES.length,
        unit: 'steps',
        stream: io.stderr,
      })
      clearBar = () => bar.clear()
      const base = { domainId: domain.id, ...args.window, ...args.segment, now: args.now }
      const series = { ...base, ...(granularity === undefined ? {} : { granularity }) }
      const prompts = await engine[sectionMethod('prompts')](series)
      bar.tick()
      const competitors = await engine[sectionMethod('competitors')]({ ...series, model: competitorModel })
      bar.tick()
      const overview = await engine[sectionMethod('overview')]({ ...base, model: args.model })
      bar.tick()
      const themes = await engine[sectionMethod('themes')]({ ...base, model: args.model })
      bar.tick()
      const leaderboard = await engine[sectionMethod('leaderboard')](base)
      bar.tick()
      const sentimentSeries = await engine[sectionMethod('sentimentSeries')]({ ...series, model: args.model })
      bar.tick()
      const citedDomains = await engine[sectionMethod('citedDomains')]({ ...base, model: args.model })
      bar.tick()
      const citations = await engine[sectionMethod('citations')]({ ...base, model: args.model })
      bar.tick()
      // The domain's current signals: the report's defaults, not the window (docs/API.md, "GET /api/v1/signals").
      const signals = await engine[sectionMethod('signals')]({ domainId: domain.id, now: args.now })
      bar.tick()

      // The breakdowns by country and topic (docs/API.md, "GET /api/v1/query"): the window's
      // groups, and the last 7 days of the window against the 7 before.
      const query = engine[methodOf(REPORT_EXTRA_ROWS.breakdown)].bind(engine)
      const week = weekOf(args.window)
      const breakdown = async (dimension: 'country' | 'topic') => ({
        window: await query({ ...base, dimensions: [dimension], entity: 'brand', limit: 10_000 }),
        week: await query({
          domainId: domain.id,
          ...week,
          ...args.segment,
          now: args.now,
          dimensions: [dimension],
          entity: 'brand',
          compare: 'previous',
          limit: 10_000,
        }),
      })
      const byCountry = await breakdown('country')
      const byTopic = await breakdown('topic')
      bar.tick()
      // The most recent answer of each listed prompt (docs/API.md, "GET /api/v1/answers").
      const answers = engine[methodOf(REPORT_EXTRA_ROWS.samples)].bind(engine)
      const samples = await Promise.all(
        prompts.data.items
          .slice(0, TOP_PROMPTS)
          .map((p) => answers({ ...base, model: args.model, promptId: p.id, limit: 1 })),
      )
      bar.tick()

      const dir = join(args.out, domain.id)
      await mkdir(dir, { recursive: true })
      const json = (v: unknown): string => `${JSON.stringify(v, null, 2)}\n`
      const contents: Record<(typeof REPORT_FILES)[number], () => string> = {
        'prompts.json': () => json(prompts),
        'competitors.json': () => json(competitors),
        'sentiment-overview.json': () => json(overview),
        'sentiment-themes.json': () => json(themes),
        'model-leaderboard.json': () => json(leaderboard),
        'sentiment-series.json': () => json(sentimentSeries),
        'cited-domains.json': () => json(citedDomains),
        'citations.json': () => json(citations),
        'prompts.csv': () => promptSeriesCsv(prompts),
        'competitors.csv': () => competitorSeriesCsv(competitors),
        'themes.csv': () => sentimentThemesCsv(themes),
        'cited-domains.csv': () => citedDomainsCsv(citedDomains),
        'citations.csv': () => citationsCsv(citations),
        'report.html': () =>
          renderReportHtml({
            domain,
            prompts,
            competitors,
            overview,
            themes,
            leaderboard,
            sentimentSeries,
            citedDomains,
            citations,
            signals,
            byCountry,
            byTopic,
            samples,
            topPrompts: TOP_PROMPTS,
          }),
      }
      for (const name of REPORT_FILES) {
        await writeAtomic(join(dir, name), contents[name]())
        bar.tick()
      }
      bar.done()
      io.stdout.write(`${join(dir, 'report.html')}\n`)
    }
    return 0
  } catch (e) {
    clearBar()
    // Parameters are checked up front; one the engine still refuses is a usage error too.
    if (isValidationError(e)) return reportError(new UsageError(e.message), io.stderr)
    return reportError(e, io.stderr)
  } finally {
    await close()
  }
}

/** Opens the local database read-only, or connects to the cluster's control plane. */
async function openSource(
  from: ReportArgs['from'],
): Promise<{ engine: ReportSource; close: () => Promise<void> }> {
  if ('db' in from) {
    const engine = await openDatabase({ path: from.db, readOnly: true })
    return { engine, close: () => engine.close() }
  }
  const token = process.env.VA_ADMIN_TOKEN
  if (token === undefined || token === '')
    throw new UsageError("report --cluster needs the shards' admin token in VA_ADMIN_TOKEN")
  const cluster = await import('../../cluster/index.js')
  const cp = await cluster.ControlPlane.connect(from.cluster, { max: 2 })
  try {
    return { engine: await cluster.clusterReportSource(cp, token), close: () => cp.close() }
  } catch (e) {
    await cp.close()
    throw e
  }
}
