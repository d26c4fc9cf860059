/**
 * fast-check arbitraries for the differential test: small VALID datasets (semantics.md section 1)
 * built to hit the edge cases of sections 2-7, and query parameters to run against them.
 *
 * A dataset is generated as a plan of small indices (which shrink towards 0) and then built into
 * records deterministically, so shrunk counterexamples stay readable.
 */
import fc from 'fast-check'
import { CHANNELS, DELETE_ENTITIES, PLANS } from '../../src/foundation/vocabulary.js'
import type { CallRecord } from '../reference/deletions.js'
import type { ExtInputRecord } from '../reference/types.js'
import type {
  AnalysisInputRecord,
  AnalysisRecord,
  Channel,
  CompetitorRecord,
  DomainRecord,
  PromptRecord,
  SentimentParams,
  ThemeRecord,
} from '../../src/types.js'
import type { CompetitorSeriesParams, PromptSeriesParams } from '../../src/reports/index.js'
import { uuid } from './random.js'
import { analysis, competitor, domain, mention, prompt, team, theme } from './records.js'

/** The clock the datasets are built around: analyses spread over a few weeks before and after it. */
export const BASE_NOW = '2026-11-20T15:00:00Z'
const BASE_DAY_MS = Date.UTC(2026, 10, 20)
const DAY_MS = 86_400_000

/** Raw model ids per channel; some are shared across channels, one equals a channel name. */
export const MODELS: Record<Channel, readonly string[]> = {
  chatgpt: ['gpt-4o-2024-08-06', 'gpt-5'],
  perplexity: ['sonar', 'sonar-pro'],
  gemini: ['gemini-2.5-pro'],
  claude: ['claude-sonnet-4', 'claude-opus-4.1'],
  copilot: ['gpt-4o-2024-08-06'],
  'google-ai-overviews': ['gemini'],
  'google-ai-mode': ['gemini', 'gemini-2.5-pro'],
}
const SEEN_MODELS = [...new Set(Object.values(MODELS).flat())]
const UNSEEN_MODELS = ['gpt-4o-2024-08-06:ft', 'llama-3.1@8b', 'GPT-5']

const HOSTS = ['acme.com', 'globex.io', 'shop.initech.co.uk'] as const
/** How a domain's website is written (placeholders as in CITATIONS). */
const WEBSITE_FORMS = [
  null,
  '{H}',
  'www.{H}',
  'https://www.{H}',
  'http://{H}/en',
  'WWW.{HU}',
  'https://{H}',
] as const
/**
 * Citation URLs: `{H}` is the domain's host (whether or not the domain has a website), `{HU}` the
 * same in upper case, `{PARENT}` its parent domain (or an unrelated host).
 */
const CITATIONS = [
  'https://{H}/pricing',
  'http://{H}',
  'https://www.{H}/a?b=1',
  'https://blog.{H}/post',
  'http://WWW.{HU}/Caps',
  'https://www.blog.{H}/',
  'https://{H}.evil.net/',
  'https://not{H}/',
  'https://www{H}/',
  'https://{H}@evil.net/',
  'https://evil.net\\@{H}/',
  'https://evil.net\\.{H}/',
  'https://other.org/{H}',
  'https://{PARENT}/',
] as const

function fill(template: string, host: string): string {
  const parent = host.split('.').length > 2 ? host.split('.').slice(1).join('.') : 'other.org'
  return template.replace('{HU}', host.toUpperCase()).replace('{H}', host).replace('{PARENT}', parent)
}
const TIMES = ['00:00:00', '00:30:00', '02:59:59', '03:00:00', '12:00:00', '21:00:00', '23:30:00', '23:59:59']
const OFFSETS = ['Z', '+00:00', '-03:00', '+05:30', '-12:00', '+14:00']
const BRAND_NAMES = ['Acme', 'Stark', 'acme']
const COMPETITOR_NAMES = ['Globex', 'Initech', 'Globex', 'globex', 'Umbrella', 'Hooli']
const PROMPT_TEXTS = [
  'best crm',
  'meilleur outil de gestion',
  'best crm',
  '最好的项目管理工具',
  'cheap "crm" tools',
]
const THEME_NAMES = ['Pricing', "Facilité d'utilisation", 'Support', 'Speed', 'Pricing']
const CUSTOM_NAMES = ['Price too high', 'Great support']
const TEAM_NAMES = ['Acme Team', 'Other Team']

