/**
 * No request value is ever spliced into SQL, and a hardened DuckDB cannot touch files or its own
 * configuration from a query.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api'
import { afterAll, describe, expect, it } from 'vitest'
import { DEPRECATED_ENGINE_METHODS } from '../../src/engine-aliases.js'
import { isVisibilityError, openEngine, ValidationError, type Engine } from '../../src/index.js'
import { sqlIds, sqlText } from '../../src/db/sql.js'
import { dimRecords, makeAnalyses, makeDims } from '../support/generate.js'
import { checkSqlText, scanSqlCallSites, scanSqlFiles, tsFiles } from './sql-scan.js'
import { observe, tempDir } from './store.js'

const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)))
const { dir: TMP, cleanup } = tempDir()
afterAll(() => cleanup())

describe('SQL files: parameters are $snake_case, nothing is spliced', () => {
  const reports = scanSqlFiles(join(ROOT, 'sql'))

  it('every file under sql/ passes', () => {
    expect(reports.length).toBeGreaterThan(30)
    const bad = reports.filter((r) => r.problems.length > 0)
    expect(bad).toEqual([])
    console.log(
      `[reliability] sql files checked: ${reports.length}, with parameters: ${reports.filter((r) => r.params.length).length}`,
    )
  })

  it('the checker catches splicing markers (control)', () => {
    for (const text of [
      "SELECT * FROM t WHERE id = '${id}' OR x = ${id}",
      'SELECT {{id}}',
      'SELECT %s',
      'SELECT ?',
      'SELECT $1',
      'SELECT $Id',
    ]) {
      expect(checkSqlText(text).problems, text).not.toEqual([])
    }
    expect(checkSqlText("SELECT $id_x, '${not a param}' -- ${comment}\n").problems).toEqual([])
  })

  it('every file outside sql/schema is exactly one statement (prepare() refuses more)', async () => {
    const instance = await DuckDBInstance.create(':memory:')
    const conn = await instance.connect()
    try {
      const folders = readdirSync(join(ROOT, 'sql')).filter((f) => f !== 'schema')
      expect(folders.length).toBeGreaterThanOrEqual(3)
      for (const folder of folders) {
        for (const id of sqlIds(folder)) {
          const n = (await conn.extractStatements(sqlText(id))).count
          expect(n, id).toBe(1)
        }
      }
    } finally {
      conn.closeSync()
      instance.closeSync()
    }
  })
})

const CONTROL_FILE = join(ROOT, 'test/reliability/__virtual_control.ts')
const CONTROL_SOURCE = `
  import type { DuckDBConnection } from '@duckdb/node-api'
  declare function sqlText(id: string): string
  export async function f(conn: DuckDBConnection, id: string, q: string) {
    await conn.run('SELECT 1')
    await conn.run(sqlText('queries/x'))
    const ok = 'SELECT 2'
    await conn.runAndReadAll(ok)
    const rows = async (sql: string) => conn.runAndReadAll(sql)
    await rows('SELECT 3')
    await conn.run(\`SELECT * FROM t WHERE id = '\${id}'\`)
    await conn.run("SELECT * FROM t WHERE id = '" + id + "'")
    await conn.prepare(q)
    let mutable = 'SELECT 4'
    await conn.run(mutable)
    const bad = async (sql: string) => conn.runAndReadAll(sql)
    await bad('SELECT 5')
    await bad(q)
    await conn.run(sqlText('queries/' + id))
    const LIST = ['a', 'b'] as const
    for (const t of LIST) await conn.run(sqlText(\`export/\${t}\`))
    for (const t of [id]) await conn.run(sqlText(\`export/\${t}\`))
  }
`

describe('call sites: every DuckDB call that takes SQL gets a constant', () => {
  // One type-checked program (a few seconds): src/ plus a virtual control file.
  let sites: ReturnType<typeof scanSqlCallSites> | undefined
  const scan = () =>
    (sites ??= scanSqlCallSites(tsFiles(join(ROOT, 'src')), { [CONTROL_FILE]: CONTROL_SOURCE }))

  it('src/ has no SQL built from values', () => {
    const src = scan().filter((s) => !s.where.startsWith(CONTROL_FILE))
    console.log(`[reliability] DuckDB SQL call sites checked in src/: ${src.length}`)
    expect(src.length).toBeGreaterThan(10)
    expect(src.filter((s) => !s.ok)).toEqual([])
  })

  it('the scanner catches a template literal, a concatenation and an unproven variable (control)', () => {
    const control = scan().filter((s) => s.where.startsWith(CONTROL_FILE))
    expect(control.map((s) => s.ok)).toEqual([
      true,
      true,
      true,
      true,
      false,
      false,
      false,
      false,
      false,
      false,
      true,
      false,
    ])
  })
})

/**
 * Opens DuckDB as openEngine means to for `hardened: true` (src/engine.ts): schema, then
 * enable_external_access=false and lock_configuration=true. Unlike the engine today, every
 * connection is created (and given its TimeZone) before the lock; see the it.fails below.
 */
