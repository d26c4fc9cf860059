/**
 * Bad input (semantics.md section 1.3): one test per invalid-record rule. Each asserts the error
 * names the record and field, and that nothing of the call was stored.
 */
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { IngestError, openEngine, type Engine } from '../../src/index.js'
import {
  analysis,
  base,
  COMPETITOR,
  competitor,
  DOMAIN,
  domain,
  OTHER_DOMAIN,
  OTHER_PROMPT,
  prompt,
  team,
  TEAM,
  THEME,
  theme,
} from '../support/records.js'

let engine: Engine
beforeEach(async () => {
  engine = await openEngine()
  await engine.ingest(base())
})
afterEach(() => engine.close())

/** Ingests good records around `bad` and expects a refusal that leaves the store unchanged. */
async function expectRefused(
  bad: unknown[],
  expected: Array<{ index: number; field: string; message: RegExp }>,
) {
  const before = await engine.stats()
  const good = analysis()
  const records = [good, ...bad, analysis()]
  const error = await engine.ingest(records).then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(IngestError)
  const issues = (error as IngestError).issues
  for (const e of expected) {
    expect(issues).toContainEqual({
      index: e.index + 1,
      field: e.field,
      message: expect.stringMatching(e.message),
    })
  }
  expect(await engine.stats()).toEqual(before)
  return error as IngestError
}

