/**
 * The usage text of `visibility compute`, generated from the endpoint table (src/api/endpoints.ts):
 * each subcommand with exactly the flags of its row's parameters, so the help cannot offer a flag
 * the command refuses.
 */
import { ENDPOINTS, nowParam, type Endpoint, type Param } from '../api/index.js'

/** The endpoints of the table that `visibility compute` offers, by subcommand name. */
export const COMPUTABLE: ReadonlyMap<string, Endpoint> = new Map(
  (ENDPOINTS as readonly Endpoint[]).flatMap((e) => (e.cli === undefined ? [] : [[e.cli, e] as const])),
)

/**
 * The deprecated subcommand names still accepted (docs/API.md, "Deprecated names"), by name: not
 * in the help's lists.
 */
export const DEPRECATED_COMPUTE: ReadonlyMap<string, Endpoint> = new Map(
  (ENDPOINTS as readonly Endpoint[]).flatMap((e) => (e.cliAliases ?? []).map((name) => [name, e] as const)),
)

/** The row of a subcommand name, current or deprecated. */
export const computableByName = (name: string): Endpoint | undefined =>
  COMPUTABLE.get(name) ?? DEPRECATED_COMPUTE.get(name)

/** The placeholder of a parameter's value in the usage text, by wire name (default VALUE). */
const METAVAR: Readonly<Record<string, string>> = {
  domain_id: 'UUID',
  days: 'N',
  start_date: 'DATE',
  end_date: 'DATE',
  granularity: 'day|week|month',
  model: 'M',
  limit: 'N',
  page: 'N',
  size: 'N',
  now: 'ISO',
  prompt_id: 'UUID',
  entity: 'brand|UUID',
  country: 'CC',
  topic: 'TEXT',
  tag: 'TEXT',
  cursor: 'CURSOR',
}

const metavar = (param: Param): string => METAVAR[param.name] ?? 'VALUE'

/** `--flag VALUE`, in brackets when optional. */
function flagUsage(param: Param): string {
  const text = `--${param.flag} ${metavar(param)}`
  return param.required ? text : `[${text}]`
}

/** The flags of a row's parameters as the synopsis writes them (the window as one alternative). */
export function endpointFlagsUsage(endpoint: Endpoint): string {
  const params = Object.values(endpoint.params)
  const byName = new Map(params.map((p) => [p.name, p]))
  const days = byName.get('days')
  const start = byName.get('start_date')
  const end = byName.get('end_date')
  const parts: string[] = []
  for (const param of params) {
    if (param === start || param === end) continue
    if (param === days && start !== undefined && end !== undefined) {
      parts.push(`[--${days.flag} N | --${start.flag} DATE --${end.flag} DATE]`)
    } else parts.push(flagUsage(param))
  }
  // The clock applies to every row that has a window.
  if (days !== undefined) parts.push(flagUsage(nowParam))
  // A cursor listing streams every page with --all (src/cli/commands/data.ts).
  if ('cursor' in endpoint.params) parts.push('[--all]')
  return ['--db PATH', ...parts].join(' ')
}

/**
 * The synopsis of `visibility compute`: one line per set of subcommands taking the same flags.
 * @example
 * computeSynopsis()[0] // 'visibility compute prompt-series --db PATH --domain UUID [--days N | ...] ...'
 */
export function computeSynopsis(): string[] {
  const groups = new Map<string, string[]>()
  for (const [name, endpoint] of COMPUTABLE) {
    const flags = endpointFlagsUsage(endpoint)
    groups.set(flags, [...(groups.get(flags) ?? []), name])
  }
  return [...groups].map(([flags, names]) => `visibility compute ${names.join('|')} ${flags}`)
}

/**
 * The help of one `visibility compute` subcommand: its usage, what it answers and each flag.
 * @example
 * computeHelp('prompt-series') // 'Usage: visibility compute prompt-series --db PATH --domain UUID ...'
 */
export function computeHelp(name: string): string {
  const endpoint = computableByName(name)
  if (endpoint === undefined) throw new Error(`no compute subcommand ${name}`)
  const params: Param[] = Object.values(endpoint.params)
  if ('days' in endpoint.params) params.push(nowParam)
  const width = Math.max('--db PATH'.length, ...params.map((p) => `--${p.flag} ${metavar(p)}`.length))
  const line = (flag: string, text: string) => `  ${flag.padEnd(width)}  ${text}`
  return [
    `Usage: visibility compute ${name} ${endpointFlagsUsage(endpoint)}`,
    '',
    `${endpoint.summary}: the JSON body of GET ${endpoint.path}, on stdout.`,
    '',
    line('--db PATH', 'the DuckDB file (opened read-only)'),
    ...params.map((p) =>
      line(`--${p.flag} ${metavar(p)}`, `${p.description} ${p.required ? '(required)' : `(${p.accepts})`}`),
    ),
    ...('cursor' in endpoint.params
      ? [line('--all', 'every page, one item per line (NDJSON), instead of one page (not with --cursor)')]
      : []),
    '',
  ].join('\n')
}