async function openLikeEngine(
  path: string,
  hardened: boolean,
): Promise<{ conns: DuckDBConnection[]; close: () => void }> {
  const instance = await DuckDBInstance.create(path, {})
  const connect = async () => {
    const c = await instance.connect()
    await c.run("SET TimeZone = 'UTC'")
    return c
  }
  const write = await connect()
  for (const id of sqlIds('schema')) if (/\/\d+_/.test(id)) await write.run(sqlText(id))
  const read = await connect()
  if (hardened) {
    await write.run('SET enable_external_access = false')
    await write.run('SET lock_configuration = true')
  }
  return {
    conns: [write, read],
    close: () => {
      write.closeSync()
      read.closeSync()
      instance.closeSync()
    },
  }
}

const outside = (name: string) => join(TMP, name)
const ATTACKS = [
  "SELECT * FROM read_csv('/etc/passwd')",
  "SELECT * FROM read_text('/etc/hostname')",
  "SELECT * FROM read_blob('/etc/hostname')",
  "SELECT * FROM read_json('/etc/os-release')",
  "SELECT * FROM glob('/etc/*')",
  "SELECT * FROM sniff_csv('/etc/passwd')",
  "SELECT * FROM '/etc/passwd'",
  `COPY (SELECT 1 AS x) TO '${outside('copy.csv')}'`,
  `COPY analyses TO '${outside('analyses.parquet')}' (FORMAT parquet)`,
  `EXPORT DATABASE '${outside('export')}'`,
  `ATTACH '${outside('other.duckdb')}' AS other`,
  'INSTALL httpfs',
  'LOAD httpfs',
  "LOAD '/tmp/evil.duckdb_extension'",
  'SET enable_external_access = true',
  'RESET enable_external_access',
  'SET lock_configuration = false',
  'SET GLOBAL enable_external_access = true',
  "SET temp_directory = '/tmp'",
  "SET allowed_directories = ['/']",
  "SET allowed_paths = ['/etc/passwd']",
  'SET threads = 1',
  "SET TimeZone = 'America/Sao_Paulo'",
  "SELECT * FROM read_parquet('/etc/passwd')",
]

