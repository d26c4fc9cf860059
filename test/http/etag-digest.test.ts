/**
 * The ETag's digest is the same across releases: the SHA-1 of the identity body, base64url, as a
 * weak tag. A client keeps the tags it was sent; a digest computed another way (another hash, the
 * text hashed in another encoding) would turn each of its stored tags into a full answer after an
 * upgrade. `etagOf` hashes in one shot (src/http/plugins/conventions.ts); this pins its output to
 * the streaming hash it replaced, for bytes and for text with non-ASCII characters.
 */
import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { etagOf } from '../../src/http/plugins/conventions.js'

const streamed = (body: string | Buffer) => `W/"${createHash('sha1').update(body).digest('base64url')}"`

describe('etagOf', () => {
  const texts = ['', '{}', '{"a":1}', '{"name":"ação — 日本 🚀","n":[1,2.5,null]}', 'x'.repeat(200_000)]
  it('is the weak SHA-1 tag of the body, base64url, for bytes and for text', () => {
    for (const text of texts) {
      expect(etagOf(Buffer.from(text))).toBe(streamed(Buffer.from(text)))
      expect(etagOf(text)).toBe(streamed(text))
      expect(etagOf(text)).toBe(etagOf(Buffer.from(text)))
    }
    expect(etagOf('{"a":1}')).toBe('W/"n4nHQM60bXQYySSnisV5QdXpZSA"')
  })
})
