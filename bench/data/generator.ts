/**
 * Seeded, deterministic generator of benchmark datasets: realistic shapes and distributions, with
 * every record built by the shared test-data builder (test/support/records.ts) and every number
 * drawn from its PRNG (test/support/random.ts).
 *
 * Every domain and every day of it draws from its own random stream (keyed by dataset seed, domain
 * index and day), so a domain's records are identical whether it is generated alone or interleaved
 * with a crowd of other domains, and in any order. Records are yielded one at a time: a dataset is
 * never held in memory as an array.
 */
import { type AnalysisInputRecord, type AnalysisRecord, type Channel } from '../../src/types.js'
import { CHANNELS } from '../../src/foundation/vocabulary.js'
import { Rng, hashInts, uuidFrom } from '../../test/support/random.js'
import { analysis, competitor, domain, prompt, team, theme } from '../../test/support/records.js'

/** The shape of one domain's data. */
export interface DomainShape {
  prompts: number
  competitors: number
  themes: number
  channels: readonly Channel[]
  days: number
  /** `full`: one analysis per prompt per channel per day; a number: that many analyses in all, spread over the days. */
  analyses: 'full' | number
}

export interface DatasetSpec {
  name: string
  seed: number
  /** The last UTC date with data (YYYY-MM-DD); the benchmark's `now` falls on it. */
  endDate: string
  main: DomainShape
  /** Other domains in the same store. */
  crowd?: { domains: number; shape: DomainShape }
}

/** The fixed clock of every query in the benchmark. */
export const BENCH_NOW = '2026-11-20T18:00:00Z'
const END_DATE = '2026-11-20'

export const DATASETS = {
  S: {
    name: 'S',
    seed: 11,
    endDate: END_DATE,
    main: { prompts: 20, competitors: 5, themes: 12, channels: CHANNELS, days: 30, analyses: 'full' },
  },
  L: {
    name: 'L',
    seed: 42,
    endDate: END_DATE,
    main: { prompts: 200, competitors: 20, themes: 50, channels: CHANNELS, days: 365, analyses: 'full' },
  },
  Crowd: {
    name: 'Crowd',
    seed: 42,
    endDate: END_DATE,
    main: { prompts: 200, competitors: 20, themes: 50, channels: CHANNELS, days: 365, analyses: 'full' },
    crowd: {
      domains: 1000,
      shape: { prompts: 10, competitors: 5, themes: 10, channels: CHANNELS, days: 365, analyses: 5000 },
    },
  },
  /** Half L's prompts and days (126,000 analyses): an L-shaped store where repeated L runs take too long. */
  M: {
    name: 'M',
    seed: 42,
    endDate: END_DATE,
    main: { prompts: 100, competitors: 20, themes: 50, channels: CHANNELS, days: 180, analyses: 'full' },
  },
  /** --quick: a small L (for ad-hoc runs) and a small crowd around S. */
  Lq: {
    name: 'Lq',
    seed: 42,
    endDate: END_DATE,
    main: { prompts: 40, competitors: 10, themes: 20, channels: CHANNELS, days: 90, analyses: 'full' },
  },
  Crowdq: {
    name: 'Crowdq',
    seed: 11,
    endDate: END_DATE,
    main: { prompts: 20, competitors: 5, themes: 12, channels: CHANNELS, days: 30, analyses: 'full' },
    crowd: {
      domains: 20,
      shape: { prompts: 10, competitors: 5, themes: 10, channels: CHANNELS, days: 30, analyses: 500 },
    },
  },
} as const satisfies Record<string, DatasetSpec>
export type DatasetName = keyof typeof DATASETS

const MODELS: Record<Channel, readonly string[]> = {
  chatgpt: ['gpt-4o-2024-08-06', 'gpt-4o-mini-2024-07-18', 'gpt-5'],
  perplexity: ['sonar', 'sonar-pro'],
  gemini: ['gemini-2.5-flash', 'gemini-2.5-pro'],
  claude: ['claude-sonnet-4-5', 'claude-haiku-4-5', 'claude-opus-4-1'],
  copilot: ['copilot-gpt-4o', 'copilot-gpt-5'],
  'google-ai-overviews': ['aio-gemini-2.5'],
  'google-ai-mode': ['ai-mode-gemini-2.5-flash', 'ai-mode-gemini-2.5-pro'],
}
/** A raw model id present in every dataset (for model-filter checks). */
export const SAMPLE_RAW_MODEL = 'claude-haiku-4-5'