describe('hardened DuckDB: no file access, no configuration change from a query', () => {
  it('the engine exposes no raw SQL: its API is the records, the report payloads, domains, keys, table counts, prune, backup and status', async () => {
    const e = await openEngine()
    try {
      const proto = Object.getOwnPropertyNames(Object.getPrototypeOf(e))
        .filter((k) => k !== 'constructor')
        .sort()
      expect(proto).toEqual(
        [
          'computeCitations',
          'computeCitedDomains',
          'close',
          'computeCompetitorSeries',
          'computePromptSeries',
          'createApiKey',
          'computeBrandRankings',
          'computeBrandSeries',
          'computePromptList',
          'computeModelLeaderboard',
          'computeKeyCheck',
          'exportParquet',
          'computeFanoutQueries',
          'computeQuery',
          'computeAnswers',
          'computeSignals',
          'getDomain',
          'getTeam',
          'ingest',
          'ingestArrow',
          'ingestFile',
          'isOpen',
          'listApiKeys',
          'computeDomainList',
          'revokeApiKey',
          'computeSentimentOverview',
          'computeSentimentSeries',
          'computeSentimentThemes',
          'stats',
          'verifyApiKey',
          // Operations (docs/API.md, "Operations endpoints")
          'backup',
          'prune',
          'status',
        ].sort(),
      )
      // Above it, only the deprecated names, each calling its compute method.
      const aliases = Object.getOwnPropertyNames(Object.getPrototypeOf(Object.getPrototypeOf(e)))
        .filter((k) => k !== 'constructor')
        .sort()
      expect(aliases).toEqual(Object.keys(DEPRECATED_ENGINE_METHODS).sort())
    } finally {
      await e.close()
    }
  })

  it(`every one of ${ATTACKS.length} escapes fails on every connection of a hardened instance`, async () => {
    const db = await openLikeEngine(join(TMP, 'hardened.duckdb'), true)
    const succeeded: string[] = []
    try {
      for (const sql of ATTACKS) {
        for (const [i, c] of db.conns.entries()) {
          const ok = await c.run(sql).then(
            () => true,
            () => false,
          )
          if (ok) succeeded.push(`conn ${i}: ${sql}`)
        }
      }
      const setting = await db.conns[1]!.runAndReadAll(
        "SELECT value FROM duckdb_settings() WHERE name IN ('enable_external_access', 'lock_configuration') ORDER BY name",
      )
      expect(setting.getRows()).toEqual([['false'], ['true']])
    } finally {
      db.close()
    }
    expect(succeeded).toEqual([])
    for (const f of ['copy.csv', 'analyses.parquet', 'export', 'other.duckdb'])
      expect(existsSync(outside(f)), f).toBe(false)
  })

  // lock_configuration does not cover PRAGMA enable_profiling (profile to stdout) nor
  // CALL enable_logging(...): after CALL enable_logging(storage = 'file', ...) every later
  // statement fails and closing the connection aborts the process (C++ terminate on a
  // PermissionException). Neither writes a file while enable_external_access is false. The
  // engine's real guarantee is that it never runs client SQL; run in a child process because
  // of the abort.
  it('residual: the statements the lock misses cannot write a file (child process)', () => {
    const script = `
      import { DuckDBInstance } from '@duckdb/node-api'
      const i = await DuckDBInstance.create(${JSON.stringify(join(TMP, 'residual.duckdb'))})
      const w = await i.connect(); const c = await i.connect()
      await w.run('SET enable_external_access = false'); await w.run('SET lock_configuration = true')
      await c.run('PRAGMA enable_profiling'); await c.run('PRAGMA disable_profiling')
      await c.run("CALL enable_logging(storage = 'file', storage_config = {'path': ${JSON.stringify(outside('logdir')).replace(/"/g, "'")}})")
      await c.run('SELECT 1').then(() => console.log('after: ok'), (e) => console.log('after: ' + e.message.split(' - ')[0]))
      c.closeSync(); w.closeSync(); i.closeSync()
      console.log('closed cleanly')`
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 60_000,
    })
    console.log(
      `[reliability] residual lock gap: exit ${r.status} signal ${r.signal}; ${r.stdout.trim().replace(/\n/g, ' | ')}`,
    )
    expect(existsSync(outside('logdir'))).toBe(false)
  })

  it('control: the same statements read /etc/passwd and write files when not hardened', async () => {
    const db = await openLikeEngine(join(TMP, 'open.duckdb'), false)
    try {
      const r = await db.conns[1]!.runAndReadAll(
        "SELECT count(*)::INTEGER FROM read_csv('/etc/passwd', header = false, sep = '|')",
      )
      expect(Number(r.getRows()[0]![0])).toBeGreaterThan(0)
      await db.conns[1]!.run(`COPY (SELECT 1 AS x) TO '${outside('control.csv')}'`)
      expect(readFileSync(outside('control.csv'), 'utf8')).toContain('x')
    } finally {
      db.close()
    }
  })

  // Was an engine bug (found here, fixed on main by 6a89512's merge): openEngine locked the
  // configuration before creating the read connections, whose SET TimeZone then failed.
  it('openEngine({ hardened: true }) opens', async () => {
    const e = await openEngine({ hardened: true })
    await e.close()
  })

  it('a hardened engine over a file still ingests, computes the same payloads, and reopens', async () => {
    const dims = makeDims(3)
    const records = [...dimRecords(dims), ...makeAnalyses(3, dims, 1, 400)]
    const plain = await openEngine()
    await plain.ingest(records)
    const want = await observe(plain)
    await plain.close()
    const path = join(TMP, 'served.duckdb')
    let e: Engine = await openEngine({ path, hardened: true })
    await e.ingest(records)
    expect(await observe(e)).toBe(want)
    await e.close()
    e = await openEngine({ path, hardened: true, readConnections: 4 })
    expect(await observe(e)).toBe(want)
    await e.close()
  })
})

