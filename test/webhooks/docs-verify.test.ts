/**
 * The receiver verification examples of docs/WEBHOOKS.md, run as written: the Node one (and the
 * Python one when python3 is present) accepts a real delivery's signature and refuses a tampered
 * body, another secret and an old timestamp.
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signatureHeader } from '../../src/webhooks/delivery.js'
import { D, T, engineWithHooks, receiver, signal } from './support.js'

const DOC = readFileSync(fileURLToPath(new URL('../../docs/WEBHOOKS.md', import.meta.url)), 'utf8')
const block = (lang: string) => new RegExp('```' + lang + '\\n([\\s\\S]*?)```').exec(DOC)![1]!
const dir = mkdtempSync(join(tmpdir(), 'va-webhooks-docs-'))
let delivered: { secret: string; header: string; body: string }

beforeAll(async () => {
  const { engine, hooks } = await engineWithHooks()
  const r = await receiver(() => 200)
  try {
    const created = await hooks.create({
      team_id: T.acme,
      url: r.url,
      events: ['signal.created'],
      domain_ids: null,
    })
    hooks.configure({ detect: async () => [signal('doc', { entity_name: 'Acmé "quoted"' })] })
    await hooks.detectNow(D.acme1)
    await (await hooks.worker()).drain()
    const req = r.requests[0]!
    delivered = {
      secret: created.secret,
      header: String(req.headers['visibility-signature']),
      body: req.body,
    }
  } finally {
    await engine.close()
    await r.close()
  }
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** Cases: [secret, header, body, expected]. */
function cases(): [string, string, string, boolean][] {
  const { secret, header, body } = delivered
  const old = Math.floor(Date.now() / 1000) - 3600
  return [
    [secret, header, body, true],
    [secret, header, body.replace('doc', 'dog'), false],
    [`${secret}x`, header, body, false],
    [secret, signatureHeader(secret, body, old), body, false],
  ]
}

describe('docs/WEBHOOKS.md verification examples', () => {
  it('Node', () => {
    const file = join(dir, 'verify.mjs')
    writeFileSync(
      file,
      `${block('js')}\nconst cases = JSON.parse(process.argv[2])\nprocess.stdout.write(JSON.stringify(cases.map(([s, h, b]) => verify(s, h, b))))\n`,
    )
    const run = spawnSync(process.execPath, [file, JSON.stringify(cases())], { encoding: 'utf8' })
    expect(run.stderr).toBe('')
    expect(JSON.parse(run.stdout)).toEqual(cases().map((c) => c[3]))
  })

  const python = spawnSync('python3', ['--version']).status === 0
  it.skipIf(!python)('Python', () => {
    const file = join(dir, 'verify.py')
    writeFileSync(
      file,
      `${block('python')}\nimport json, sys\ncases = json.loads(sys.argv[1])\nprint(json.dumps([verify(s, h, b.encode()) for s, h, b, _ in cases]))\n`,
    )
    const run = spawnSync('python3', [file, JSON.stringify(cases())], { encoding: 'utf8' })
    expect(run.stderr).toBe('')
    expect(JSON.parse(run.stdout)).toEqual(cases().map((c) => c[3]))
  })
})