const COMPETITOR_NAMES = [
  'Globex',
  'Initech',
  'Umbrella',
  'Hooli',
  'Vandelay',
  'Stark Industries',
  'Wayne Enterprises',
  'Wonka',
  'Tyrell',
  'Cyberdyne',
  'Soylent',
  'Aperture',
  'Massive Dynamic',
  'Oscorp',
  'Pied Piper',
  'Dunder Mifflin',
  'Monarch',
  'Nakatomi',
  'Gringotts',
  'Duff',
  'Acme Rival',
  'Bluth',
  'Sterling Cooper',
  'Prestige Worldwide',
]
const THEME_NAMES = [
  'Ease of use',
  'Pricing',
  'Customer support',
  'Integrations',
  'Reporting',
  'Performance',
  'Reliability',
  'Onboarding',
  'Documentation',
  'Mobile app',
  'Security',
  'Scalability',
  'Collaboration',
  'Customization',
  "Facilité d'utilisation",
  'Preisgestaltung',
  'Atención al cliente',
  'Velocità',
  'Interface',
  'API quality',
]
const OTHER_HOSTS = [
  'en.wikipedia.org',
  'www.reddit.com',
  'www.g2.com',
  'medium.com',
  'www.youtube.com',
  'news.ycombinator.com',
  'www.forbes.com',
  'techcrunch.com',
  'www.capterra.com',
  'stackoverflow.com',
  'github.com',
  'www.gartner.com',
]
const TOPICS = ['crm', 'analytics', 'project management', 'email marketing', 'seo', 'help desk', 'accounting']
/**
 * Pages per (host, topic): a cited page's number is drawn log-uniformly from 1 to PAGES - 1 (page k
 * about 1/k as often as page 1), so pages recur across prompts and days as cited pages do.
 */
const PAGES = 120
const PAGE_TYPES = ['article', 'product', 'review', 'docs', 'forum', 'video', 'reference']
/** What a prompt's fan-out queries add to its topic (drawn about 1/k as often as the first). */
const FANOUT_MODIFIERS = [
  'pricing',
  'reviews',
  'alternatives',
  'for small business',
  'free trial',
  'comparison 2026',
  'vs competitors',
  'best for startups',
  'open source',
  'integrations',
  'enterprise',
  'easy to use',
  'with api',
  'for agencies',
  'cheap',
  'top rated',
  'reddit recommendations',
  'pros and cons',
  'features list',
  'migration guide',
  'security compliance',
  'customer support quality',
  'mobile app',
  'templates',
]

/**
 * Segments (docs/API.md, "Ingest: records"): the countries analyses are asked from (weighted, a few
 * with none), the prompts' topics (a few with none) and tags (0-3 per prompt).
 */
const COUNTRIES = ['US', 'GB', 'DE', 'FR', 'BR', 'IN'] as const
const COUNTRY_WEIGHTS = [0.34, 0.16, 0.14, 0.12, 0.12, 0.08] // the rest (4%): no country
const SEGMENT_TOPICS = [
  'Pricing',
  'Alternatives',
  'Integrations',
  'Reviews',
  'Getting started',
  'Enterprise',
  'Security',
  'Comparisons',
]
const TAGS = [
  'branded',
  'non-branded',
  'top-funnel',
  'mid-funnel',
  'bottom-funnel',
  'smb',
  'enterprise',
  'emea',
  'north-america',
  'q4-campaign',
  'competitor',
  'how-to',
]

/** What a dataset's records carry beyond the reports' fields. */
export interface GenerateOptions {
  /** Countries, topics and tags (default true); drawn from streams of their own. */
  segments?: boolean
  /** Answer texts, 1-6 KB each (default false: they make a file several times larger). */
  answers?: boolean
}

const DAY_MS = 86_400_000

