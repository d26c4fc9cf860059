/**
 * @module The shard's work directory: every `dir` an internal endpoint takes (a move's export and
 * import, a fleet export's part) names a directory inside it, relative to it. The shard resolves
 * the name against the real path of its work directory and refuses anything that could leave it:
 * absolute paths, `..` segments, and symbolic links that point outside (the real path of the
 * result, or of its nearest existing ancestor, must lie inside). Refusals name the parameter and
 * never quote a file's contents.
 */
import { existsSync, lstatSync, mkdirSync, realpathSync, statSync } from 'node:fs'
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path'
import { WorkDirError } from './errors.js'

/** A `dir` parameter: 1-8 segments of letters, digits, `.`, `_`, `-` (not starting with `.`), joined by `/`. */
const SEGMENT = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}$/

/**
 * The real path of a shard's work directory (created when missing).
 * @example
 * const root = openWorkDir('/var/lib/visibility/cluster-work')
 */
export function openWorkDir(path: string): string {
  mkdirSync(resolve(path), { recursive: true })
  return realpathSync(resolve(path))
}

function inside(root: string, real: string): boolean {
  return real === root || real.startsWith(root + sep)
}

/** The real path of `path`'s nearest existing ancestor (itself when it exists). */
function realAncestor(path: string): string {
  let p = path
  while (!existsSync(p)) {
    const up = dirname(p)
    if (up === p) break
    p = up
  }
  return realpathSync(p)
}

/**
 * Checks an internal endpoint's `dir` against the work directory `root` (a real path, see
 * `openWorkDir`) and returns its absolute path. `mode`:
 * - `create`: the directory must not exist yet; it is created (a fresh export target);
 * - `existing`: it must be an existing directory (an export to read).
 * @example
 * confineDir(root, 'move-1234', 'create') // `${root}/move-1234`, created
 * confineDir(root, '/etc/passwd', 'existing') // throws WorkDirError: dir must be a relative path ...
 */
export function confineDir(root: string, dir: unknown, mode: 'create' | 'existing', param = 'dir'): string {
  if (typeof dir !== 'string' || dir.length === 0 || dir.length > 1024)
    throw new WorkDirError(param, "is required: the name of a directory inside the shard's work directory")
  const segments = dir.split('/')
  if (isAbsolute(dir) || segments.length > 8 || !segments.every((s) => SEGMENT.test(s)))
    throw new WorkDirError(
      param,
      'must be a relative path inside the shard\'s work directory (letters, digits, ".", "_", "-" separated by "/"; no "..", no absolute path)',
    )
  const target = join(root, ...segments)
  if (!inside(root, target) || relative(root, target).split(sep).includes('..'))
    throw new WorkDirError(param, "must stay inside the shard's work directory")
  const escapes = (): boolean => !inside(root, realAncestor(target))
  if (mode === 'create') {
    if (existsSync(target) || isLink(target))
      throw new WorkDirError(param, "already exists in the shard's work directory")
    if (escapes()) throw new WorkDirError(param, "leads outside the shard's work directory (a symbolic link)")
    mkdirSync(target, { recursive: true })
    if (escapes()) throw new WorkDirError(param, "leads outside the shard's work directory (a symbolic link)")
    return target
  }
  if (!existsSync(target)) throw new WorkDirError(param, "does not exist in the shard's work directory")
  if (escapes()) throw new WorkDirError(param, "leads outside the shard's work directory (a symbolic link)")
  if (!statSync(target).isDirectory()) throw new WorkDirError(param, 'must be a directory (an export)')
  return realpathSync(target)
}

function isLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink()
  } catch {
    return false
  }
}
