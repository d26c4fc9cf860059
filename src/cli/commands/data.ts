/** `visibility ingest`, `visibility compute` (one subcommand per row of the endpoint table) and `visibility export`. */
import { nowParam } from '../../api/index.js'
import { existsSync, rmSync } from 'node:fs'
import { openDatabase } from '../open.js'
import { parse, required } from '../args.js'
import { UsageError } from '../errors.js'
import { computeWithFlags, endpointFlags } from '../flags.js'
import { createProgress } from '../progress.js'
import { COMPUTABLE, computableByName } from '../synopsis.js'

export async function ingestCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parse<{ db?: string }>(argv, { db: { type: 'string' } })
  const db = required('db', values.db)
  if (positionals.length === 0) throw new UsageError('ingest needs at least one FILE')
  // A refused ingest into a new file leaves no file behind.
  const created = !existsSync(db)
  const engine = await openDatabase({ path: db })
  let stored = false
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
          `${r.theme_occurrences} theme occurrences, ${r.fanout_queries} fan-out queries, ` +
          `${r.teams + r.domains + r.prompts + r.competitors + r.themes} other records in ${s}s\n`,
      )
      if (r.deleted !== undefined) {
        const removed = Object.entries(r.deleted).filter(([t, n]) => n > 0 && t !== 'not_found')
        process.stdout.write(
          `${file}: deleted ${removed.map(([t, n]) => `${n} ${t}`).join(', ') || 'nothing'}` +
            ` (${r.deleted.not_found} ids not stored)\n`,
        )
      }
      stored = true
    }
  } finally {
    await engine.close()
    if (created && !stored) removeDatabase(db)
  }
  return 0
}

/** Removes a database file DuckDB just created, with its write-ahead log and spill folder. */
function removeDatabase(db: string): void {
  for (const path of [db, `${db}.wal`, `${db}.tmp`]) rmSync(path, { recursive: true, force: true })
}

export { COMPUTABLE }

export async function computeCommand(argv: string[]): Promise<number> {
  const known = new Set<string>([nowParam.flag])
  for (const endpoint of COMPUTABLE.values())
    for (const flag of endpointFlags(endpoint).keys()) known.add(flag)
  const options = {
    ...Object.fromEntries([...known, 'db'].map((flag) => [flag, { type: 'string' as const }])),
    all: { type: 'boolean' as const },
  }
  const { values, positionals } = parse<Record<string, string | undefined> & { all?: boolean }>(argv, options)
  const endpoint = computableByName(positionals[0] ?? '')
  if (endpoint === undefined || positionals.length > 1) {
    throw new UsageError(`compute needs one of ${[...COMPUTABLE.keys()].join(', ')}`)
  }
  const own = endpointFlags(endpoint)
  for (const flag of known) {
    if (values[flag] !== undefined && flag !== nowParam.flag && !own.has(flag)) {
      throw new UsageError(`--${flag} does not apply to ${positionals[0]}`)
    }
  }
  const paged = 'cursor' in endpoint.params
  if (values.all === true && !paged)
    throw new UsageError(`--all applies to a listing with a cursor (answers)`)
  if (values.all === true && values.cursor !== undefined)
    throw new UsageError('--all starts at the first page: drop --cursor')
  const { all: _all, ...flags } = values
  const engine = await openDatabase({ path: required('db', values.db), readOnly: true })
  try {
    if (values.all === true) await streamPages(engine, endpoint, flags)
    else {
      const payload = await computeWithFlags(engine, endpoint, flags)
      process.stdout.write(`${JSON.stringify(payload, null, 2)}\n`)
    }
  } finally {
    await engine.close()
  }
  return 0
}

/**
 * `--all`: every page of a cursor listing, each item one JSON line on stdout (NDJSON), page after
 * page (one page in memory at a time; a full pipe holds the next page back). The clock is fixed
 * once, so the pages chain over one window.
 */
async function streamPages(
  engine: Parameters<typeof computeWithFlags>[0],
  endpoint: Parameters<typeof computeWithFlags>[1],
  flags: Readonly<Record<string, string | undefined>>,
): Promise<void> {
  const now = flags[nowParam.flag] ?? new Date().toISOString()
  let cursor: string | undefined
  for (;;) {
    const page = (await computeWithFlags(engine, endpoint, { ...flags, now, cursor })) as {
      data: { items: unknown[]; next_cursor: string | null }
    }
    const text = page.data.items.map((item) => `${JSON.stringify(item)}\n`).join('')
    if (text !== '' && !process.stdout.write(text))
      await new Promise<void>((resolve) => process.stdout.once('drain', resolve))
    if (page.data.next_cursor === null) return
    cursor = page.data.next_cursor
  }
}

export async function exportCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parse<{ db?: string; out?: string; domain?: string[] }>(argv, {
    db: { type: 'string' },
    out: { type: 'string' },
    domain: { type: 'string', multiple: true },
  })
  if (positionals.length > 0) throw new UsageError(`export takes no FILE arguments`)
  const out = required('out', values.out)
  const engine = await openDatabase({ path: required('db', values.db), readOnly: true })
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