function dayNumber(date: string): number {
  return Math.floor(Date.parse(`${date}T00:00:00Z`) / DAY_MS)
}
function isoDate(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10)
}
function pad(n: number, w = 2): string {
  return String(n).padStart(w, '0')
}
function slug(s: string): string {
  return s.toLowerCase().replace(/[^a-z0-9]+/g, '')
}
function clamp(x: number, lo: number, hi: number): number {
  return x < lo ? lo : x > hi ? hi : x
}

/** One domain's generator: entity records up front, analyses day by day. */
export class DomainGenerator {
  readonly domainId: string
  readonly teamId: string
  readonly brandName: string
  readonly website: string | null
  readonly promptIds: string[]
  readonly competitorIds: string[]
  private readonly rngSeed: number
  private readonly firstDay: number
  private readonly promptAffinity: number[]
  private readonly competitorRate: number[]
  private readonly competitorSentiment: number[]
  private readonly brandSentiment: number
  private readonly channelFactor: number[]
  private readonly themeWeights: number[]
  private readonly themeCum: number[]
  private readonly themeIds: string[]
  private readonly brandHosts: string[]
  private readonly otherHosts: string[]
  private readonly lookalikeHosts: string[]

  constructor(
    readonly seed: number,
    readonly index: number,
    readonly shape: DomainShape,
    endDate: string,
  ) {
    this.rngSeed = hashInts(seed, index, 0x5eed)
    const r = new Rng(hashInts(seed, index, 1))
    this.domainId = uuidFrom(seed, index, 1)
    this.teamId = uuidFrom(seed, index, 2)
    this.firstDay = dayNumber(endDate) - shape.days + 1
    const base = index === 0 ? 'Acme Analytics' : `Brand ${pad(index, 4)}`
    this.brandName = base
    const host = `${slug(base)}.com`
    this.website = index !== 0 && r.chance(0.05) ? null : r.chance(0.5) ? `www.${host}` : host
    this.brandHosts = [
      `www.${host}`,
      host,
      `docs.${host}`,
      `blog.${host}`,
      `WWW.${host.toUpperCase()}`,
      `app.eu.${host}`,
    ]
    this.lookalikeHosts = [`${host}.evil-mirror.net`, `not${host}`, `www.${slug(base)}.co`]
    this.promptIds = Array.from({ length: shape.prompts }, (_, i) => uuidFrom(seed, index, 10, i))
    this.competitorIds = Array.from({ length: shape.competitors }, (_, i) => uuidFrom(seed, index, 11, i))
    this.themeIds = Array.from({ length: shape.themes }, (_, i) => uuidFrom(seed, index, 12, i))
    this.promptAffinity = this.promptIds.map(() => 0.3 + 1.4 * r.next())
    this.competitorRate = this.competitorIds.map(() => 0.03 + 0.3 * r.next() ** 2)
    this.competitorSentiment = this.competitorIds.map(() => 30 + 50 * r.next())
    this.brandSentiment = 55 + 30 * r.next()
    this.channelFactor = CHANNELS.map(() => 0.7 + 0.6 * r.next())
    this.themeWeights = this.themeIds.map((_, i) => 1 / (1 + i * 0.35))
    let acc = 0
    this.themeCum = this.themeWeights.map((w) => (acc += w))
    this.otherHosts = [
      ...OTHER_HOSTS,
      ...this.competitorIds.map((_, i) => `www.${slug(this.competitorName(i))}.com`),
    ]
  }

  private competitorName(i: number): string {
    const n = COMPETITOR_NAMES[i % COMPETITOR_NAMES.length] as string
    return i < COMPETITOR_NAMES.length ? n : `${n} ${Math.floor(i / COMPETITOR_NAMES.length) + 1}`
  }