const pick = <T>(xs: readonly T[], i: number): T => xs[i % xs.length] as T

const analysisPlan = fc.record({
  domain: fc.nat(),
  prompt: fc.nat(),
  key: fc.nat({ max: 0xff }),
  channel: fc.nat({ max: CHANNELS.length - 1 }),
  model: fc.nat(),
  /** Days from 2026-11-20: mostly the last few weeks (and a few days ahead), rarely up to 400 back. */
  day: fc.oneof(
    { weight: 12, arbitrary: fc.integer({ min: -25, max: 4 }) },
    { weight: 1, arbitrary: fc.integer({ min: -400, max: -26 }) },
  ),
  time: fc.nat({ max: TIMES.length - 1 }),
  offset: fc.nat({ max: OFFSETS.length - 1 }),
  millis: fc.boolean(),
  mentions: fc.array(
    fc.record({
      entity: fc.nat(),
      position: fc.option(fc.integer({ min: 1, max: 4 }), { freq: 3 }),
      sentiment: fc.option(fc.integer({ min: 0, max: 100 }), { freq: 3 }),
    }),
    { maxLength: 5 },
  ),
  citations: fc.array(fc.nat({ max: CITATIONS.length - 1 }), { maxLength: 3 }),
  themes: fc.array(fc.record({ theme: fc.nat(), occurrences: fc.integer({ min: 1, max: 4 }) }), {
    minLength: 1,
    maxLength: 3,
  }),
})
type AnalysisPlan = typeof analysisPlan extends fc.Arbitrary<infer T> ? T : never

const domainPlan = fc.record({
  team: fc.nat(),
  key: fc.nat({ max: 0xff }),
  host: fc.nat({ max: HOSTS.length - 1 }),
  website: fc.nat({ max: WEBSITE_FORMS.length - 1 }),
  brand: fc.nat({ max: BRAND_NAMES.length - 1 }),
  competitors: fc.array(
    fc.record({ key: fc.nat({ max: 0xff }), name: fc.nat(), website: fc.option(fc.nat({ max: 2 })) }),
    { maxLength: 4 },
  ),
  prompts: fc.array(
    fc.record({
      key: fc.nat({ max: 0xff }),
      text: fc.nat(),
      volume: fc.option(fc.integer({ min: 0, max: 100_000 })),
    }),
    { maxLength: 5 },
  ),
  themes: fc.array(
    fc.record({
      key: fc.nat({ max: 0xff }),
      name: fc.nat(),
      custom: fc.option(fc.nat(), { freq: 3 }),
      archived: fc.boolean(),
      positive: fc.boolean(),
      created: fc.integer({ min: 0, max: 60 }),
    }),
    { maxLength: 4 },
  ),
})

/** A record repeated later with changes (the later one wins). */
const duplicatePlan = fc.record({
  kind: fc.constantFrom('analysis', 'prompt', 'competitor', 'theme', 'domain', 'team'),
  target: fc.nat(),
  variant: fc.nat(),
  analysis: analysisPlan,
})

/** A generated dataset: the ingest calls to make in order (each one valid on its own). */
export interface Dataset {
  calls: AnalysisInputRecord[][]
  /** Lower-case ids of the domains, in generation order. */
  domainIds: string[]
  /** Every record in ingest order (what the reference model ingests). */
  records: AnalysisInputRecord[]
}

