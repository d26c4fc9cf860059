/**
 * @module The seeded demo dataset: the teams and brands of src/demo/catalog.ts with their prompts,
 * competitors and themes, and the analyses of every prompt on every channel for `days` UTC dates
 * up to today (answered no later than `now`). Deterministic: an analysis is drawn from a stream
 * keyed by (brand, UTC date, prompt, channel), so the same date always gives the same records and
 * the same ids, whenever the dataset is generated (re-seeding a store upserts them in place).
 *
 * The numbers move like real tracking data: each brand and competitor has a base share of answers
 * that drifts over the year, prompts and channels favour some names more than others, positions
 * follow prominence, sentiment scatters around each name's mean, answers cite the brand's own
 * pages (`www.`, `blog.` and `help.` hosts), competitors' sites (`www.` and `shop.` hosts) and
 * third-party sources, and themes lean positive or negative with the answer's sentiment.
 *
 * The record additions of the extensions (fan-out queries, citation titles and page types,
 * `created_at` of domains and prompts) are emitted unless `additions: false` (the default is
 * {@link DEMO_RECORD_ADDITIONS}).
 */
import { CHANNELS } from '../foundation/vocabulary.js'
import type { AnalysisInputRecord, Channel, Clock, Plan } from '../types.js'
import { DEMO_TEAMS, type DemoBrand, type DemoSource } from './catalog.js'
import { hashInts, Rng, uuidFrom } from './random.js'
import { analysis, competitor, domain, mention, prompt, team, theme } from './records.js'

/**
 * Whether the demo emits the record additions (fan-out queries, citation titles and page types,
 * `created_at` of domains and prompts, countries, answer texts, prompt topics and tags) by default: on, since the ingest takes them (a test keeps
 * the flag equal to what the ingest accepts).
 */
export const DEMO_RECORD_ADDITIONS = true

/** Days of analyses the demo holds by default, today included. */
export const DEMO_DAYS = 120

const DAY_MS = 86_400_000
const SEED = 0x5eed
const KIND = { team: 0xd01, domain: 0xd02, prompt: 0xd03, competitor: 0xd04, theme: 0xd05, analysis: 0xd06 }

/** How often a prompt is run on a channel on a given day, and how the channel leans to the brand. */
const CHANNEL_PROFILE: Record<Channel, { coverage: number; bias: number; sentiment: number }> = {
  chatgpt: { coverage: 0.95, bias: 0.04, sentiment: 2 },
  perplexity: { coverage: 0.9, bias: 0.08, sentiment: 0 },
  gemini: { coverage: 0.75, bias: -0.03, sentiment: 1 },
  claude: { coverage: 0.6, bias: -0.06, sentiment: 4 },
  copilot: { coverage: 0.5, bias: 0, sentiment: -2 },
  'google-ai-overviews': { coverage: 0.55, bias: 0.02, sentiment: -1 },
  'google-ai-mode': { coverage: 0.45, bias: 0.05, sentiment: 0 },
}

/** The raw model ids each channel answers with, and their shares. */
const MODELS: Record<Channel, Array<[string, number]>> = {
  chatgpt: [
    ['gpt-5', 0.5],
    ['gpt-4o', 0.35],
    ['gpt-4o-mini', 0.15],
  ],
  perplexity: [
    ['sonar', 0.6],
    ['sonar-pro', 0.4],
  ],
  gemini: [
    ['gemini-2.5-flash', 0.65],
    ['gemini-2.5-pro', 0.35],
  ],
  claude: [
    ['claude-sonnet-4', 0.7],
    ['claude-opus-4', 0.3],
  ],
  copilot: [
    ['gpt-5', 0.6],
    ['gpt-4o', 0.4],
  ],
  'google-ai-overviews': [['gemini-2.5-flash', 1]],
  'google-ai-mode': [['gemini-2.5-pro', 1]],
}

/** Channels whose answers come with the searches they ran (fan-out queries). */
const FANOUT_CHANNELS: ReadonlySet<Channel> = new Set([
  'chatgpt',
  'perplexity',
  'gemini',
  'google-ai-mode',
  'copilot',
])