  /** Team, domain, prompts, competitors and themes. */
  *entityRecords(opts: GenerateOptions = {}): Generator<AnalysisInputRecord> {
    const r = new Rng(hashInts(this.seed, this.index, 3))
    // Topics and tags from a stream of their own: no other number of the dataset moves.
    const seg = opts.segments === false ? null : new Rng(hashInts(this.seed, this.index, 0x70b1c))
    yield team({ id: this.teamId, name: `${this.brandName} team`, plan: 'pro', developer_access: true })
    yield domain({
      id: this.domainId,
      team_id: this.teamId,
      brand_name: this.brandName,
      website: this.website,
    })
    for (let i = 0; i < this.promptIds.length; i++) {
      const topic = TOPICS[i % TOPICS.length] as string
      yield prompt({
        id: this.promptIds[i] as string,
        domain_id: this.domainId,
        text: `best ${topic} tool for teams #${i + 1}`,
        estimated_search_volume: r.chance(0.1) ? null : Math.round(10 ** (1 + 3 * r.next())),
        ...(seg === null ? {} : promptSegments(seg)),
      })
    }
    for (let i = 0; i < this.competitorIds.length; i++) {
      const name = this.competitorName(i)
      yield competitor({
        id: this.competitorIds[i] as string,
        domain_id: this.domainId,
        name,
        website: r.chance(0.1) ? null : `www.${slug(name)}.com`,
      })
    }
    for (let i = 0; i < this.themeIds.length; i++) {
      const base = THEME_NAMES[i % THEME_NAMES.length] as string
      yield theme({
        id: this.themeIds[i] as string,
        domain_id: this.domainId,
        name: i < THEME_NAMES.length ? base : `${base} ${Math.floor(i / THEME_NAMES.length) + 1}`,
        custom_name: r.chance(0.1) ? `Custom ${base}` : null,
        archived: r.chance(0.06),
        sentiment: r.chance(0.6) ? 'positive' : 'negative',
        created_at: isoDate(this.firstDay - r.int(1, 120)),
      })
    }
  }

  /** How many analyses day `d` (0-based from the first day) has. */
  analysesOnDay(d: number): number {
    const s = this.shape
    if (s.analyses === 'full') return s.prompts * s.channels.length
    return Math.floor(((d + 1) * s.analyses) / s.days) - Math.floor((d * s.analyses) / s.days)
  }