/** Valid random datasets: 1-3 domains on 1-2 teams, up to tens of analyses. */
export const datasetArb: fc.Arbitrary<Dataset> = fc
  .record({
    teams: fc.array(
      fc.record({
        key: fc.nat({ max: 0xff }),
        plan: fc.nat({ max: PLANS.length - 1 }),
        access: fc.boolean(),
      }),
      { minLength: 1, maxLength: 2 },
    ),
    domains: fc.array(domainPlan, { minLength: 1, maxLength: 3 }),
    analyses: fc.array(analysisPlan, { maxLength: 30, size: '+1' }),
    duplicates: fc.array(duplicatePlan, { maxLength: 4 }),
    /** Which id occurrences are written in upper case (cycled; empty: all lower case). */
    upper: fc.array(fc.boolean(), { maxLength: 16 }),
    /** 0: one call; 1: two calls (entities and some analyses first); 2: the same call twice. */
    calls: fc.nat({ max: 2 }),
    split: fc.nat(),
    analysesFirst: fc.boolean(),
  })
  .map((plan) => {
    let serial = 0
    let caseCursor = 0
    const id = (key: number): string => uuid(key, ++serial)
    /** An id as written in a record: upper case where the plan says so. */
    const ref = (x: string): string => {
      const upper = plan.upper.length > 0 && plan.upper[caseCursor++ % plan.upper.length] === true
      return upper ? x.toUpperCase() : x
    }

    const teams = plan.teams.map((t, i) =>
      team({
        id: id(t.key),
        name: pick(TEAM_NAMES, i),
        plan: pick(PLANS, t.plan),
        developer_access: t.access,
      }),
    )

    interface Built {
      domain: DomainRecord
      host: string
      competitors: CompetitorRecord[]
      prompts: PromptRecord[]
      themes: ThemeRecord[]
    }
    const domains: Built[] = plan.domains.map((d) => {
      const host = pick(HOSTS, d.host)
      const form = pick(WEBSITE_FORMS, d.website)
      const domainId = id(d.key)
      return {
        host,
        domain: domain({
          id: domainId,
          team_id: pick(teams, d.team).id,
          brand_name: pick(BRAND_NAMES, d.brand),
          website: form === null ? null : fill(form, host),
        }),
        competitors: d.competitors.map((c) =>
          competitor({
            id: id(c.key),
            domain_id: domainId,
            name: pick(COMPETITOR_NAMES, c.name),
            website:
              c.website === null
                ? null
                : pick(['globex.com', 'www.initech.com', 'https://umbrella.co'], c.website),
          }),
        ),
        prompts: d.prompts.map((p) =>
          prompt({
            id: id(p.key),
            domain_id: domainId,
            text: pick(PROMPT_TEXTS, p.text),
            estimated_search_volume: p.volume,
          }),
        ),
        themes: d.themes.map((t) =>
          theme({
            id: id(t.key),
            domain_id: domainId,
            name: pick(THEME_NAMES, t.name),
            custom_name: t.custom === null ? null : pick(CUSTOM_NAMES, t.custom),
            archived: t.archived,
            sentiment: t.positive ? 'positive' : 'negative',
            created_at: new Date(BASE_DAY_MS - t.created * DAY_MS).toISOString().slice(0, 10),
          }),
        ),
      }
    })
    const withPrompts = domains.filter((d) => d.prompts.length > 0)

    /** Builds an analysis from its plan (or null when no domain has a prompt). */
    const buildAnalysis = (a: AnalysisPlan, analysisId: string): AnalysisRecord | null => {
      if (withPrompts.length === 0) return null
      const d = pick(withPrompts, a.domain)
      const channel = pick(CHANNELS, a.channel)
      const entities = ['brand', ...d.competitors.map((c) => c.id)]
      const seenEntities = new Set<string>()
      const mentions = a.mentions.flatMap((m) => {
        const entity = pick(entities, m.entity)
        if (seenEntities.has(entity)) return []
        seenEntities.add(entity)
        return [mention(entity === 'brand' ? 'brand' : ref(entity), m.position, m.sentiment)]
      })
      const seenThemes = new Set<string>()
      const themes =
        d.themes.length === 0
          ? []
          : a.themes.flatMap((t) => {
              const theme = pick(d.themes, t.theme).id
              if (seenThemes.has(theme)) return []
              seenThemes.add(theme)
              return [{ theme_id: ref(theme), occurrences: t.occurrences }]
            })
      const citations = a.citations.map((c) => ({ url: fill(pick(CITATIONS, c), d.host) }))
      const local = new Date(BASE_DAY_MS + a.day * DAY_MS).toISOString().slice(0, 10)
      return analysis({
        id: ref(analysisId),
        domain_id: ref(d.domain.id),
        prompt_id: ref(pick(d.prompts, a.prompt).id),
        channel,
        model: pick(MODELS[channel], a.model),
        answered_at: `${local}T${pick(TIMES, a.time)}${a.millis ? '.250' : ''}${pick(OFFSETS, a.offset)}`,
        mentions,
        citations,
        themes,
      })
    }

    const analyses = plan.analyses.flatMap((a) => {
      const built = buildAnalysis(a, id(a.key))
      return built === null ? [] : [built]
    })

    const entities: AnalysisInputRecord[] = [
      ...teams.map((t) => ({ ...t, id: ref(t.id) })),
      ...domains.map((d) => ({ ...d.domain, id: ref(d.domain.id), team_id: ref(d.domain.team_id) })),
      ...domains
        .flatMap((d) => [...d.prompts, ...d.competitors, ...d.themes])
        .map((r) => ({
          ...r,
          id: ref(r.id),
          domain_id: ref(r.domain_id),
        })),
    ]

    // Later versions of some records, with changes; they come last, so they win.
    const duplicates: AnalysisInputRecord[] = plan.duplicates.flatMap((dup): AnalysisInputRecord[] => {
      const v = dup.variant
      switch (dup.kind) {
        case 'analysis': {
          if (analyses.length === 0) return []
          const again = buildAnalysis(dup.analysis, pick(analyses, dup.target).id.toLowerCase())
          return again === null ? [] : [again]
        }
        case 'team': {
          const t = pick(teams, dup.target)
          return [{ ...t, id: ref(t.id), plan: pick(PLANS, v), developer_access: v % 2 === 0 }]
        }
        case 'domain': {
          const d = pick(domains, dup.target).domain
          return [
            {
              ...d,
              id: ref(d.id),
              brand_name: pick(BRAND_NAMES, v),
              website:
                v % 3 === 0 ? null : pick(['www.acme.com', 'globex.io', 'https://shop.initech.co.uk/'], v),
            },
          ]
        }
        case 'prompt': {
          const all = domains.flatMap((d) => d.prompts)
          if (all.length === 0) return []
          const p = pick(all, dup.target)
          return [
            {
              ...p,
              id: ref(p.id),
              text: `${p.text} (edited)`,
              estimated_search_volume: v % 2 === 0 ? null : v,
            },
          ]
        }
        case 'competitor': {
          const all = domains.flatMap((d) => d.competitors)
          if (all.length === 0) return []
          const c = pick(all, dup.target)
          return [
            {
              ...c,
              id: ref(c.id),
              name: pick(COMPETITOR_NAMES, v),
              website: v % 2 === 0 ? null : 'acme.com',
            },
          ]
        }
        case 'theme': {
          const all = domains.flatMap((d) => d.themes)
          if (all.length === 0) return []
          const t = pick(all, dup.target)
          return [
            {
              ...t,
              id: ref(t.id),
              archived: !t.archived,
              custom_name: v % 2 === 0 ? null : pick(CUSTOM_NAMES, v),
              sentiment: v % 3 === 0 ? 'positive' : 'negative',
            },
          ]
        }
      }
    })

    const base = plan.analysesFirst ? [...analyses, ...entities] : [...entities, ...analyses]
    const records = [...base, ...duplicates]
    let calls: AnalysisInputRecord[][]
    if (plan.calls === 1 && !plan.analysesFirst) {
      // Entities and the first few analyses, then the rest: each call valid on its own.
      const at = entities.length + (plan.split % (analyses.length + 1))
      calls = [records.slice(0, at), records.slice(at)]
    } else if (plan.calls === 2) {
      calls = [records, records]
    } else {
      calls = [records]
    }
    return {
      calls,
      domainIds: domains.map((d) => d.domain.id),
      records: calls.flat(),
    }
  })