describe('invalid records are refused, naming record and field, and nothing is stored', () => {
  it('unknown type', async () => {
    await expectRefused(
      [{ type: 'widget', id: 'x' }],
      [{ index: 0, field: 'type', message: /unknown type "widget"/ }],
    )
  })

  it('a record that is not an object', async () => {
    await expectRefused([42], [{ index: 0, field: 'record', message: /must be a JSON object/ }])
  })

  it('a missing field', async () => {
    const { text: _text, ...noText } = prompt()
    await expectRefused([noText], [{ index: 0, field: 'text', message: /is required/ }])
  })

  it('an extra field', async () => {
    await expectRefused(
      [{ ...team(), color: 'red' }],
      [{ index: 0, field: 'color', message: /unknown field/ }],
    )
  })

  it('an ill-typed field', async () => {
    await expectRefused(
      [{ ...team(), developer_access: 'yes' }],
      [{ index: 0, field: 'developer_access', message: /must be a boolean/ }],
    )
  })

  it('a bad UUID', async () => {
    await expectRefused(
      [analysis({ id: 'not-a-uuid' })],
      [{ index: 0, field: 'id', message: /must be a UUID/ }],
    )
  })

  it('values out of range: position, sentiment, occurrences, search volume, plan', async () => {
    await expectRefused(
      [
        analysis({ mentions: [{ entity_id: 'brand', position: 0, sentiment: 50 }] }),
        analysis({ mentions: [{ entity_id: 'brand', position: 1, sentiment: 101 }] }),
        analysis({ themes: [{ theme_id: THEME, occurrences: 0 }] }),
        prompt({ estimated_search_volume: -1 }),
        { ...team(), plan: 'gold' },
      ],
      [
        { index: 0, field: 'mentions[0].position', message: /integer >= 1/ },
        { index: 1, field: 'mentions[0].sentiment', message: /0 to 100/ },
        { index: 2, field: 'themes[0].occurrences', message: /integer >= 1/ },
        { index: 3, field: 'estimated_search_volume', message: /integer >= 0/ },
        { index: 4, field: 'plan', message: /one of free, starter, pro, business, enterprise/ },
      ],
    )
  })

  it('a timestamp without Z or offset, and a bad date', async () => {
    await expectRefused(
      [analysis({ answered_at: '2026-11-19T10:00:00' }), theme({ created_at: '2026-02-30' })],
      [
        { index: 0, field: 'answered_at', message: /Z or an offset/ },
        { index: 1, field: 'created_at', message: /YYYY-MM-DD/ },
      ],
    )
  })

  it('an unknown channel', async () => {
    await expectRefused(
      [{ ...analysis(), channel: 'bard' }],
      [{ index: 0, field: 'channel', message: /must be one of chatgpt/ }],
    )
  })

  it('a citation that is not an absolute http(s) URL', async () => {
    await expectRefused(
      [
        analysis({ citations: [{ url: 'ftp://acme.com/x' }] }),
        analysis({ citations: [{ url: '/relative/path' }] }),
        analysis({ citations: [{ url: 'https://' }] }),
      ],
      [
        { index: 0, field: 'citations[0].url', message: /absolute http\(s\) URL/ },
        { index: 1, field: 'citations[0].url', message: /absolute http\(s\) URL/ },
        { index: 2, field: 'citations[0].url', message: /absolute http\(s\) URL/ },
      ],
    )
  })

  it('the same entity_id twice in one analysis (in any case)', async () => {
    await expectRefused(
      [
        analysis({
          mentions: [
            { entity_id: COMPETITOR, position: 1, sentiment: 1 },
            { entity_id: COMPETITOR.toUpperCase(), position: 2, sentiment: 1 },
          ],
        }),
      ],
      [{ index: 0, field: 'mentions[1].entity_id', message: /appears twice/ }],
    )
  })

  it('the same theme_id twice in one analysis', async () => {
    await expectRefused(
      [
        analysis({
          themes: [
            { theme_id: THEME, occurrences: 1 },
            { theme_id: THEME, occurrences: 2 },
          ],
        }),
      ],
      [{ index: 0, field: 'themes[1].theme_id', message: /appears twice/ }],
    )
  })

  it('references to a domain, prompt, competitor or theme that exist neither in the store nor in the call', async () => {
    const ghost = 'deadbeef-0000-4000-8000-000000000000'
    await expectRefused(
      [
        analysis({ domain_id: ghost }),
        analysis({ prompt_id: ghost }),
        analysis({ mentions: [{ entity_id: ghost, position: 1, sentiment: null }] }),
        analysis({ themes: [{ theme_id: ghost, occurrences: 1 }] }),
        domain({ id: OTHER_DOMAIN, team_id: ghost }),
        prompt({ id: OTHER_PROMPT, domain_id: ghost }),
      ],
      [
        {
          index: 0,
          field: 'domain_id',
          message: /domain deadbeef.* exists neither in the store nor in this call/,
        },
        { index: 1, field: 'prompt_id', message: /prompt deadbeef.* exists neither/ },
        { index: 2, field: 'mentions[0].entity_id', message: /competitor deadbeef.* exists neither/ },
        { index: 3, field: 'themes[0].theme_id', message: /theme deadbeef.* exists neither/ },
        { index: 4, field: 'team_id', message: /team deadbeef.* exists neither/ },
        { index: 5, field: 'domain_id', message: /domain deadbeef.* exists neither/ },
      ],
    )
  })

  it('a prompt, competitor or theme of another domain than the analysis', async () => {
    const p2 = '33333333-3333-4333-8333-333333333333'
    const c2 = 'c0000000-0000-4000-8000-00000000000f'
    const t2 = 'e0000000-0000-4000-8000-00000000000f'
    await engine.ingest([
      domain({ id: OTHER_DOMAIN, brand_name: 'Other' }),
      prompt({ id: p2, domain_id: OTHER_DOMAIN }),
      competitor({ id: c2, domain_id: OTHER_DOMAIN }),
      theme({ id: t2, domain_id: OTHER_DOMAIN }),
    ])
    await expectRefused(
      [
        analysis({ prompt_id: p2 }),
        analysis({ mentions: [{ entity_id: c2, position: 1, sentiment: null }] }),
        analysis({ themes: [{ theme_id: t2, occurrences: 1 }] }),
      ],
      [
        {
          index: 0,
          field: 'prompt_id',
          message: /belongs to domain 6c1f7d2b.*not to the analysis's domain 5b0e6c1a/,
        },
        { index: 1, field: 'mentions[0].entity_id', message: /belongs to domain 6c1f7d2b/ },
        { index: 2, field: 'themes[0].theme_id', message: /belongs to domain 6c1f7d2b/ },
      ],
    )
  })

  it('moving a stored prompt to another domain', async () => {
    await engine.ingest([domain({ id: OTHER_DOMAIN })])
    await expectRefused(
      [prompt({ domain_id: OTHER_DOMAIN })],
      [{ index: 0, field: 'domain_id', message: /stored under domain 5b0e6c1a.*cannot change/ }],
    )
  })

  it('moving a stored domain to another team (its history would change hands)', async () => {
    const OTHER_TEAM = '0b9c2f4e-1b7d-4c3a-9e8f-5d6b7a8c9d02'
    await engine.ingest([team({ id: OTHER_TEAM, name: 'Other' })])
    await expectRefused(
      [domain({ team_id: OTHER_TEAM })],
      [{ index: 0, field: 'team_id', message: /stored under team 0a9c2f4e.*cannot change/ }],
    )
    // also when the other team arrives in the same call, and when the id is spelled in upper case
    await expectRefused(
      [
        team({ id: '0c9c2f4e-1b7d-4c3a-9e8f-5d6b7a8c9d03' }),
        domain({ id: DOMAIN.toUpperCase(), team_id: '0c9c2f4e-1b7d-4c3a-9e8f-5d6b7a8c9d03' }),
      ],
      [{ index: 1, field: 'team_id', message: /stored under team 0a9c2f4e.*cannot change/ }],
    )
    expect((await engine.getDomain(DOMAIN))?.team_id).toBe(TEAM)
    // the same team (any case) is an ordinary upsert
    await engine.ingest([domain({ team_id: TEAM.toUpperCase(), brand_name: 'Renamed' })])
    expect(await engine.getDomain(DOMAIN)).toMatchObject({ team_id: TEAM, brand_name: 'Renamed' })
  })

  it('lists up to 100 problems and counts them all', async () => {
    const bad = Array.from({ length: 130 }, () => analysis({ channel: 'bard' as never }))
    const error = await expectRefused(bad, [{ index: 0, field: 'channel', message: /must be one of/ }])
    expect(error.issues).toHaveLength(100)
    expect(error.total).toBe(130)
    expect(error.message).toMatch(/130 invalid records/)
    expect(error.message).toMatch(/and 30 more/)
  })
})

