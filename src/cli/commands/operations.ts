/**
 * `visibility prune`, `visibility backup` and `visibility restore`: retention and backups on a
 * stopped database (`--db`), or through a running server's admin endpoints (`--server`, with the
 * admin token of VA_ADMIN_TOKEN).
 *
 *   visibility prune (--db PATH | --server URL) --older-than DAYS
 *   visibility backup --db PATH --out DIR | visibility backup --server URL
 *   visibility restore --from DIR --db NEW_PATH
 */
import { olderThanDays } from '../../api/index.js'
import { restoreBackup, type BackupResult, type PruneResult } from '../../index.js'
import { adminClient } from '../admin-client.js'
import { parse, required } from '../args.js'
import { UsageError } from '../errors.js'
import { openDatabase } from '../open.js'

const TARGET = { db: { type: 'string' }, server: { type: 'string' } } as const

/** The one target of a command: a database file or a server (never both). */
function target(values: {
  db?: string | undefined
  server?: string | undefined
}): { db: string } | { server: string } {
  if (values.db !== undefined && values.server !== undefined)
    throw new UsageError('give either --db PATH or --server URL, not both')
  if (values.server !== undefined) return { server: values.server }
  return { db: required('db', values.db) }
}

const client = (server: string) => adminClient(server, process.env.VA_ADMIN_TOKEN, (m) => new UsageError(m))

const counts = (tables: Record<string, number>) =>
  Object.entries(tables)
    .map(([t, n]) => `${n} ${t}`)
    .join(', ')

export async function pruneCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parse<{ db?: string; server?: string; 'older-than'?: string }>(argv, {
    ...TARGET,
    'older-than': { type: 'string' },
  })
  if (positionals.length > 0) throw new UsageError(`prune takes no argument, got "${positionals[0]}"`)
  const days = olderThanDays.parseText(required('older-than', values['older-than']))
  if (days === null) throw new UsageError(`--older-than must be ${olderThanDays.mustBe}`)
  const where = target(values)
  let result: PruneResult
  if ('server' in where) {
    result = await client(where.server).request<PruneResult>('POST', '/internal/v1/prune', {
      older_than_days: days,
    })
  } else {
    const engine = await openDatabase({ path: where.db })
    try {
      result = await engine.prune({ olderThanDays: days })
    } finally {
      await engine.close()
    }
  }
  process.stdout.write(
    `pruned the analyses dated before ${result.before}: ${counts(result.deleted)} deleted\n`,
  )
  return 0
}

export async function backupCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parse<{ db?: string; server?: string; out?: string }>(argv, {
    ...TARGET,
    out: { type: 'string' },
  })
  if (positionals.length > 0) throw new UsageError(`backup takes no argument, got "${positionals[0]}"`)
  const where = target(values)
  let result: BackupResult
  if ('server' in where) {
    if (values.out !== undefined)
      throw new UsageError('--out does not apply with --server: the server writes to its VA_BACKUP_DIR')
    result = await client(where.server).request<BackupResult>('POST', '/internal/v1/backup')
  } else {
    const out = required('out', values.out)
    const engine = await openDatabase({ path: where.db, readOnly: true })
    try {
      result = await engine.backup(out)
    } finally {
      await engine.close()
    }
  }
  process.stdout.write(`backup written to ${result.dir}: ${counts(result.manifest.tables)}\n`)
  return 0
}

export async function restoreCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parse<{ from?: string; db?: string }>(argv, {
    from: { type: 'string' },
    db: { type: 'string' },
  })
  if (positionals.length > 0) throw new UsageError(`restore takes no argument, got "${positionals[0]}"`)
  const result = await restoreBackup({ from: required('from', values.from), path: required('db', values.db) })
  process.stdout.write(`restored ${result.path}: ${counts(result.tables)}\n`)
  return 0
}