/** Query parameters, resolved against a dataset with `paramsFor`. */
export interface Query {
  /** Index of the domain (modulo the number of domains). */
  domain: number
  upperDomainId: boolean
  days: number
  limit: number
  /** For the sentiment endpoints: all, a channel, or a raw model id seen or unseen. */
  model: string
  /** For the competitor endpoint: all or a channel. */
  competitorModel: string
  now: Date | string
}

/** A clock near BASE_NOW: fixed interesting instants (midnight, offsets) or any instant of a few weeks. */
const nowArb: fc.Arbitrary<Date | string> = fc.oneof(
  fc.constantFrom(
    BASE_NOW,
    '2026-11-20T00:00:00Z',
    '2026-11-20T23:59:59.999Z',
    '2026-11-21T01:30:00+05:30',
    '2026-11-19T22:00:00-03:00',
    '2026-11-24T12:00:00Z',
    '2026-11-08T12:00:00.5Z',
  ),
  fc
    .integer({ min: BASE_DAY_MS - 20 * DAY_MS, max: BASE_DAY_MS + 6 * DAY_MS })
    .chain((ms) => fc.constantFrom<Date | string>(new Date(ms), new Date(ms).toISOString())),
)

export const queryArb: fc.Arbitrary<Query> = fc.record({
  domain: fc.nat(),
  upperDomainId: fc.boolean(),
  days: fc.oneof({ weight: 5, arbitrary: fc.integer({ min: 1, max: 40 }) }, fc.integer({ min: 1, max: 365 })),
  limit: fc.integer({ min: 1, max: 10 }),
  model: fc.oneof(
    { weight: 3, arbitrary: fc.constant('all') },
    fc.constantFrom(...CHANNELS),
    fc.constantFrom(...SEEN_MODELS),
    fc.constantFrom(...UNSEEN_MODELS),
  ),
  competitorModel: fc.oneof({ weight: 2, arbitrary: fc.constant('all') }, fc.constantFrom(...CHANNELS)),
  now: nowArb,
})