describe('files: errors name the line', () => {
  const dir = mkdtempSync(join(tmpdir(), 'va-ingest-'))
  const write = (name: string, content: string | Buffer) => {
    const p = join(dir, name)
    writeFileSync(p, content)
    return p
  }

  it('a line that is not JSON, and one that is not valid UTF-8, are named by line number', async () => {
    const before = await engine.stats()
    const good = JSON.stringify(analysis())
    const path = write(
      'bad.ndjson',
      Buffer.concat([
        Buffer.from(`${good}\n{"type": "team",\n\n`),
        Buffer.from([0x7b, 0xff, 0xfe, 0x7d, 0x0a]),
        Buffer.from(`${JSON.stringify(analysis({ prompt_id: 'nope' }))}\n`),
      ]),
    )
    const error = (await engine.ingestFile(path).catch((e: unknown) => e)) as IngestError
    expect(error).toBeInstanceOf(IngestError)
    expect(error.issues).toEqual([
      { line: 2, field: 'record', message: expect.stringMatching(/not valid JSON/) },
      { line: 4, field: 'record', message: 'is not valid UTF-8' },
      { line: 5, field: 'prompt_id', message: 'must be a UUID' },
    ])
    expect(await engine.stats()).toEqual(before)
  })

  it('blank lines, CRLF line ends and a missing final newline are fine', async () => {
    const lines = [JSON.stringify(analysis()), '', JSON.stringify(analysis())].join('\r\n')
    const r = await engine.ingestFile(write('ok.ndjson', lines))
    expect(r.analyses).toBe(2)
  })

  it('a missing file is a clear error', async () => {
    await expect(engine.ingestFile(join(dir, 'missing.ndjson'))).rejects.toThrow(
      /cannot read .*missing.ndjson: no such file/,
    )
  })
})

it('a record in the call that comes after its analysis still counts (order does not matter)', async () => {
  const c = 'c0000000-0000-4000-8000-0000000000aa'
  const r = await engine.ingest([
    analysis({ mentions: [{ entity_id: c, position: 1, sentiment: 1 }] }),
    competitor({ id: c, name: 'Late' }),
  ])
  expect(r).toMatchObject({ analyses: 1, competitors: 1, mentions: 1 })
  const payload = await engine.computeCompetitorSeries({
    domainId: DOMAIN,
    days: 7,
    now: '2026-11-20T00:00:00Z',
  })
  expect(payload.data.items.map((i) => i.name)).toEqual(['Acme', 'Late', 'Globex'])
})