  /** The analyses of day `d` (0-based from the first day). */
  *analysesOfDay(d: number, opts: GenerateOptions = {}): Generator<AnalysisRecord> {
    const s = this.shape
    const r = new Rng(hashInts(this.rngSeed, d))
    // Countries and answers from streams of their own: no other number of the dataset moves.
    const seg = opts.segments === false ? null : new Rng(hashInts(this.rngSeed, d, 0xc0ded))
    const answers = opts.answers === true ? new AnswerWriter(hashInts(this.rngSeed, d, 0xa45)) : null
    const n = this.analysesOnDay(d)
    const trend = 1 + 0.2 * Math.sin((2 * Math.PI * d) / 90)
    const trend2 = 1 + 0.25 * Math.cos((2 * Math.PI * d) / 120)
    const dayMs = (this.firstDay + d) * DAY_MS
    const extras = new Extras(hashInts(this.rngSeed, d, 0x717e))
    const entities: number[] = []
    for (let k = 0; k < n; k++) {
      let p: number
      let c: number
      if (s.analyses === 'full') {
        p = Math.floor(k / s.channels.length)
        c = k % s.channels.length
      } else {
        p = r.int(0, s.prompts - 1)
        c = r.int(0, s.channels.length - 1)
      }
      const channel = s.channels[c] as Channel
      const chIdx = CHANNELS.indexOf(channel)
      const chf = this.channelFactor[chIdx] as number
      // Mentions: the brand and each competitor with its own probability.
      entities.length = 0
      if (r.chance(clamp(0.5 * (this.promptAffinity[p] as number) * chf * trend, 0, 0.95))) entities.push(-1)
      for (let e = 0; e < this.competitorIds.length; e++) {
        if (r.chance(clamp((this.competitorRate[e] as number) * (2 - chf) * trend2, 0, 0.9))) entities.push(e)
      }
      for (let i = entities.length - 1; i > 0; i--) {
        const j = r.int(0, i)
        const t = entities[i] as number
        entities[i] = entities[j] as number
        entities[j] = t
      }
      const mentions = entities.map((e, rank) => {
        const mean = e < 0 ? this.brandSentiment : (this.competitorSentiment[e] as number)
        return {
          entity_id: e < 0 ? 'brand' : (this.competitorIds[e] as string),
          position: r.chance(0.08) ? null : rank + 1,
          sentiment: r.chance(0.12) ? null : Math.round(clamp(mean + 15 * r.gauss(), 0, 100)),
        }
      })
      // Shuffle the listing order of mentions so it is not the rank order.
      if (mentions.length > 1 && r.chance(0.5)) mentions.reverse()
      const nCit = r.int(0, 6)
      const citations: { url: string; title: string | null; page_type: string | null }[] = []
      for (let i = 0; i < nCit; i++) {
        const u = r.next()
        const lookalike = u >= 0.25 && u < 0.28
        const h =
          u < 0.25
            ? r.pick(this.brandHosts)
            : lookalike
              ? r.pick(this.lookalikeHosts)
              : r.pick(this.otherHosts)
        // The scheme is the host's (look-alikes on http), and ChatGPT tags the links it cites. The
        // two draws that chose them in earlier versions stay, so no other number of the dataset moved.
        r.next()
        r.next()
        const scheme = lookalike ? 'http' : 'https'
        const query = channel === 'chatgpt' ? '?utm_source=chatgpt.com' : ''
        const topic = TOPICS[r.int(0, TOPICS.length - 1)] as string
        const page = Math.floor(PAGES ** ((r.int(1, 9999) - 1) / 9999))
        citations.push({
          url: `${scheme}://${h}/${topic.replace(/ /g, '-')}/${page}${query}`,
          ...extras.page(h, topic, page),
        })
      }
      const nThemes = r.chance(0.12) ? 0 : r.int(1, 3) + (r.chance(0.15) ? 1 : 0)
      const themes: { theme_id: string; occurrences: number }[] = []
      const seen = new Set<number>()
      const total = this.themeCum[this.themeCum.length - 1] ?? 0
      for (let i = 0; i < nThemes && this.themeIds.length > 0; i++) {
        const x = r.next() * total
        let t = 0
        while (t < this.themeCum.length - 1 && (this.themeCum[t] as number) <= x) t++
        if (seen.has(t)) {
          // Redraw once on a duplicate (the spec forbids the same theme twice in one analysis).
          t = r.int(0, this.themeIds.length - 1)
          if (seen.has(t)) continue
        }
        seen.add(t)
        const o = r.next()
        themes.push({ theme_id: this.themeIds[t] as string, occurrences: o < 0.6 ? 1 : o < 0.9 ? 2 : 3 })
      }
      const ms = dayMs + Math.floor(r.next() * DAY_MS)
      const fanout = extras.fanout(TOPICS[p % TOPICS.length] as string)
      const names = answers === null ? null : this.mentionedNames(mentions)
      yield analysis({
        id: uuidFrom(this.seed, this.index, 100 + d, k),
        domain_id: this.domainId,
        prompt_id: this.promptIds[p] as string,
        channel,
        model: r.pick(MODELS[channel]),
        answered_at: formatTimestamp(ms, r),
        mentions,
        citations,
        themes,
        ...(fanout === null ? {} : { fanout_queries: fanout }),
        ...(seg === null ? {} : { country: drawCountry(seg) }),
        ...(names === null ? {} : { response: answers!.write(TOPICS[p % TOPICS.length] as string, names) }),
      })
    }
  }

  /** The names of the mentioned entities, by position (those without one last). */
  private mentionedNames(mentions: { entity_id: string; position: number | null }[]): string[] {
    return [...mentions]
      .sort((a, b) => (a.position ?? Infinity) - (b.position ?? Infinity))
      .map((m) =>
        m.entity_id === 'brand'
          ? this.brandName
          : this.competitorName(this.competitorIds.indexOf(m.entity_id)),
      )
  }
}

/** A prompt's topic (1 in 10 without) and 0-3 distinct tags. */
function promptSegments(r: Rng): { topic: string | null; tags: string[] } {
  const topic = r.chance(0.1) ? null : r.pick(SEGMENT_TOPICS)
  const n = r.int(0, 3)
  const tags = new Set<string>()
  for (let i = 0; i < n; i++) tags.add(r.pick(TAGS))
  return { topic, tags: [...tags] }
}