/** The parameters of the four functions for a query on a dataset. */
export function paramsFor(
  dataset: Pick<Dataset, 'domainIds'>,
  q: Query,
): { prompt: PromptSeriesParams; competitor: CompetitorSeriesParams; sentiment: SentimentParams } {
  const id = pick(dataset.domainIds, q.domain)
  const domainId = q.upperDomainId ? id.toUpperCase() : id
  const now = q.now instanceof Date ? new Date(q.now.getTime()) : q.now
  return {
    prompt: { domainId, days: q.days, limit: q.limit, now },
    competitor: { domainId, days: q.days, model: q.competitorModel, now },
    sentiment: { domainId, days: q.days, model: q.model, now },
  }
}

// ---------------------------------------------------------------------------------------------
// Extensions (extensions.md sections 1 and 9): the new optional record fields, laid over the
// datasets above, and ranges / granularities / the new endpoints' parameters.

/** Fan-out queries: near-duplicates that differ in case or inner spaces stay distinct after trimming. */
const FANOUT_QUERIES = [
  'best crm 2026',
  'crm reviews',
  'Crm reviews',
  'crm  reviews',
  'meilleur crm',
  '最好的 crm',
]
/** What may surround a query (JavaScript `trim()` removes all of it). */
const PADS = ['', ' ', '  ', '\t', '\n', '\u00a0', ' \u3000', '\ufeff']
const TITLES = ['Pricing', 'Pricing — Acme', 'Tarifs', 'x'.repeat(1000), 'A']
const PAGE_TYPES = ['product', 'article', 'docs', 'p'.repeat(100)]
/**
 * Extra citation URLs: www., subdomains, fragments, the default port, upper case, and hosts whose
 * parent domain is a competitor's website (globex.com, www.initech.com, https://umbrella.co).
 */
const EXTRA_URLS = [
  'https://acme.com/pricing#plans',
  'https://www.acme.com/pricing',
  'https://ACME.com:443/pricing',
  'https://blog.acme.com/a#',
  'https://globex.io/x#y',
  'https://www.globex.io/x',
  'https://eu.shop.initech.co.uk/',
  'https://blog.globex.com/review',
  'https://www.globex.com/',
  'https://initech.com/#top',
  'https://eu.umbrella.co/x',
  'http://other.org/a?b=1#c',
] as const

const createdAtPlan = fc.oneof(
  fc.constant('absent' as const),
  fc.constant(null),
  fc.record({
    day: fc.integer({ min: -400, max: 0 }),
    ms: fc.nat({ max: DAY_MS - 1 }),
    /** Digits after the milliseconds (truncated when stored). */
    extra: fc.oneof(fc.constant(''), fc.constantFrom('0', '9', '4999', '999999')),
    offset: fc.nat({ max: OFFSETS.length - 1 }),
  }),
)
type CreatedAtPlan = typeof createdAtPlan extends fc.Arbitrary<infer T> ? T : never

