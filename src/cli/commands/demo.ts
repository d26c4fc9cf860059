/**
 * `visibility demo`: seeds a database with the demo dataset (a few teams on different plans, their
 * brands, competitors and themes, and months of analyses on every channel up to today) and prints
 * its domains and a `visibility compute` command per report of the endpoint table.
 * `visibility demo --example` instead ingests the spec's worked example and prints the payloads of
 * its queries, equal to fixtures/spec-example/expected.json.
 *
 *   visibility demo [--db PATH] [--now ISO]
 *   visibility demo --example [--db PATH]
 *
 * Also the curl lines `visibility serve --demo` prints (and the README shows): one per row of the
 * endpoint table, so a new endpoint appears there without editing this file.
 */
import { existsSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { ENDPOINTS, nowParam, type Endpoint } from '../../api/index.js'
import { seedDemo, type SeedResult } from '../../demo/index.js'
import { API_PATHS } from '../../http/index.js'
import type { Engine } from '../../index.js'
import { parse } from '../args.js'
import { UsageError } from '../errors.js'
import { computeWithFlags, endpointFlags, flagValue } from '../flags.js'
import { openDatabase } from '../open.js'
import { COMPUTABLE } from './data.js'

const USAGE = 'usage: visibility demo [--db PATH] [--now ISO] | visibility demo --example [--db PATH]'

/** The spec's worked example (its dataset, queries and payloads), from dist/src or src. */
function exampleFile(name: string): string {
  for (const up of ['../../../../', '../../../']) {
    const file = fileURLToPath(new URL(`${up}fixtures/spec-example/${name}`, import.meta.url))
    if (existsSync(file)) return file
  }
  throw new Error(`the worked example (fixtures/spec-example/${name}) is not installed`)
}

/**
 * The values the demo's curls and commands give a row's parameters, by name: the domain, and a
 * 90-day window where the row takes `days`. Other parameters keep their defaults.
 */
function demoParams(domainId: string): Record<string, string> {
  return { domain_id: domainId, days: '90' }
}

const rows = (): readonly Endpoint[] => ENDPOINTS as readonly Endpoint[]

/**
 * One ready-to-paste curl per row of the endpoint table, then the health check and the OpenAPI
 * document.
 * @example
 * demoCurls({ url: 'http://127.0.0.1:8787', key: '$KEY', domainId })
 */
export function demoCurls(options: { url: string; key: string; domainId: string }): string[] {
  const values = demoParams(options.domainId)
  const curl = (path: string, query: string) =>
    `curl -i -H "Authorization: Bearer ${options.key}" "${options.url}${path}${query === '' ? '' : `?${query}`}"`
  // And one weekly series: the first row that takes a granularity, over 90 days.
  const weekly = rows().find((row) => 'granularity' in row.params)
  return [
    ...rows().map((row) =>
      curl(
        row.path,
        Object.keys(row.params)
          .filter((name) => values[name] !== undefined)
          .map((name) => `${name}=${encodeURIComponent(values[name]!)}`)
          .join('&'),
      ),
    ),
    ...(weekly === undefined
      ? []
      : [curl(weekly.path, `domain_id=${options.domainId}&days=90&granularity=week`)]),
    `curl -s "${options.url}${API_PATHS.health}"`,
    `curl -s "${options.url}${API_PATHS.openapi}"`,
  ]
}

/** One `visibility compute` command per row that the CLI offers. */
export function demoComputeCommands(options: { db: string; domainId: string }): string[] {
  const values = demoParams(options.domainId)
  return [...COMPUTABLE].map(([name, endpoint]) => {
    const flags = [...endpointFlags(endpoint)]
      .filter(([, param]) => values[param.name] !== undefined)
      .map(([flag, param]) => `--${flag} ${values[param.name]!}`)
    return ['visibility compute', name, '--db', options.db, ...flags].join(' ')
  })
}

/** The seeded domains, one line each. */
export function describeSeed(seed: SeedResult): string[] {
  const width = Math.max(...seed.domains.map((d) => d.brand.length))
  return seed.domains.map((d) => `  ${d.brand.padEnd(width)}  ${d.id}  team ${d.teamName} (${d.plan} plan)`)
}

/** The worked example's report names: the row ids before this release. */
const EARLIER_IDS: Readonly<Record<string, string>> = {
  prompts: 'prompt-series',
  competitors: 'competitor-series',
  overview: 'sentiment-overview',
  themes: 'sentiment-themes',
}

async function printExample(engine: Engine, db: string): Promise<void> {
  const r = await engine.ingestFile(exampleFile('data.ndjson'))
  process.stdout.write(
    `ingested ${r.analyses} analyses of the worked example into ${db} (re-running changes nothing: ingest is an upsert)\n`,
  )
  const queries = JSON.parse(readFileSync(exampleFile('queries.json'), 'utf8')) as Array<
    Record<string, string | number> & { endpoint: string }
  >
  for (const { endpoint: id, ...query } of queries) {
    // The worked example names its reports by their earlier row ids (docs/API.md, "Deprecated names").
    const endpoint = rows().find(
      (row) => (row.id === id || row.id === EARLIER_IDS[id]) && row.cli !== undefined,
    )
    if (endpoint === undefined) throw new Error(`worked example: no compute subcommand for ${id}`)
    const flags: Record<string, string> = {}
    for (const [flag, param] of endpointFlags(endpoint)) {
      if (query[param.name] !== undefined) flags[flag] = String(query[param.name])
    }
    if (query.now !== undefined) flags[nowParam.flag] = String(query.now)
    const payload = await computeWithFlags(engine, endpoint, flags)
    const args = Object.entries(flags).map(([flag, value]) => `--${flag} ${value}`)
    process.stdout.write(`\n# visibility compute ${endpoint.cli} --db ${db} ${args.join(' ')}\n`)
    process.stdout.write(`${JSON.stringify(payload, null, 2)}\n`)
  }
}

export async function demoCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parse<{ db?: string; now?: string; example?: boolean }>(argv, {
    db: { type: 'string' },
    now: { type: 'string' },
    example: { type: 'boolean' },
  })
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"; ${USAGE}`)
  const db = values.db ?? (values.example ? 'data/example.duckdb' : 'data/demo.duckdb')
  const now = flagValue(nowParam, values.now) ?? new Date()
  const engine = await openDatabase({ path: db })
  try {
    if (values.example) {
      await printExample(engine, db)
      return 0
    }
    const seed = await seedDemo(engine, { now })
    if (seed.stored === null) {
      process.stderr.write(`visibility demo: ${db} holds other data; not seeded (use another --db)\n`)
      return 1
    }
    process.stdout.write(
      `Seeded ${db}: ${seed.stored.analyses} analyses from ${seed.from} to ${seed.to} (re-running brings it up to date).\n` +
        `${describeSeed(seed).join('\n')}\n\nEvery report of the API, from the command line:\n` +
        `${demoComputeCommands({ db, domainId: seed.domains[0]!.id })
          .map((c) => `  ${c}`)
          .join(
            '\n',
          )}\n\nOr over HTTP: npm start (visibility serve --demo) prints a key and a curl per endpoint.\n`,
    )
    return 0
  } finally {
    await engine.close()
  }
}