/** A country by COUNTRY_WEIGHTS, in any case as sources send it (1 in 5 lower case), or null. */
function drawCountry(r: Rng): string | null {
  let u = r.next()
  for (let i = 0; i < COUNTRIES.length; i++) {
    u -= COUNTRY_WEIGHTS[i]!
    if (u < 0) return r.chance(0.2) ? COUNTRIES[i]!.toLowerCase() : COUNTRIES[i]!
  }
  return null
}

/**
 * Answer vocabulary: 3,000 made-up words built from syllables, in a fixed order; drawn about 1/k as
 * often as the first (a Zipf-like law, as words in text), so DuckDB's compression meets text with
 * the repetition of real answers.
 */
const VOCABULARY: readonly string[] = (() => {
  const onsets = [
    'b',
    'c',
    'd',
    'f',
    'g',
    'l',
    'm',
    'n',
    'p',
    'r',
    's',
    't',
    'v',
    'pr',
    'st',
    'tr',
    'ch',
    'pl',
  ]
  const vowels = ['a', 'e', 'i', 'o', 'u', 'ai', 'ea', 'ou']
  const codas = ['', 'n', 'r', 's', 't', 'l', 'nd', 'ng', 'ck', 'st']
  const common = ['the', 'a', 'and', 'to', 'of', 'for', 'is', 'in', 'with', 'that', 'it', 'you', 'can', 'on']
  const words: string[] = [...common]
  const r = new Rng(0x70ca)
  const seen = new Set(words)
  while (words.length < 3000) {
    const syllables = 1 + Math.floor(r.next() * 3)
    let w = ''
    for (let i = 0; i < syllables; i++)
      w += r.pick(onsets) + r.pick(vowels) + (i === syllables - 1 ? r.pick(codas) : '')
    if (!seen.has(w)) {
      seen.add(w)
      words.push(w)
    }
  }
  return words
})()

/** Writes answers: 1-6 KB of sentences on the prompt's topic, naming the mentioned entities in order. */
class AnswerWriter {
  readonly #r: Rng
  constructor(seed: number) {
    this.#r = new Rng(seed)
  }

  #sentence(): string {
    const r = this.#r
    const n = r.int(8, 22)
    let s = ''
    for (let i = 0; i < n; i++) {
      const w = VOCABULARY[Math.floor(VOCABULARY.length ** r.next()) - 1]!
      s += i === 0 ? w[0]!.toUpperCase() + w.slice(1) : ` ${w}`
    }
    return `${s}.`
  }

  write(topic: string, names: readonly string[]): string {
    const r = this.#r
    const target = Math.floor(1024 * 6 ** r.next()) // 1-6 KB, log-uniform
    const parts = [`Here is an overview of ${topic} tools.`]
    let length = parts[0]!.length
    let next = 0
    while (length < target) {
      // Each mentioned entity gets its sentence, spread over the answer in position order.
      const s =
        next < names.length && r.chance(0.35)
          ? `${names[next++]!} ${r.pick(['is a strong option for', 'is often recommended for', 'stands out in', 'is worth a look for'])} ${topic}; ${this.#sentence()}`
          : this.#sentence()
      parts.push(s)
      length += s.length + 1
    }
    for (; next < names.length; next++) parts.push(`${names[next]!} is also mentioned by reviewers.`)
    return parts.join(r.chance(0.3) ? '\n\n' : ' ')
  }
}

/**
 * The record additions of a day (citation titles and page types, fan-out queries), drawn from their
 * own stream so that adding them changed no other number of the datasets.
 */
class Extras {
  readonly #r: Rng
  constructor(seed: number) {
    this.#r = new Rng(seed)
  }

  /** A cited page's title (mostly the page's own, sometimes a revised one or none) and page type. */
  page(host: string, topic: string, page: number): { title: string | null; page_type: string | null } {
    const r = this.#r
    const u = r.next()
    const site = host.toLowerCase().replace(/^www\./, '')
    const title = u < 0.1 ? null : `${topic} guide ${page}${u < 0.15 ? ' (updated)' : ''} | ${site}`
    const page_type = r.chance(0.2)
      ? null
      : (PAGE_TYPES[hashInts(site.length, page) % PAGE_TYPES.length] as string)
    return { title, page_type }
  }