const decorationPlan = fc.record({
  created: createdAtPlan,
  /** null: no fanout_queries field. */
  fanout: fc.option(
    fc.array(fc.record({ query: fc.nat(), before: fc.nat(), after: fc.nat() }), { maxLength: 5 }),
    { freq: 4 },
  ),
  titles: fc.array(
    fc.record({
      title: fc.option(fc.nat(), { freq: 2 }),
      pageType: fc.option(fc.nat(), { freq: 2 }),
      absent: fc.boolean(),
    }),
    { minLength: 1, maxLength: 4 },
  ),
  extraUrls: fc.array(fc.nat({ max: EXTRA_URLS.length - 1 }), { maxLength: 3 }),
  /** Cite the analysis's first URL again, with a fragment. */
  repeatFirst: fc.boolean(),
  /** Segments (segments.md section 1): an analysis's country, a prompt's topic and tags (null: absent). */
  country: fc.option(fc.nat(), { freq: 4 }),
  topic: fc.option(fc.nat(), { freq: 4 }),
  tags: fc.option(fc.array(fc.nat(), { maxLength: 3 }), { freq: 4 }),
})

/** Countries, topics and tags as records give them (any case, padded, repeated) and filters ask for them. */
const COUNTRIES = ['de', 'DE', 'Fr', 'us']
const TOPICS = ['Pricing', ' Pricing ', 'pricing', 'Support', 'Été']
const TAGS = ['a', ' a', 'b', 'B', 'c d', 'a ']
export const SEGMENT_QUERY_VALUES = {
  country: ['DE', 'de', 'FR', 'uS', 'ZZ'],
  topic: ['Pricing', '  Pricing', 'pricing', 'Support', 'Été', 'never seen'],
  tag: ['a', ' a ', 'b', 'B', 'c d', 'never'],
} as const
type DecorationPlan = typeof decorationPlan extends fc.Arbitrary<infer T> ? T : never

/** A timestamp written with an offset (and maybe more digits than milliseconds), or null / absent. */
function createdAt(plan: CreatedAtPlan): string | null | undefined {
  if (plan === 'absent') return undefined
  if (plan === null) return null
  // A wall-clock time followed by an offset: any such string is a valid timestamp.
  const local = new Date(BASE_DAY_MS + plan.day * DAY_MS + plan.ms).toISOString()
  return `${local.slice(0, -1)}${plan.extra}${pick(OFFSETS, plan.offset)}`
}

/** A dataset whose records may carry the fields of extensions section 1. */
export interface ExtDataset {
  calls: ExtInputRecord[][]
  domainIds: string[]
  records: ExtInputRecord[]
}

/** A dataset whose records carry the fields of extensions section 1 (same calls, same ids). */
export const extDatasetArb: fc.Arbitrary<ExtDataset> = fc
  .record({ base: datasetArb, plans: fc.array(decorationPlan, { minLength: 1, maxLength: 12 }) })
  .map(({ base, plans }) => {
    let cursor = 0
    const next = (): DecorationPlan => pick(plans, cursor++)
    // A record that appears in several calls is the same object: decorate it once.
    const decorated = new Map<AnalysisInputRecord, ExtInputRecord>()
    const decorate = (r: AnalysisInputRecord): ExtInputRecord => {
      const plan = next()
      if (r.type === 'domain' || r.type === 'prompt') {
        const at = createdAt(plan.created)
        const dated = at === undefined ? r : { ...r, created_at: at }
        if (r.type === 'domain') return dated
        return {
          ...dated,
          ...(plan.topic === null ? {} : { topic: pick(TOPICS, plan.topic) }),
          ...(plan.tags === null ? {} : { tags: plan.tags.map((t) => pick(TAGS, t)) }),
        } as ExtInputRecord
      }
      if (r.type !== 'analysis') return r
      const urls = [
        ...r.citations.map((c) => c.url),
        ...plan.extraUrls.map((i) => pick(EXTRA_URLS, i)),
        ...(plan.repeatFirst && r.citations[0] !== undefined ? [`${r.citations[0].url}#again`] : []),
      ]
      const citations = urls.map((url, i) => {
        const t = pick(plan.titles, i)
        return t.absent
          ? { url }
          : {
              url,
              title: t.title === null ? null : pick(TITLES, t.title),
              page_type: t.pageType === null ? null : pick(PAGE_TYPES, t.pageType),
            }
      })
      const fanout =
        plan.fanout === null
          ? {}
          : {
              fanout_queries: plan.fanout.map(
                (q) => `${pick(PADS, q.before)}${pick(FANOUT_QUERIES, q.query)}${pick(PADS, q.after)}`,
              ),
            }
      const country = plan.country === null ? {} : { country: pick(COUNTRIES, plan.country) }
      return { ...r, citations, ...fanout, ...country }
    }
    const calls = base.calls.map((call) =>
      call.map((r) => {
        let d = decorated.get(r)
        if (d === undefined) {
          d = decorate(r)
          decorated.set(r, d)
        }
        return d
      }),
    )
    return { calls, domainIds: base.domainIds, records: calls.flat() }
  })