export interface DemoOptions {
  /** The clock: the data ends on its UTC date and no analysis is later than it (default: now). */
  now?: Clock
  /** UTC dates of analyses, today included (default {@link DEMO_DAYS}). */
  days?: number
  /** Emit the record additions (default {@link DEMO_RECORD_ADDITIONS}). */
  additions?: boolean
}

/** A tracked domain of the demo. */
export interface DemoDomain {
  id: string
  brand: string
  teamId: string
  teamName: string
  plan: Plan
}

export interface DemoDataset {
  /** Teams, domains, prompts, competitors, themes, then the analyses by date. */
  records: AnalysisInputRecord[]
  domains: DemoDomain[]
  /** Team ids, in catalog order. */
  teamIds: string[]
  /** The first UTC date with analyses and the last (today), `YYYY-MM-DD`. */
  from: string
  to: string
}

/** A demo id: distinct for distinct (kind, a, b), random-looking (no run of zeros). */
const demoId = (kind: number, a: number, b = 0): string => {
  const key = 0x1000 + (kind & 0xf) * 16_384 + a * 256 + b // a < 64, b < 256
  return uuidFrom(kind, key, 0, key)
}

/** The id of the `n`th team of the demo, in catalog order. */
export const demoTeamId = (n: number): string => demoId(KIND.team, n)
/** The id of the `n`th domain of the demo, in catalog order (0: the domain the demo points to). */
export const demoDomainId = (n: number): string => demoId(KIND.domain, n)

