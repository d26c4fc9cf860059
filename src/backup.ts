/**
 * Backups on disk: a directory holding the Parquet export (every flat table), the API keys as
 * stored (SHA-256 hashes, never secrets) in api_keys.parquet, and manifest.json with the row count
 * of each table and the size and SHA-256 of every other file. A backup is written under a hidden
 * `.partial` name beside its target and renamed into place once complete, so a failed backup
 * leaves nothing behind. Restoring checks the manifest against the files before reading any.
 */
import { createHash } from 'node:crypto'
import {
  createReadStream,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs'
import { basename, dirname, join, relative, resolve } from 'node:path'
import { randomUUID } from 'node:crypto'
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { VARCHAR, type DuckDBConnection } from '@duckdb/node-api'
import { sqlText } from './db/sql.js'
import { ValidationError } from './errors.js'
import { MANIFEST, writeExport, writeManifest } from './parquet.js'
import type { BackupManifest, BackupResult } from './types.js'

export const BACKUP_FORMAT = 'visibility-analytics/backup'
/** The API keys of a backup. */
export const KEYS_FILE = 'api_keys.parquet'

/** Why a path cannot be written, in words (EACCES, EROFS, ENOSPC, ...). */
function fsReason(e: unknown): string {
  const code = (e as NodeJS.ErrnoException).code
  const words: Record<string, string> = {
    EACCES: 'permission denied',
    EPERM: 'permission denied',
    EROFS: 'read-only file system',
    ENOSPC: 'no space left on the device',
    ENOTDIR: 'a parent is not a directory',
    EEXIST: 'a parent is not a directory',
  }
  return code !== undefined && words[code] !== undefined ? `${words[code]} (${code})` : String(code ?? e)
}

const refuse = (path: string, message: string) => new ValidationError([{ path, message }])

/** Where a backup is being written: `partial` until it is complete, then renamed to `dir`. */
export interface BackupTarget {
  dir: string
  partial: string
}

/**
 * Checks `dir` (missing, or an empty directory) and creates the hidden directory the backup is
 * written into. A parent that cannot be written is refused here, before any work.
 */
export function startBackup(dir: string): BackupTarget {
  const abs = resolve(dir)
  if (existsSync(abs)) {
    if (!statSync(abs).isDirectory()) throw refuse('dir', `cannot write the backup to ${dir}: it is a file.`)
    if (readdirSync(abs).length > 0)
      throw refuse('dir', `cannot write the backup to ${dir}: the directory is not empty.`)
  }
  const partial = join(dirname(abs), `.${basename(abs)}.partial-${randomUUID().slice(0, 8)}`)
  try {
    mkdirSync(dirname(abs), { recursive: true })
    mkdirSync(partial)
  } catch (e) {
    throw refuse('dir', `cannot write the backup to ${dir}: ${fsReason(e)}.`)
  }
  return { dir: abs, partial }
}

/** Removes what a failed backup wrote. */
export function abandonBackup(target: BackupTarget): void {
  rmSync(target.partial, { recursive: true, force: true })
}

/**
 * Writes the export and the keys from one consistent snapshot: every statement runs in one read
 * transaction on `conn`. Returns rows per table.
 */
export async function writeBackupFiles(conn: DuckDBConnection, dir: string): Promise<Record<string, number>> {
  await conn.run('BEGIN TRANSACTION')
  try {
    const tables = await writeExport(conn, dir, null)
    const keys = await conn.run(
      sqlText('backup/export_api_keys'),
      { path: join(dir, KEYS_FILE) },
      { path: VARCHAR },
    )
    await conn.run('COMMIT')
    return { ...tables, api_keys: keys.rowsChanged }
  } catch (e) {
    await conn.run('ROLLBACK').catch(() => undefined)
    throw e
  }
}

function* filesUnder(root: string, dir = root): Generator<string> {
  for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const p = join(dir, e.name)
    if (e.isDirectory()) yield* filesUnder(root, p)
    else yield relative(root, p).split('\\').join('/')
  }
}

async function sha256File(path: string): Promise<string> {
  const hash = createHash('sha256')
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer)
  return hash.digest('hex')
}

/** Checksums the files, writes manifest.json and renames the backup into place. */
export async function finishBackup(
  target: BackupTarget,
  tables: Record<string, number>,
  schemaVersion: number,
): Promise<BackupResult> {
  const files: BackupManifest['files'] = {}
  for (const f of filesUnder(target.partial)) {
    const p = join(target.partial, f)
    files[f] = { bytes: statSync(p).size, sha256: await sha256File(p) }
  }
  const manifest: BackupManifest = {
    format: BACKUP_FORMAT,
    schema_version: schemaVersion,
    created_at: new Date().toISOString(),
    domain_ids: null,
    tables,
    files,
  }
  writeManifest(target.partial, manifest as unknown as Record<string, unknown>)
  try {
    if (existsSync(target.dir)) rmSync(target.dir, { recursive: false, force: true }) // an empty directory
    renameSync(target.partial, target.dir)
  } catch (e) {
    throw refuse('dir', `cannot write the backup to ${target.dir}: ${fsReason(e)}.`)
  }
  return { dir: target.dir, manifest }
}

/**
 * Reads a backup's manifest and checks every file against it (size and SHA-256; no file missing,
 * none unlisted). Throws a ValidationError on `from` naming the first problem.
 */
export async function verifyBackup(from: string, schemaVersion: number): Promise<BackupManifest> {
  const dir = resolve(from)
  const bad = (message: string) => refuse('from', `${from} is not a usable backup: ${message}`)
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw bad('no such directory.')
  let manifest: BackupManifest
  try {
    manifest = JSON.parse(readFileSync(join(dir, MANIFEST), 'utf8')) as BackupManifest
  } catch {
    throw bad(`${MANIFEST} is missing or not JSON.`)
  }
  if (manifest.format !== BACKUP_FORMAT)
    throw bad(`${MANIFEST} is not a backup manifest (format ${String(manifest.format)}).`)
  if (!Number.isInteger(manifest.schema_version) || manifest.schema_version > schemaVersion)
    throw bad(`schema version ${String(manifest.schema_version)}; this release reads up to ${schemaVersion}.`)
  const listed = manifest.files ?? {}
  const onDisk = [...filesUnder(dir)].filter((f) => f !== MANIFEST)
  for (const f of onDisk) if (listed[f] === undefined) throw bad(`${f} is not listed in ${MANIFEST}.`)
  for (const [f, expected] of Object.entries(listed)) {
    const p = join(dir, f)
    if (!existsSync(p)) throw bad(`${f} is missing.`)
    if (statSync(p).size !== expected.bytes || (await sha256File(p)) !== expected.sha256)
      throw bad(`${f} does not match its checksum.`)
  }
  return manifest
}

/**
 * Copies a database file and its write-ahead log (when there is one) in a child process. Not in
 * this one: DuckDB holds its lock on the file with fcntl, and closing any descriptor of the file
 * in the process that holds it releases that lock, letting another process open the database.
 * The caller keeps every write out while this runs.
 */
export async function copyDatabaseFiles(file: string, to: string): Promise<void> {
  const script =
    'const fs = require("node:fs"); const [from, to] = process.argv.slice(-2);' +
    ' fs.copyFileSync(from, to); if (fs.existsSync(from + ".wal")) fs.copyFileSync(from + ".wal", to + ".wal")'
  await promisify(execFile)(process.execPath, ['-e', script, file, to], { timeout: 600_000 })
}