/** A window: `days` (from the base query) or a range ending `back` days before today, and a bucket size. */
export interface RangePlan {
  range: boolean
  back: number
  length: number
  /** Undefined: not given (daily series, nothing echoed). */
  granularity: 'day' | 'week' | 'month' | undefined
}

export const rangeArb: fc.Arbitrary<RangePlan> = fc.record({
  range: fc.boolean(),
  back: fc.oneof({ weight: 4, arbitrary: fc.integer({ min: 0, max: 10 }) }, fc.integer({ min: 0, max: 400 })),
  length: fc.oneof(
    { weight: 4, arbitrary: fc.integer({ min: 1, max: 40 }) },
    fc.integer({ min: 1, max: 365 }),
  ),
  granularity: fc.constantFrom(undefined, 'day', 'week', 'month'),
})

/** Parameters of the new endpoints (a Query plus a range plan and paging). */
export interface ExtQuery {
  base: Query
  window: RangePlan
  page: number
  size: number
  citationLimit: number
  metric: 'visibility' | 'mentions' | 'citations' | 'citability'
  /** The segment filters (segments.md section 2), each absent or one of SEGMENT_QUERY_VALUES. */
  segment: { country?: string; topic?: string; tag?: string }
}

const segmentValueArb = (values: readonly string[]) =>
  fc.option(fc.constantFrom(...values), { freq: 2, nil: undefined })

export const extQueryArb: fc.Arbitrary<ExtQuery> = fc.record({
  base: queryArb,
  window: rangeArb,
  page: fc.integer({ min: 1, max: 6 }),
  size: fc.oneof(fc.integer({ min: 1, max: 4 }), fc.constant(500)),
  citationLimit: fc.oneof(fc.integer({ min: 1, max: 5 }), fc.constant(1000)),
  metric: fc.constantFrom('visibility', 'mentions', 'citations', 'citability'),
  // One query in three has no filter at all, so the unfiltered reports keep their reach (with
  // three independent options alone, 1 in 27 did).
  segment: fc.oneof(
    { arbitrary: fc.constant({}), weight: 1 },
    {
      arbitrary: fc
        .record({
          country: segmentValueArb(SEGMENT_QUERY_VALUES.country),
          topic: segmentValueArb(SEGMENT_QUERY_VALUES.topic),
          tag: segmentValueArb(SEGMENT_QUERY_VALUES.tag),
        })
        .map((s) => Object.fromEntries(Object.entries(s).filter(([, v]) => v !== undefined))),
      weight: 2,
    },
  ),
})

/** `{ days }` or `{ startDate, endDate }` for a query's clock. */
export function windowParams(q: ExtQuery): { days: number } | { startDate: string; endDate: string } {
  if (!q.window.range) return { days: q.base.days }
  const now = q.base.now instanceof Date ? q.base.now.getTime() : Date.parse(q.base.now)
  const today = Date.parse(`${new Date(now).toISOString().slice(0, 10)}T00:00:00Z`)
  const end = today - q.window.back * DAY_MS
  const iso = (ms: number): string => new Date(ms).toISOString().slice(0, 10)
  return { startDate: iso(end - (q.window.length - 1) * DAY_MS), endDate: iso(end) }
}

