/**
 * zod schemas of the input records (docs/API.md, "Ingest: records"). Objects are strict: a missing,
 * extra or ill-typed field is an error that names the field.
 */
import { z } from 'zod'
import { CHANNELS, DELETE_ENTITIES, PLANS } from '../foundation/vocabulary.js'

export const UUID_RE = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/

/** A UUID in any case; the engine lower-cases it. */
export const uuidSchema = z.string().regex(UUID_RE, { error: 'must be a UUID' })

/** An integer in [min, max] whose every failure says `error`. */
const intRange = (min: number, max: number, error: string) =>
  z.int({ error }).min(min, { error }).max(max, { error })

const text = z.string().min(1, { error: 'must be a non-empty string' })
const nullableText = z.union([z.string(), z.null()], { error: 'must be a string or null' })

/**
 * The instant of an ISO 8601 timestamp that passed its schema, in ms since the epoch, digits finer
 * than the millisecond truncated (not rounded).
 * @example
 * timestampMs('2026-05-04T06:15:02.1189-03:00') // Date.parse('2026-05-04T09:15:02.118Z')
 */
export function timestampMs(ts: string): number {
  return Date.parse(ts.replace(/(\.\d{3})\d+/, '$1'))
}

/**
 * A record's optional timestamp as stored and returned (docs/API.md, "Ingest: records"): ISO 8601 UTC with
 * milliseconds (`2026-05-04T09:15:02.118Z`); null when absent or null.
 */
export function storedTimestamp(ts: string | null | undefined): string | null {
  return ts == null ? null : new Date(timestampMs(ts)).toISOString()
}

const CREATED_AT_ERROR = 'must be an ISO 8601 timestamp with Z or an offset, or null'
/** The first and last instants whose UTC year has four digits (a stored timestamp reads back as one). */
const FIRST_MS = Date.parse('0000-01-01T00:00:00.000Z')
const LAST_MS = Date.parse('9999-12-31T23:59:59.999Z')

/** `created_at` of a domain or prompt: optional, null, or a timestamp with Z or an offset. */
const createdAtSchema = z.iso
  .datetime({ offset: true, error: CREATED_AT_ERROR })
  .refine(
    (ts) => {
      const ms = timestampMs(ts)
      return Number.isNaN(ms) || (ms >= FIRST_MS && ms <= LAST_MS) // NaN: the format check says why
    },
    { error: 'must fall in the years 0000 to 9999 once in UTC' },
  )
  .nullable()
  .optional()

