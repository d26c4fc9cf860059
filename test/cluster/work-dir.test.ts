/** The shards' work directory (src/cluster/work-dir.ts): every internal `dir` stays inside it. */
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { confineDir, openWorkDir, WorkDirError } from '../../src/cluster/index.js'

let base: string
let root: string

beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), 'va-workdir-'))
  root = openWorkDir(join(base, 'work'))
  mkdirSync(join(base, 'outside'))
  writeFileSync(join(base, 'outside', 'secret.json'), '{"secret": tru')
  symlinkSync(join(base, 'outside'), join(root, 'link-out'))
  mkdirSync(join(root, 'inside'))
  symlinkSync(join(root, 'inside'), join(root, 'link-in'))
  writeFileSync(join(root, 'file'), 'text')
})
afterEach(() => rmSync(base, { recursive: true, force: true }))

function refusal(dir: unknown, mode: 'create' | 'existing'): WorkDirError {
  try {
    confineDir(root, dir, mode)
  } catch (e) {
    expect(e).toBeInstanceOf(WorkDirError)
    return e as WorkDirError
  }
  throw new Error(`${JSON.stringify(dir)} was accepted`)
}

describe('confineDir', () => {
  it.each([
    ['an absolute path', '/etc/passwd'],
    ['an absolute path inside the work directory', '/inside'],
    ['a ".." segment', '../outside'],
    ['a ".." in the middle', 'inside/../../outside'],
    ['a "." segment', './inside'],
    ['a hidden name', '.hidden'],
    ['an empty segment', 'inside//x'],
    ['a backslash', 'inside\\..\\x'],
    ['not a string', 42],
    ['nothing', undefined],
    ['an empty string', ''],
  ])('refuses %s, naming dir', (_what, dir) => {
    for (const mode of ['create', 'existing'] as const) {
      const e = refusal(dir, mode)
      expect(e.message).toMatch(/^dir /)
      expect(e.code).toBe('WORK_DIR')
      expect(e.param).toBe('dir')
    }
  })

  it('refuses a symbolic link that leads outside, and a path through it', () => {
    expect(refusal('link-out', 'existing').message).toContain('symbolic link')
    expect(refusal('link-out/secret.json', 'existing').message).toContain('symbolic link')
    expect(refusal('link-out/new-export', 'create').message).toContain('symbolic link')
    expect(existsSync(join(base, 'outside', 'new-export'))).toBe(false)
  })

  it('never quotes a file it refuses', () => {
    for (const dir of ['link-out/secret.json', 'file', '/etc/passwd'])
      expect(refusal(dir, 'existing').message).not.toMatch(/secret|tru|text|root/)
  })

  it('accepts directories inside, also through a link that stays inside; resolves the real path', () => {
    expect(confineDir(root, 'inside', 'existing')).toBe(join(root, 'inside'))
    expect(confineDir(root, 'link-in', 'existing')).toBe(join(root, 'inside'))
    expect(confineDir(root, 'a/b-1/c_2.x', 'create')).toBe(join(root, 'a', 'b-1', 'c_2.x'))
    expect(existsSync(join(root, 'a', 'b-1', 'c_2.x'))).toBe(true)
  })

  it('create refuses an existing name; existing refuses a missing one or a file', () => {
    expect(refusal('inside', 'create').message).toContain('already exists')
    expect(refusal('link-in', 'create').message).toContain('already exists')
    expect(refusal('missing', 'existing').message).toContain('does not exist')
    expect(refusal('file', 'existing').message).toContain('must be a directory')
  })
})