/** The parameters of the new functions (and of the first four with a range) for a query on a dataset. */
export function extParamsFor(ds: Pick<Dataset, 'domainIds'>, q: ExtQuery) {
  const { prompt, competitor, sentiment } = paramsFor(ds, q.base)
  const { days: _days, ...promptRest } = prompt
  const { days: _cdays, ...competitorRest } = competitor
  const { days: _sdays, ...sentimentRest } = sentiment
  const window = windowParams(q)
  const granularity = q.window.granularity === undefined ? {} : { granularity: q.window.granularity }
  const report = { ...sentimentRest, ...window, ...q.segment }
  const head = { domainId: report.domainId, ...(report.now === undefined ? {} : { now: report.now }) }
  return {
    report,
    leaderboard: { ...head, ...window, ...q.segment },
    brandSeries: { ...report, metric: q.metric, ...granularity },
    citations: { ...report, limit: q.citationLimit },
    sentimentSeries: { ...report, ...granularity },
    listPrompts: { ...head, page: q.page, size: q.size },
    promptSeries: { ...promptRest, ...window, ...granularity, ...q.segment },
    competitorSeries: { ...competitorRest, ...window, ...granularity, ...q.segment },
  }
}

// ---------------------------------------------------------------------------------------------
// Deletions (issue 13): later calls of delete records and re-upserted records over the datasets
// above, for the property test against the reference model (test/reference/deletions.ts).

/** A dataset and the calls that follow it: delete records mixed with upserts of earlier records. */
export interface DeletionDataset extends Dataset {
  later: CallRecord[][]
}

const deletionCallPlan = fc.record({
  deletes: fc.array(
    fc.record({
      entity: fc.constantFrom(...DELETE_ENTITIES),
      target: fc.nat(),
      /** 0: an id that was never stored. */
      unknown: fc.nat({ max: 7 }),
    }),
    { maxLength: 4 },
  ),
  /** Earlier records upserted again (each with the records it refers to). */
  upserts: fc.array(fc.nat(), { maxLength: 3 }),
  /** Where the delete records go among the upserts. */
  at: fc.nat(),
  upper: fc.boolean(),
})

export const deletionDatasetArb: fc.Arbitrary<DeletionDataset> = fc
  .record({ base: datasetArb, calls: fc.array(deletionCallPlan, { minLength: 1, maxLength: 4 }) })
  .map(({ base, calls }) => {
    const last = new Map<string, AnalysisInputRecord>()
    for (const r of base.records) last.set(`${r.type}:${r.id.toLowerCase()}`, r)
    const idsOf = (type: string) =>
      [...last.keys()].filter((k) => k.startsWith(`${type}:`)).map((k) => k.slice(type.length + 1))
    const get = (type: string, id: string) => last.get(`${type}:${id.toLowerCase()}`)
    /** A record and, first, the latest versions of what it refers to. */
    const withNeeds = (r: AnalysisInputRecord): AnalysisInputRecord[] => {
      const out: (AnalysisInputRecord | undefined)[] = []
      const domainChain = (domainId: string) => {
        const d = get('domain', domainId)
        if (d?.type === 'domain') out.push(get('team', d.team_id), d)
      }
      if (r.type === 'domain') out.push(get('team', r.team_id))
      if (r.type === 'prompt' || r.type === 'competitor' || r.type === 'theme') domainChain(r.domain_id)
      if (r.type === 'analysis') {
        domainChain(r.domain_id)
        out.push(get('prompt', r.prompt_id))
        for (const m of r.mentions) if (m.entity_id !== 'brand') out.push(get('competitor', m.entity_id))
        for (const t of r.themes) out.push(get('theme', t.theme_id))
      }
      return [...out.filter((x): x is AnalysisInputRecord => x !== undefined), r]
    }
    let unknownSerial = 0
    const later = calls.map((plan): CallRecord[] => {
      const upserts =
        base.records.length === 0 ? [] : plan.upserts.flatMap((i) => withNeeds(pick(base.records, i)))
      const deletes = plan.deletes.map((d): CallRecord => {
        const ids = idsOf(d.entity)
        const id = d.unknown === 0 || ids.length === 0 ? uuid(0x1000, ++unknownSerial) : pick(ids, d.target)
        return { type: 'delete', entity: d.entity, id: plan.upper ? id.toUpperCase() : id }
      })
      const at = plan.at % (upserts.length + 1)
      return [...upserts.slice(0, at), ...deletes, ...upserts.slice(at)]
    })
    return { ...base, later }
  })
