/**
 * Another built tree of this repository (or this one), loaded in this process: its engine
 * (dist/src/index.js) and its bench generator (dist/bench/data/generator.js), so a script can put two
 * revisions side by side on stores each built by its own code (bench/compute-side.ts,
 * bench/aggregate-memory.ts).
 */
import { execFileSync } from 'node:child_process'
import { existsSync, renameSync, rmSync } from 'node:fs'
import { basename, join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { Engine, OpenEngineOptions } from '../../src/types.js'

/** What the scripts use of a tree's bench generator (older trees have the same exports). */
export interface TreeGenerator {
  DATASETS: Record<string, unknown>
  BENCH_NOW: string
  datasetRecords(spec: unknown): Iterable<unknown>
  mainDomainId(spec: unknown): string
}

export interface Tree {
  dir: string
  /** Its commit (its directory's name where it is not a git checkout). */
  commit: string
  openEngine(options: OpenEngineOptions): Promise<Engine>
  generator: TreeGenerator
}

export async function loadTree(dir: string): Promise<Tree> {
  const root = resolve(dir)
  const load = async <T>(rel: string): Promise<T> => (await import(pathToFileURL(join(root, rel)).href)) as T
  const engine = await load<{ openEngine(o: OpenEngineOptions): Promise<Engine> }>('dist/src/index.js')
  let commit: string
  try {
    commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim()
  } catch {
    commit = basename(root)
  }
  return {
    dir: root,
    commit,
    openEngine: engine.openEngine,
    generator: await load<TreeGenerator>('dist/bench/data/generator.js'),
  }
}

/** The dataset's spec in the tree's generator. */
export function treeDataset(tree: Tree, name: string): { spec: unknown; domainId: string } {
  const spec = tree.generator.DATASETS[name]
  if (spec === undefined) throw new Error(`no dataset ${name} in ${tree.dir}`)
  return { spec, domainId: tree.generator.mainDomainId(spec) }
}

/**
 * A file store of the dataset's records written by the tree's own engine and generator (one ingest
 * call), built when `path` does not exist; kept for the next run.
 */
export async function ensureTreeStore(
  tree: Tree,
  name: string,
  path: string,
  log: (...a: unknown[]) => void,
): Promise<void> {
  if (existsSync(path)) return
  const t0 = performance.now()
  // Built under another name, renamed when complete: an interrupted build is never reused.
  const building = `${path}.building`
  rmSync(building, { force: true })
  rmSync(`${building}.wal`, { force: true })
  const engine = await tree.openEngine({ path: building })
  const r = await engine.ingest(
    tree.generator.datasetRecords(treeDataset(tree, name).spec) as Parameters<Engine['ingest']>[0],
  )
  await engine.close()
  renameSync(building, path)
  log(
    `built ${path} with ${tree.commit}: ${r.analyses} analyses in ${((performance.now() - t0) / 1000).toFixed(0)} s`,
  )
}
