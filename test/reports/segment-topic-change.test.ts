/**
 * A report with a topic or tag filter after a call that changes a prompt's topic or tags (and no
 * analysis): the segment's kept rows do not outlive the change (docs/API.md, "Segment filters").
 * Found by the engine-vs-reference property test (cited domains, topic filter, a second call that
 * only edits a prompt).
 */
import { describe, expect, it } from 'vitest'
import { openEngine } from '../../src/index.js'
import { DOMAIN, NOW, PROMPT, analysis, base, prompt } from '../support/records.js'

describe('segment filters after a prompt changes topic or tags', () => {
  it('a kept segment is read again when a call writes a prompt of its domain', async () => {
    const engine = await openEngine()
    try {
      await engine.ingest([
        ...base(),
        prompt({ topic: 'Support', tags: ['a'] } as never),
        analysis({ citations: [{ url: 'https://globex.com/x' }] }),
      ])
      const p = { domainId: DOMAIN, days: 7, now: NOW }
      const counts = async (filter: object) => [
        (await engine.computeCitedDomains({ ...p, ...filter } as never)).data.total,
        (await engine.computePromptSeries({ ...p, ...filter } as never)).data.items.length,
      ]
      for (const filter of [{ topic: 'Pricing' }, { tag: 'b' }]) expect(await counts(filter)).toEqual([0, 0])
      expect(await counts({ topic: 'Support' })).toEqual([1, 1])
      await engine.ingest([prompt({ id: PROMPT, topic: 'Pricing', tags: ['b'] } as never)])
      for (const filter of [{ topic: 'Pricing' }, { tag: 'b' }]) expect(await counts(filter)).toEqual([1, 1])
      for (const filter of [{ topic: 'Support' }, { tag: 'a' }]) expect(await counts(filter)).toEqual([0, 0])
    } finally {
      await engine.close()
    }
  })
})
