import { describe, expect, it } from 'vitest'
import { countryParam, SEGMENT_PARAMS, tagParam, topicParam } from '../../src/schemas/params.js'

describe('segment filter parameters (docs/API.md "Segment filters")', () => {
  it('country: two letters in any case, normalized upper case, not trimmed', () => {
    expect(countryParam.text.parse('de')).toBe('DE')
    expect(countryParam.value.parse('Br')).toBe('BR')
    for (const bad of [' de', 'deu', 'd', '', 'd1', 'ü1'])
      expect(countryParam.text.safeParse(bad).error?.issues[0]?.message).toBe(
        'country must be two letters A-Z (an ISO 3166-1 alpha-2 country code, any case).',
      )
  })

  it('topic and tag: trimmed, bounded in UTF-16 code units after trimming', () => {
    expect(topicParam.text.parse('  Pricing ')).toBe('Pricing')
    expect(topicParam.text.parse('x'.repeat(100))).toHaveLength(100)
    expect(topicParam.text.safeParse('x'.repeat(101)).success).toBe(false)
    expect(topicParam.text.safeParse('   ').success).toBe(false)
    expect(tagParam.text.parse(` ${'é'.repeat(50)} `)).toHaveLength(50)
    expect(tagParam.text.safeParse('😀'.repeat(26)).error?.issues[0]?.message).toBe(
      'tag must be a text of 1 to 50 characters after trimming.',
    )
  })

  it('are optional, never defaulted, and a repeated one names itself', () => {
    for (const param of Object.values(SEGMENT_PARAMS)) {
      expect(param.text.parse(undefined)).toBeUndefined()
      expect(param.value.parse(undefined)).toBeUndefined()
      expect(param.text.safeParse(['a', 'b']).error?.issues[0]?.message).toMatch(
        new RegExp(`^${param.name} must be given only once`),
      )
    }
  })

  it('keep their echo order: country, topic, tag', () => {
    expect(Object.keys(SEGMENT_PARAMS)).toEqual(['country', 'topic', 'tag'])
  })
})