describe('hardened engine: Parquet exports go through a copy, never through the served DuckDB', () => {
  it('an in-memory hardened engine has no file to copy: exportParquet rejects with a VisibilityError', async () => {
    const e = await openEngine({ hardened: true })
    try {
      const err = await e.exportParquet(join(TMP, 'export-mem')).catch((x: unknown) => x)
      expect(isVisibilityError(err)).toBe(true)
    } finally {
      await e.close()
    }
  })

  it('a served file exports one domain from a copy, and another served engine ingests the export', async () => {
    const dims = makeDims(5, { teams: 1, domainsPerTeam: 2 })
    const src = await openEngine({ path: join(TMP, 'hardened-export.duckdb'), hardened: true })
    const dst = await openEngine({ path: join(TMP, 'hardened-import.duckdb'), hardened: true })
    try {
      await src.ingest([...dimRecords(dims), ...makeAnalyses(6, dims, 0, 80)])
      const domainId = dims.domains[0]!.id
      const out = await src.exportParquet(join(TMP, 'export-one'), { domainIds: [domainId] })
      expect(out.tables.domains).toBe(1)
      const stored = await dst.ingestFile(out.dir)
      expect(stored.analyses).toBe(out.tables.analyses)
      expect(stored.analyses).toBeGreaterThan(0)
      const params = { domainId, days: 365, now: '2030-01-01T00:00:00Z' }
      const strip = (p: object) => JSON.stringify({ ...p, generated_at: null })
      expect(strip(await dst.computePromptSeries(params))).toBe(strip(await src.computePromptSeries(params)))
    } finally {
      await src.close()
      await dst.close()
    }
  })
})

describe('values travel as parameters: SQL-looking input is stored and returned verbatim', () => {
  const EVIL = [
    "'); DROP TABLE analyses; --",
    "x' OR '1'='1",
    '"; DELETE FROM prompts; --',
    '$1 $name ${x} %s ?',
    "Robert'); DROP TABLE teams;--",
    "\\x00'\\'",
  ]

  it('names, texts and URLs round-trip; no table is touched', async () => {
    const dims = makeDims(4, { teams: 1, domainsPerTeam: 1 })
    EVIL.forEach((s, i) => {
      dims.prompts[i]!.text = s
      dims.competitors[i % dims.competitors.length]!.name = s
      dims.themes[i % dims.themes.length]!.name = s
    })
    dims.domains[0]!.brand_name = EVIL[0]!
    dims.domains[0]!.website = EVIL[1]!
    const analyses = makeAnalyses(4, dims, 1, 200).map((a, i) => ({
      ...a,
      citations: [{ url: `https://x.example/?q=${encodeURIComponent(EVIL[i % EVIL.length]!)}'--` }],
    }))
    const e = await openEngine()
    try {
      const r = await e.ingest([...dimRecords(dims), ...analyses])
      expect(r.analyses).toBe(200)
      const domainId = dims.domains[0]!.id as string
      const p = { domainId, days: 365, now: '2026-03-31T23:59:00Z' }
      const prompts = await e.computePromptSeries({ ...p, limit: 100 })
      const texts = prompts.data.items.map((i) => i.text)
      for (const s of EVIL) expect(texts).toContain(s)
      const comps = await e.computeCompetitorSeries(p)
      expect(comps.data.items[0]!.name).toBe(EVIL[0])
      expect(comps.data.items[0]!.website).toBe(EVIL[1])
      const themes = await e.computeSentimentThemes(p)
      expect(themes.data.items.length).toBeGreaterThan(0)
      const key = await e.createApiKey({ teamId: dims.teams[0]!.id as string, name: EVIL[0]! })
      expect((await e.listApiKeys())[0]!.name).toBe(EVIL[0])
      for (const s of EVIL) expect(await e.verifyApiKey(`va_live_${s}`)).toBeNull()
      expect(await e.verifyApiKey(key.key)).not.toBeNull()
      for (const s of EVIL) expect(await e.revokeApiKey(s)).toBe(false)
      for (const s of EVIL) await expect(e.computePromptSeries({ ...p, domainId: s })).rejects.toThrow()
      // A model filter outside the identifier alphabet is refused by validation, naming `model`
      // (any other failure fails here); a valid identifier no analysis has matches nothing.
      for (const s of EVIL) {
        const refused = await e.computeSentimentOverview({ ...p, model: s }).then(
          () => null,
          (x: unknown) => x,
        )
        expect(refused, s).toBeInstanceOf(ValidationError)
        expect((refused as ValidationError).message, s).toMatch(/^model must be/)
      }
      for (const s of ['no-such-model--', 'x.--', 'a/../b@c:d+e']) {
        expect((await e.computeSentimentOverview({ ...p, model: s })).data.total_mentions, s).toBe(0)
      }
      // nothing dropped or deleted
      expect((await e.computeDomainList()).data.total).toBe(1)
      expect((await e.computePromptSeries({ ...p, limit: 100 })).data.items.length).toBe(
        prompts.data.items.length,
      )
    } finally {
      await e.close()
    }
  })
})
