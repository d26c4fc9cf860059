/** `visibility ingest` and `visibility compute`. */
import { openEngine, type Engine } from '../../index.js'
import { intOption, parse, required } from '../args.js'
import { UsageError } from '../errors.js'
import { createProgress } from '../progress.js'

export async function ingestCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parse<{ db?: string }>(argv, { db: { type: 'string' } })
  const db = required('db', values.db)
  if (positionals.length === 0) throw new UsageError('ingest needs at least one FILE')
  const engine = await openEngine({ path: db })
  try {
    for (const file of positionals) {
      const started = performance.now()
      const bar = createProgress({ label: file, unit: 'B' })
      let r
      try {
        r = await engine.ingestFile(file, {
          onProgress: (read, total) => (bar.setTotal(total), bar.update(read)),
        })
      } finally {
        bar.clear()
      }
      const s = ((performance.now() - started) / 1000).toFixed(2)
      process.stdout.write(
        `${file}: ${r.analyses} analyses, ${r.mentions} mentions, ${r.citations} citations, ` +
          `${r.theme_occurrences} theme occurrences, ${r.teams + r.domains + r.prompts + r.competitors + r.themes} other records in ${s}s\n`,
      )
    }
  } finally {
    await engine.close()
  }
  return 0
}

const REPORTS = ['prompts', 'competitors', 'sentiment-overview', 'sentiment-themes'] as const
type Report = (typeof REPORTS)[number]

/** Computes one payload by its CLI name. */
export function computeReport(
  engine: Engine,
  report: Report,
  p: { domainId: string; days?: number; limit?: number; model?: string; now?: string },
) {
  const base = {
    domainId: p.domainId,
    ...(p.days !== undefined && { days: p.days }),
    ...(p.now !== undefined && { now: p.now }),
  }
  const withModel = { ...base, ...(p.model !== undefined && { model: p.model }) }
  switch (report) {
    case 'prompts':
      if (p.model !== undefined) throw new UsageError('--model does not apply to prompts')
      return engine.computePromptSeries({ ...base, ...(p.limit !== undefined && { limit: p.limit }) })
    case 'competitors':
      return engine.computeCompetitorSeries(withModel)
    case 'sentiment-overview':
      return engine.sentimentOverview(withModel)
    case 'sentiment-themes':
      return engine.sentimentThemes(withModel)
  }
}

export async function computeCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parse<
    Record<'db' | 'domain' | 'days' | 'limit' | 'model' | 'now', string | undefined>
  >(argv, {
    db: { type: 'string' },
    domain: { type: 'string' },
    days: { type: 'string' },
    limit: { type: 'string' },
    model: { type: 'string' },
    now: { type: 'string' },
  })
  const report = positionals[0]
  if (report === undefined || !(REPORTS as readonly string[]).includes(report) || positionals.length > 1) {
    throw new UsageError(`compute needs one of ${REPORTS.join(', ')}`)
  }
  if (report !== 'prompts' && values.limit !== undefined)
    throw new UsageError(`--limit applies to prompts only`)
  const engine = await openEngine({ path: required('db', values.db), readOnly: true })
  try {
    const days = intOption('days', values.days)
    const limit = intOption('limit', values.limit)
    const payload = await computeReport(engine, report as Report, {
      domainId: required('domain', values.domain),
      ...(days !== undefined && { days }),
      ...(limit !== undefined && { limit }),
      ...(values.model !== undefined && { model: values.model }),
      ...(values.now !== undefined && { now: values.now }),
    })
    process.stdout.write(`${JSON.stringify(payload, null, 2)}\n`)
  } finally {
    await engine.close()
  }
  return 0
}

export async function exportCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parse<{ db?: string; out?: string; domain?: string[] }>(argv, {
    db: { type: 'string' },
    out: { type: 'string' },
    domain: { type: 'string', multiple: true },
  })
  if (positionals.length > 0) throw new UsageError(`export takes no FILE arguments`)
  const out = required('out', values.out)
  const engine = await openEngine({ path: required('db', values.db), readOnly: true })
  const bar = createProgress({ label: `export to ${out}` })
  try {
    const r = await engine.exportParquet(out, values.domain ? { domainIds: values.domain } : {})
    bar.clear()
    for (const [table, rows] of Object.entries(r.tables)) process.stdout.write(`${table}: ${rows} rows\n`)
    process.stdout.write(`wrote ${r.dir}\n`)
  } finally {
    bar.clear()
    await engine.close()
  }
  return 0
}
