/**
 * Loads the project's SQL files once. Queries are addressed by id (`queries/prompt_series`), never
 * assembled from strings: values travel only as bound parameters.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

function findSqlRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url))
  for (;;) {
    const candidate = join(dir, 'sql')
    if (existsSync(join(candidate, 'schema')) && existsSync(join(dir, 'package.json'))) return candidate
    const parent = dirname(dir)
    if (parent === dir)
      throw new Error('visibility-analytics: the sql/ folder was not found next to package.json')
    dir = parent
  }
}

const root = findSqlRoot()
const cache = new Map<string, string>()

/** The text of `sql/<id>.sql`, e.g. `sqlText('queries/prompt_series')`. */
export function sqlText(id: string): string {
  let text = cache.get(id)
  if (text === undefined) {
    text = readFileSync(join(root, `${id}.sql`), 'utf8')
    cache.set(id, text)
  }
  return text
}

/**
 * The texts of several files as one script, in order (statements without parameters, run by one
 * `run` call: DuckDB executes each in turn).
 */
export function sqlScript(ids: readonly string[]): string {
  return ids.map((id) => sqlText(id)).join('\n;\n')
}

/** Every SQL file id below `sql/<folder>`, sorted. */
export function sqlIds(folder: string): string[] {
  return readdirSync(join(root, folder))
    .filter((f) => f.endsWith('.sql'))
    .sort()
    .map((f) => `${folder}/${f.slice(0, -4)}`)
}