const isoDate = (day: number): string => new Date(day * DAY_MS).toISOString().slice(0, 10)
const clamp = (x: number, lo: number, hi: number): number => Math.min(hi, Math.max(lo, x))
const slug = (text: string): string =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
const titleCase = (text: string): string => text.replace(/\b[a-z]/g, (c) => c.toUpperCase())
const bareHost = (host: string): string => host.replace(/^www\./, '')
const siteHost = (website: string): string =>
  bareHost(website.replace(/^https?:\/\//, '').replace(/\/.*$/, ''))

/** A slow yearly wave in [-1, 1], keyed by the UTC date only (so a date always draws the same). */
const wave = (day: number, phase: number): number => Math.sin((2 * Math.PI * (day + phase)) / 365)

function pickWeighted<T>(r: Rng, items: readonly T[], weight: (item: T) => number): T {
  const total = items.reduce((sum, item) => sum + weight(item), 0)
  let x = r.next() * total
  for (const item of items) {
    x -= weight(item)
    if (x < 0) return item
  }
  return items[items.length - 1]!
}

/** A cited page: its URL and, with the additions, its title and page type. */
interface Page {
  url: string
  title: string | null
  pageType: string
}

/** The pages answers to one prompt may cite. */
interface PromptPages {
  own: Page[]
  competitor: Map<number, Page[]>
  thirdParty: Array<{ source: DemoSource; pages: Page[] }>
}

function promptPages(b: DemoBrand, text: string): PromptPages {
  const s = slug(text)
  const topic = titleCase(text)
  const own = bareHost(b.host)
  const competitorPages = new Map<number, Page[]>()
  b.competitors.forEach((c, i) => {
    if (c.website === null) return
    const host = siteHost(c.website)
    competitorPages.set(i, [
      { url: `https://www.${host}/${s}`, title: `${topic} | ${c.name}`, pageType: 'category' },
      { url: `https://shop.${host}/p/${s}-${i + 1}`, title: `${c.name} ${topic}`, pageType: 'product' },
    ])
  })
  return {
    own: [
      { url: `https://${b.host}/c/${s}`, title: `${topic} | ${b.brand}`, pageType: 'category' },
      { url: `https://blog.${own}/guides/${s}`, title: `${topic}: our guide`, pageType: 'article' },
      {
        url: `https://help.${own}/returns-and-exchanges`,
        title: `Returns and exchanges | ${b.brand}`,
        pageType: 'faq',
      },
    ],
    competitor: competitorPages,
    thirdParty: b.sources.map((source) => ({
      source,
      pages: [0, 1, 2].map((n) => ({
        url: `https://${source.host}${source.path(s, n + slug(text).length)}`,
        title: source.title(topic),
        pageType: source.pageType,
      })),
    })),
  }
}

interface BrandPlan {
  brand: DemoBrand
  index: number
  domainId: string
  promptIds: string[]
  competitorIds: string[]
  themeIds: string[]
  pages: PromptPages[]
}

/** The fan-out searches an answer engine may run for a prompt. */
function fanoutQueries(b: DemoBrand, text: string, year: number): string[] {
  const rival = b.competitors[0]?.name ?? b.brand
  return [
    `${text} ${year}`,
    `${text} reviews`,
    `${text} reddit`,
    `${text.replace(/^(best|how to) /, '')} comparison`,
    `${b.brand} vs ${rival}`,
    `is ${b.brand.toLowerCase()} worth it`,
  ]
}

/** Countries answers are asked from, with their weights (the rest: none given). */
const COUNTRIES: ReadonlyArray<[code: string, weight: number]> = [
  ['US', 0.4],
  ['GB', 0.15],
  ['DE', 0.12],
  ['FR', 0.1],
  ['BR', 0.1],
  ['IN', 0.08],
]
const TAGS = [
  'branded',
  'non-branded',
  'top-funnel',
  'bottom-funnel',
  'smb',
  'enterprise',
  'how-to',
  'q4-campaign',
]

/** A prompt's topic, read from its text (one in five has none), and 0-2 tags. */
function promptSegments(
  text: string,
  brandIndex: number,
  promptIndex: number,
): { topic: string | null; tags: string[] } {
  const topic =
    promptIndex % 5 === 4
      ? null
      : /\bvs\b|versus|compare|comparison/i.test(text)
        ? 'Comparisons'
        : /price|pricing|cheap|cost|free|budget/i.test(text)
          ? 'Pricing'
          : /alternative/i.test(text)
            ? 'Alternatives'
            : /how|setup|set up|guide/i.test(text)
              ? 'How-to'
              : 'Recommendations'
  const r = new Rng(hashInts(SEED, brandIndex, promptIndex, 0x7a65))
  const tags = new Set<string>()
  for (let k = r.int(0, 2); k > 0; k--) tags.add(r.pick(TAGS))
  return { topic, tags: [...tags] }
}

/** An answer's text: the prompt answered by naming the mentioned entities in their order. */
function answerText(r: Rng, question: string, names: readonly string[]): string {
  const opener = r.pick([
    `Here are the options most often recommended for "${question}":`,
    `Short answer: it depends on your needs. For "${question}", these stand out:`,
    `Looking at reviews and documentation for "${question}", the main choices are:`,
  ])
  const reasons = [
    'strong reviews from long-time users',
    'good value for the price',
    'the widest range of options',
    'helpful customer service',
    'reliable quality',
    'being easy to get started with',
  ]
  const lines = names.map((n, i) => `${i + 1}. ${n}: known for ${r.pick(reasons)}.`)
  const closer =
    names.length === 0
      ? 'No single product fits every case; compare a few trials against your own requirements.'
      : r.pick([
          'Try two of them on a real project before deciding.',
          'Prices change often, so check the sellers’ sites for current details.',
          'Which one fits best depends on how and how often you will use it.',
        ])
  return [opener, ...lines, closer].join('\n\n')
}

/** One analysis of a prompt on a channel on a UTC date, or null when it was not run that day. */
function drawAnalysis(
  plan: BrandPlan,
  promptIndex: number,
  channelIndex: number,
  day: number,
  latestMs: number,
  additions: boolean,
): AnalysisInputRecord | null {
  const b = plan.brand
  const channel = CHANNELS[channelIndex]!
  const profile = CHANNEL_PROFILE[channel]
  const r = new Rng(hashInts(SEED, plan.index, day, promptIndex, channelIndex))
  if (!r.chance(profile.coverage)) return null

  // Prompt affinities are fixed per (brand, prompt, entity); the wave and noise move per day.
  const affinity = (entity: number) =>
    new Rng(hashInts(SEED, plan.index, promptIndex, entity + 1)).next() * 0.3 - 0.15
  const mentioned: Array<{ id: string; score: number; sentiment: number }> = []
  const brandP = clamp(
    b.strength + profile.bias + affinity(-1) + b.drift * wave(day, plan.index * 47),
    0.02,
    0.95,
  )
  if (r.chance(brandP))
    mentioned.push({ id: 'brand', score: brandP + r.next() * 0.5, sentiment: b.sentiment })
  b.competitors.forEach((c, i) => {
    const p = clamp(c.strength + affinity(i) + c.drift * wave(day, plan.index * 47 + i * 29), 0.02, 0.95)
    if (r.chance(p))
      mentioned.push({ id: plan.competitorIds[i]!, score: p + r.next() * 0.5, sentiment: c.sentiment })
  })
  mentioned.sort((x, y) => y.score - x.score)
  const mentions = mentioned.map((m, rank) =>
    mention(
      m.id,
      r.chance(0.03) ? null : rank + 1,
      r.chance(0.05) ? null : Math.round(clamp(m.sentiment + profile.sentiment + r.gauss() * 9, 0, 100)),
    ),
  )

  const pages = plan.pages[promptIndex]!
  const brandMentioned = mentioned.some((m) => m.id === 'brand')
  const citedCompetitors = [...pages.competitor.keys()].filter((i) =>
    mentioned.some((m) => m.id === plan.competitorIds[i]),
  )
  const citations: Array<Record<string, unknown> & { url: string }> = []
  const count = pickWeighted(r, [0, 1, 2, 3, 4, 5, 6], (n) => [1, 3, 5, 5, 4, 2, 1][n]!)
  for (let k = 0; k < count; k++) {
    const kind = pickWeighted(r, ['own', 'competitor', 'third'] as const, (x) =>
      x === 'own' ? 1 + (brandMentioned ? 3 : 0) : x === 'competitor' ? 1.5 * citedCompetitors.length : 4,
    )
    const page =
      kind === 'own'
        ? r.pick(pages.own)
        : kind === 'competitor'
          ? r.pick(pages.competitor.get(r.pick(citedCompetitors))!)
          : r.pick(pickWeighted(r, pages.thirdParty, (t) => t.source.weight).pages)
    const entry = additions
      ? { url: page.url, title: page.title, page_type: page.pageType }
      : { url: page.url }
    citations.push(entry)
    if (r.chance(0.03)) citations.push({ ...entry }) // the same page cited twice in one answer
  }

  const themes: Array<{ theme_id: string; occurrences: number }> = []
  if (brandMentioned && r.chance(0.75)) {
    const tone = clamp(
      (mentions.find((m) => m.entity_id === 'brand')?.sentiment ?? b.sentiment) / 50,
      0.2,
      1.8,
    )
    const pool = b.themes.map((t, i) => ({ t, i }))
    for (let k = r.int(1, Math.min(3, pool.length)); k > 0; k--) {
      const picked = pickWeighted(
        r,
        pool,
        ({ t }) => t.weight * (t.sentiment === 'positive' ? tone : 2 - tone),
      )
      pool.splice(pool.indexOf(picked), 1)
      themes.push({ theme_id: plan.themeIds[picked.i]!, occurrences: r.int(1, 4) })
    }
  }

  const [model] = pickWeighted(r, MODELS[channel], ([, share]) => share)
  const dayStart = day * DAY_MS
  const answeredMs = dayStart + Math.floor(r.next() * Math.min(DAY_MS, latestMs - dayStart + 1))
  const record = analysis({
    id: uuidFrom(KIND.analysis, day, plan.index, promptIndex * 8 + channelIndex),
    domain_id: plan.domainId,
    prompt_id: plan.promptIds[promptIndex]!,
    channel,
    model,
    answered_at: new Date(answeredMs).toISOString(),
    mentions,
    citations,
    themes,
  })
  if (!additions) return record
  const searches = FANOUT_CHANNELS.has(channel)
    ? fanoutQueries(b, b.prompts[promptIndex]![0], new Date(dayStart).getUTCFullYear()).filter(() =>
        r.chance(0.35),
      )
    : []
  // Country and answer from a stream of their own: the numbers above do not move.
  const s = new Rng(hashInts(SEED, plan.index, day, promptIndex, channelIndex, 0xa45))
  let u = s.next()
  const country = COUNTRIES.find(([, w]) => (u -= w) < 0)?.[0] ?? null
  const names = mentioned.map((m) =>
    m.id === 'brand' ? b.brand : b.competitors[plan.competitorIds.indexOf(m.id)]!.name,
  )
  const response = answerText(s, b.prompts[promptIndex]![0], names)
  return { ...record, fanout_queries: searches, country, response }
}

/**
 * The demo dataset for the clock `now`: records ready for `engine.ingest`.
 * @example
 * const { records, domains } = demoDataset({ now: new Date() })
 * await engine.ingest(records)
 */
export function demoDataset(options: DemoOptions = {}): DemoDataset {
  const now = options.now === undefined ? Date.now() : new Date(options.now).getTime()
  if (Number.isNaN(now)) throw new RangeError('demoDataset: now is not a valid date')
  const days = options.days ?? DEMO_DAYS
  if (!Number.isInteger(days) || days < 1 || days > 3650)
    throw new RangeError('demoDataset: days must be 1-3650')
  const additions = options.additions ?? DEMO_RECORD_ADDITIONS
  const today = Math.floor(now / DAY_MS)
  const first = today - days + 1
  const stamp = (day: number, n: number) => new Date(day * DAY_MS + ((n * 7_919_117) % DAY_MS)).toISOString()

  const records: AnalysisInputRecord[] = []
  const dims: AnalysisInputRecord[] = []
  const domains: DemoDomain[] = []
  const plans: BrandPlan[] = []
  DEMO_TEAMS.forEach((t, teamIndex) => {
    const teamId = demoTeamId(teamIndex)
    records.push(team({ id: teamId, name: t.name, plan: t.plan, developer_access: true }))
    for (const b of t.brands) {
      const index = plans.length
      const domainId = demoDomainId(index)
      domains.push({ id: domainId, brand: b.brand, teamId, teamName: t.name, plan: t.plan })
      const created = additions ? { created_at: stamp(first - 400 + index * 37, index) } : {}
      dims.push({
        ...domain({ id: domainId, team_id: teamId, brand_name: b.brand, website: b.website }),
        ...created,
      })
      const plan: BrandPlan = {
        brand: b,
        index,
        domainId,
        promptIds: b.prompts.map((_, i) => demoId(KIND.prompt, index, i)),
        competitorIds: b.competitors.map((_, i) => demoId(KIND.competitor, index, i)),
        themeIds: b.themes.map((_, i) => demoId(KIND.theme, index, i)),
        pages: b.prompts.map(([text]) => promptPages(b, text)),
      }
      plans.push(plan)
      b.prompts.forEach(([text, volume], i) => {
        // One prompt in four carries no creation time (tracked before it was recorded).
        const createdAt = additions ? { created_at: i % 4 === 3 ? null : stamp(first - 60 + i * 4, i) } : {}
        const record = prompt({
          id: plan.promptIds[i]!,
          domain_id: domainId,
          text,
          estimated_search_volume: volume,
        })
        dims.push({ ...record, ...createdAt, ...(additions ? promptSegments(text, index, i) : {}) })
      })
      b.competitors.forEach((c, i) =>
        dims.push(
          competitor({ id: plan.competitorIds[i]!, domain_id: domainId, name: c.name, website: c.website }),
        ),
      )
      b.themes.forEach((th, i) =>
        dims.push(
          theme({
            id: plan.themeIds[i]!,
            domain_id: domainId,
            name: th.name,
            custom_name: th.customName ?? null,
            archived: th.archived ?? false,
            sentiment: th.sentiment,
            created_at: isoDate(first - 90 + i * 6),
          }),
        ),
      )
    }
  })
  records.push(...dims)
  for (let day = first; day <= today; day++) {
    for (const plan of plans) {
      for (let p = 0; p < plan.brand.prompts.length; p++) {
        for (let c = 0; c < CHANNELS.length; c++) {
          const record = drawAnalysis(plan, p, c, day, now, additions)
          if (record !== null) records.push(record)
        }
      }
    }
  }
  return {
    records,
    domains,
    teamIds: DEMO_TEAMS.map((_, i) => demoTeamId(i)),
    from: isoDate(first),
    to: isoDate(today),
  }
}