/** An absolute http(s) URL: a scheme, `://`, and a non-empty host, no whitespace. */
export const URL_RE =
  /^https?:\/\/(?:[^\s/?#@]*@)?(\[[0-9a-fA-F:.]+\]|[^\s/?#:@[\]]+)(?::\d{1,5})?(?:[/?#]\S*)?$/i

export const teamSchema = z.strictObject({
  type: z.literal('team'),
  id: uuidSchema,
  name: text,
  plan: z.enum(PLANS, { error: `must be one of ${PLANS.join(', ')}` }),
  developer_access: z.boolean({ error: 'must be a boolean' }),
})

export const domainSchema = z.strictObject({
  type: z.literal('domain'),
  id: uuidSchema,
  team_id: uuidSchema,
  brand_name: text,
  website: nullableText,
  created_at: createdAtSchema,
})

/** Prompt topics: 1-100 UTF-16 code units once trimmed (docs/API.md, "Ingest: records"). */
export const TOPIC_MAX = 100
/** Prompt tags: at most 20, each 1-50 UTF-16 code units once trimmed. */
export const TAGS_MAX = 20
export const TAG_MAX = 50
/** An analysis's answer text: 0-200,000 UTF-16 code units. */
export const RESPONSE_MAX = 200_000
/** A country: two ASCII letters (ISO 3166-1 alpha-2), any case; stored upper case. */
export const COUNTRY_RE = /^[A-Za-z]{2}$/

/**
 * At most `max` UTF-16 code units (JavaScript `length`): zod's own `max` on strings counts code
 * points, so a character outside the BMP would count once where the bound counts it twice.
 */
const codeUnitsAtMost = (max: number) => (s: string) => s.length <= max

const topicError = `must be a string of 1 to ${TOPIC_MAX} characters once trimmed, or null`
const topicSchema = z
  .union(
    [
      z
        .string()
        .trim()
        .min(1, { error: topicError })
        .refine(codeUnitsAtMost(TOPIC_MAX), { error: topicError }),
      z.null(),
    ],
    { error: topicError },
  )
  .optional()
const tagError = `must be a string of 1 to ${TAG_MAX} characters once trimmed`
const tagsSchema = z
  .array(
    z
      .string({ error: tagError })
      .trim()
      .min(1, { error: tagError })
      .refine(codeUnitsAtMost(TAG_MAX), { error: tagError }),
    { error: 'must be an array of strings' },
  )
  .max(TAGS_MAX, { error: `must hold at most ${TAGS_MAX} tags` })
  .optional()

/**
 * A prompt's tags as stored: trimmed, exact duplicates removed, sorted by UTF-16 code units
 * (docs/API.md, "Ingest: records").
 */
export function normalizeTags(tags: readonly string[] | undefined): string[] {
  if (tags === undefined || tags.length === 0) return []
  return [...new Set(tags.map((t) => t.trim()))].sort()
}

/** A prompt's topic as stored: trimmed, or null. */
export const normalizeTopic = (topic: string | null | undefined): string | null =>
  topic == null ? null : topic.trim()

export const promptSchema = z.strictObject({
  type: z.literal('prompt'),
  id: uuidSchema,
  domain_id: uuidSchema,
  text,
  estimated_search_volume: z.union(
    [intRange(0, Number.MAX_SAFE_INTEGER, 'must be an integer >= 0 or null'), z.null()],
    {
      error: 'must be an integer >= 0 or null',
    },
  ),
  created_at: createdAtSchema,
  topic: topicSchema,
  tags: tagsSchema,
})

export const competitorSchema = z.strictObject({
  type: z.literal('competitor'),
  id: uuidSchema,
  domain_id: uuidSchema,
  name: text,
  website: nullableText,
})

export const themeSchema = z.strictObject({
  type: z.literal('theme'),
  id: uuidSchema,
  domain_id: uuidSchema,
  name: text,
  custom_name: nullableText,
  archived: z.boolean({ error: 'must be a boolean' }),
  sentiment: z.enum(['positive', 'negative'], { error: 'must be positive or negative' }),
  created_at: z.iso.date({ error: 'must be a date YYYY-MM-DD' }),
})

const mentionSchema = z.strictObject({
  entity_id: z.union([z.literal('brand'), uuidSchema], { error: 'must be "brand" or a competitor UUID' }),
  position: intRange(1, 2_147_483_647, 'must be an integer >= 1 or null').nullable(),
  sentiment: z
    .number({ error: 'must be a number from 0 to 100 or null' })
    .min(0, { error: 'must be a number from 0 to 100 or null' })
    .max(100, { error: 'must be a number from 0 to 100 or null' })
    .nullable(),
})

/** A string of 1 to `max` characters (UTF-16 code units), or null. */
const boundedTextOrNull = (max: number) => {
  const error = `must be a string of 1 to ${max} characters, or null`
  return z.union([z.string().min(1, { error }).max(max, { error }), z.null()], { error })
}

/** Citation titles: 1-1000 characters; page types: 1-100 (docs/API.md, "Ingest: records"). */
export const TITLE_MAX = 1000
export const PAGE_TYPE_MAX = 100

const citationSchema = z.strictObject({
  url: z
    .string({ error: 'must be an absolute http(s) URL' })
    .max(8192, { error: 'must be an absolute http(s) URL of at most 8192 characters' })
    .regex(URL_RE, { error: 'must be an absolute http(s) URL' }),
  title: boundedTextOrNull(TITLE_MAX).optional(),
  page_type: boundedTextOrNull(PAGE_TYPE_MAX).optional(),
})

/** Fan-out queries of one analysis: at most 100, each 1-500 UTF-16 code units once trimmed. */
export const FANOUT_MAX_QUERIES = 100
export const FANOUT_QUERY_MAX = 500
const fanoutQueryError = `must be a string of 1 to ${FANOUT_QUERY_MAX} characters once trimmed`
const fanoutQueriesSchema = z
  .array(
    z
      .string({ error: fanoutQueryError })
      .trim()
      .min(1, { error: fanoutQueryError })
      .max(FANOUT_QUERY_MAX, { error: fanoutQueryError }),
    { error: 'must be an array of strings' },
  )
  .max(FANOUT_MAX_QUERIES, { error: `must hold at most ${FANOUT_MAX_QUERIES} queries` })

const themeOccurrenceSchema = z.strictObject({
  theme_id: uuidSchema,
  occurrences: intRange(1, 2_147_483_647, 'must be an integer >= 1'),
})

/** Raw model identifiers: 1-100 characters from [A-Za-z0-9._:/@+-]. */
export const MODEL_ID_RE = /^[A-Za-z0-9._:/@+-]{1,100}$/

const answeredAtSchema = z.iso.datetime({
  offset: true,
  error: 'must be an ISO 8601 timestamp with Z or an offset',
})

const COUNTRY_ERROR = 'must be two letters A-Z or a-z (an ISO 3166-1 alpha-2 code), or null'
const RESPONSE_ERROR = `must be a string of at most ${RESPONSE_MAX} characters, or null`

export const analysisSchema = z.strictObject({
  type: z.literal('analysis'),
  id: uuidSchema,
  domain_id: uuidSchema,
  prompt_id: uuidSchema,
  channel: z.enum(CHANNELS, { error: `must be one of ${CHANNELS.join(', ')}` }),
  model: z.string().regex(MODEL_ID_RE, { error: 'must be 1-100 characters from [A-Za-z0-9._:/@+-]' }),
  answered_at: answeredAtSchema,
  mentions: z.array(mentionSchema, { error: 'must be an array' }),
  citations: z.array(citationSchema, { error: 'must be an array' }),
  themes: z.array(themeOccurrenceSchema, { error: 'must be an array' }),
  fanout_queries: fanoutQueriesSchema.optional(),
  country: z
    .union([z.string().regex(COUNTRY_RE, { error: COUNTRY_ERROR }), z.null()], { error: COUNTRY_ERROR })
    .optional(),
  response: z
    .union([z.string().refine(codeUnitsAtMost(RESPONSE_MAX), { error: RESPONSE_ERROR }), z.null()], {
      error: RESPONSE_ERROR,
    })
    .optional(),
})

/** The pattern zod checks `answered_at` against (so a fast path can check the very same thing). */
export const ANSWERED_AT_RE: RegExp | undefined = (answeredAtSchema.def as { pattern?: RegExp }).pattern

export const recordSchemas = {
  team: teamSchema,
  domain: domainSchema,
  prompt: promptSchema,
  competitor: competitorSchema,
  theme: themeSchema,
  analysis: analysisSchema,
  delete: z.strictObject({
    type: z.literal('delete'),
    entity: z.enum(DELETE_ENTITIES, { error: `must be one of ${DELETE_ENTITIES.join(', ')}` }),
    id: uuidSchema,
  }),
} as const
export type RecordType = keyof typeof recordSchemas

/** A plain ASCII domain name (last label starts with a letter, so it is never read as an IPv4 number). */
const PLAIN_HOST_RE = /^https?:\/\/((?:[A-Za-z0-9-]+\.)*[A-Za-z][A-Za-z0-9-]*\.?)(?::\d{1,5})?(?:[/?#]|$)/i

/**
 * The lower-cased host of an absolute http(s) URL already checked by the schema, as the WHATWG URL
 * standard reads it (browsers, Node's URL): a backslash ends the host, user info is dropped,
 * percent-escapes and IDNs are decoded. Plain ASCII hosts take a fast path; anything else goes
 * through `new URL`, and a URL it cannot parse has no host (it then matches no site).
 */
export function urlHost(url: string): string {
  const m = PLAIN_HOST_RE.exec(url)
  if (m !== null) return m[1]!.toLowerCase()
  try {
    return new URL(url).hostname.toLowerCase()
  } catch {
    return ''
  }
}

/**
 * The host a website or URL names, lower-cased, with a trailing dot and a leading `www.` removed:
 * the form in which citation hosts are compared. null for null or empty input.
 */
export function siteHost(website: string | null): string | null {
  if (website === null) return null
  let s = website.trim().toLowerCase()
  const scheme = s.indexOf('://')
  if (scheme >= 0) s = s.slice(scheme + 3)
  s = s.replace(/[/?#].*$/, '')
  s = s.replace(/^[^@]*@/, '')
  s = s.replace(/:\d*$/, '')
  return matchHost(s) || null
}

/**
 * A cited URL's identity (docs/API.md, "Citations, fan-out and sentiment over time"): its WHATWG URL serialization without the
 * fragment, so `https://Acme.com:443/a#x` and `https://acme.com/a` are one URL. A URL the WHATWG
 * parser refuses (a port above 65535, a bad escape in the host) is its own identity, as written.
 */
export function citedUrl(url: string): string {
  let href: string
  try {
    href = new URL(url).href
  } catch {
    return url
  }
  const hash = href.indexOf('#')
  return hash < 0 ? href : href.slice(0, hash)
}

/**
 * Whether a host (compared form) is the site or a subdomain of it (docs/API.md, "GET /api/v1/prompt-statistics-time-series",
 * docs/API.md, "Citations, fan-out and sentiment over time"); never when there is no site.
 */
export function isSiteOrSubdomain(host: string, site: string | null): boolean {
  return (
    site !== null &&
    (host === site ||
      (host.length > site.length + 1 && host.endsWith(site) && host[host.length - site.length - 1] === '.'))
  )
}

/** A host in the compared form: lower case, no trailing dot, no leading `www.`. */
export function matchHost(host: string): string {
  let h = host.toLowerCase()
  if (h.endsWith('.')) h = h.slice(0, -1)
  if (h.startsWith('www.')) h = h.slice(4)
  return h
}
