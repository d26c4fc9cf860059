/**
 * The ETag of a body is the SHA-1 of its bytes, base64url, weak (src/http/plugins/conventions.ts):
 * the tag a client kept from an earlier release still matches the same body (If-None-Match).
 */
import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { etagOf } from '../../src/http/plugins/conventions.js'

const sha1 = (body: string | Buffer) => `W/"${createHash('sha1').update(body).digest('base64url')}"`

describe('etagOf', () => {
  it('is the weak SHA-1 of the bytes, base64url', () => {
    const bodies = ['', '{"a":1}', '{"text":"ação ✓ 日本 🚀"}', 'x'.repeat(200_000)]
    for (const text of bodies) {
      expect(etagOf(text)).toBe(sha1(text))
      expect(etagOf(Buffer.from(text))).toBe(sha1(text))
    }
  })

  it('a fixed vector', () => {
    expect(etagOf('{"a":1}')).toBe('W/"n4nHQM60bXQYySSnisV5QdXpZSA"')
  })
})