  /** 0-6 fan-out queries on the prompt's topic (a few padded with spaces, some repeated); null: none given. */
  fanout(topic: string): string[] | null {
    const r = this.#r
    if (r.chance(0.05)) return null
    const n = r.int(0, 6)
    const out: string[] = []
    for (let i = 0; i < n; i++) {
      const k = Math.floor(FANOUT_MODIFIERS.length ** r.next()) - 1
      const q = `${topic} ${FANOUT_MODIFIERS[k] as string}`
      out.push(r.chance(0.03) ? ` ${q} ` : q)
    }
    return out
  }
}

/** Mostly `...Z`, some with milliseconds, some with a UTC offset (which can cross local midnight). */
function formatTimestamp(ms: number, r: Rng): string {
  const u = r.next()
  if (u < 0.9) return new Date(ms).toISOString().slice(0, 19) + 'Z'
  if (u < 0.95) return new Date(ms).toISOString()
  const offsetMin = r.pick([120, -300, 330, 60])
  const local = new Date(ms + offsetMin * 60_000).toISOString().slice(0, 19)
  const sign = offsetMin < 0 ? '-' : '+'
  const a = Math.abs(offsetMin)
  return `${local}${sign}${pad(Math.floor(a / 60))}:${pad(a % 60)}`
}

/** The generators of a dataset: index 0 is the main domain, then the crowd. */
export function domainGenerators(spec: DatasetSpec): DomainGenerator[] {
  const gens = [new DomainGenerator(spec.seed, 0, spec.main, spec.endDate)]
  if (spec.crowd) {
    for (let i = 1; i <= spec.crowd.domains; i++)
      gens.push(new DomainGenerator(spec.seed, i, spec.crowd.shape, spec.endDate))
  }
  return gens
}

/** The main domain's id in a dataset. */
export function mainDomainId(spec: DatasetSpec): string {
  return new DomainGenerator(spec.seed, 0, spec.main, spec.endDate).domainId
}

/**
 * All records of a dataset, in arrival order: entities of every domain, then day by day the analyses
 * of every domain (domains interleaved, as a multi-tenant store receives them).
 * `fromDay`/`toDay` (0-based, `toDay` excluded) select a range of days; entities come only with day 0.
 */
export function* datasetRecords(
  spec: DatasetSpec,
  opts: { fromDay?: number; toDay?: number; entities?: boolean } & GenerateOptions = {},
): Generator<AnalysisInputRecord> {
  const gens = domainGenerators(spec)
  const maxDays = Math.max(...gens.map((g) => g.shape.days))
  const from = opts.fromDay ?? 0
  const to = Math.min(opts.toDay ?? maxDays, maxDays)
  if (opts.entities ?? from === 0) for (const g of gens) yield* g.entityRecords(opts)
  for (let d = from; d < to; d++) {
    for (const g of gens) {
      // Domains with fewer days end on the same date as the others.
      const gd = d - (maxDays - g.shape.days)
      if (gd >= 0) yield* g.analysesOfDay(gd, opts)
    }
  }
}

/** Number of days of a dataset (its longest domain). */
export function datasetDays(spec: DatasetSpec): number {
  return Math.max(spec.main.days, spec.crowd?.shape.days ?? 0)
}

/** Counts without generating: analyses per dataset (main domain, whole store). */
export function analysisCount(spec: DatasetSpec): { main: number; total: number } {
  const g = new DomainGenerator(spec.seed, 0, spec.main, spec.endDate)
  let main = 0
  for (let d = 0; d < spec.main.days; d++) main += g.analysesOnDay(d)
  const crowd = spec.crowd
    ? spec.crowd.domains *
      (spec.crowd.shape.analyses === 'full'
        ? spec.crowd.shape.prompts * spec.crowd.shape.channels.length * spec.crowd.shape.days
        : spec.crowd.shape.analyses)
    : 0
  return { main, total: main + crowd }
}
