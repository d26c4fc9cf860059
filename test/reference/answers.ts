/**
 * The reference model of GET /api/v1/answers (docs/API.md, "GET /api/v1/answers"): every stored
 * analysis of the domain filtered, sorted and cut after the cursor's position, naively (a full scan
 * and sort per call). Cursors are signed as the engine signs them (HMAC-SHA256 over the position
 * and the hash of the normalized parameters) with the key of REFERENCE_CURSOR_SECRET, which the
 * golden and property tests give the engine too (`cursorSecret`).
 */
import { createHash, createHmac } from 'node:crypto'
import { ValidationError } from '../../src/errors.js'
import type { AnswerItem, AnswerMention, AnswersParams, AnswersPayload } from '../../src/reports/index.js'
import { formatGeneratedAt, resolveWindow, toMs } from './buckets.js'
import { urlHost } from './hosts.js'
import { cmp } from './numbers.js'
import { intParam, modelFilter } from './params.js'
import type { Store, StoredAnalysis } from './store.js'

/** The cursor secret of the golden cases and the property tests (engine: `cursorSecret`). */
export const REFERENCE_CURSOR_SECRET = 'the reference model cursor secret'

const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/
const refuse = (path: string, message: string): never => {
  throw new ValidationError([{ path, message }])
}

const key = createHash('sha256')
  .update('visibility-analytics answers cursor\n')
  .update(REFERENCE_CURSOR_SECRET)
  .digest()
const mac = (position: string, query: Buffer) =>
  createHmac('sha256', key).update(position).update('\n').update(query).digest('base64url')

/** Whether a stored analysis sorts before another: answered_at descending, then id descending. */
const newestFirst = (a: { ms: number; id: string }, b: { ms: number; id: string }) =>
  b.ms - a.ms || cmp(b.id, a.id)

export function answers(store: Store, p: AnswersParams): AnswersPayload {
  const known = new Set([
    'domainId',
    'days',
    'startDate',
    'endDate',
    'model',
    'promptId',
    'entity',
    'country',
    'topic',
    'tag',
    'limit',
    'cursor',
    'now',
  ])
  for (const k of Object.keys(p))
    if (!known.has(k)) refuse(k === 'granularity' ? 'granularity' : k, `unknown parameter ${k}.`)
  const domain = store.domain(p.domainId)
  const nowMs = toMs(p.now ?? new Date())
  const w = resolveWindow(p as Parameters<typeof resolveWindow>[0], nowMs, false)
  const { model, keep } = modelFilter(p.model, true)
  const promptId =
    p.promptId === undefined
      ? undefined
      : UUID.test(p.promptId)
        ? p.promptId.toLowerCase()
        : refuse('prompt_id', 'bad')
  const entity =
    p.entity === undefined
      ? undefined
      : p.entity === 'brand'
        ? 'brand'
        : UUID.test(p.entity)
          ? p.entity.toLowerCase()
          : refuse('entity', 'bad')
  const country =
    p.country === undefined
      ? undefined
      : /^[A-Za-z]{2}$/.test(p.country)
        ? p.country.toUpperCase()
        : refuse('country', 'bad')
  const topic = p.topic?.trim()
  if (topic !== undefined && (topic.length < 1 || topic.length > 100)) refuse('topic', 'bad')
  const tag = p.tag?.trim()
  if (tag !== undefined && (tag.length < 1 || tag.length > 50)) refuse('tag', 'bad')
  const limit = intParam('limit', p.limit, 20, 1, 100)

  const query = createHash('sha256')
    .update(
      JSON.stringify([
        domain.id,
        w.echo.days,
        w.echo.start_date ?? null,
        w.echo.end_date ?? null,
        model,
        promptId ?? null,
        entity ?? null,
        country ?? null,
        topic ?? null,
        tag ?? null,
        limit,
      ]),
    )
    .digest()
  let after: { ms: number; id: string } | null = null
  if (p.cursor !== undefined) {
    const [pos = '', sig = ''] = p.cursor.split('.')
    const text = Buffer.from(pos, 'base64url').toString()
    const m = /^(-?\d+):(.+)$/.exec(text)
    if (
      p.cursor.split('.').length !== 2 ||
      Buffer.from(text).toString('base64url') !== pos ||
      sig !== mac(text, query) ||
      m === null
    )
      refuse('cursor', 'not a cursor of this query')
    after = { ms: Number(m![1]), id: m![2]! }
  }

  const competitorIds = new Set(store.competitorsOf(domain.id).map((c) => c.id))
  const promptOf = (a: StoredAnalysis) => store.prompts.get(a.prompt_id)!
  const tagsOf = (a: StoredAnalysis) => ((promptOf(a) as { tags?: string[] }).tags ?? []).map((t) => t.trim())
  const kept = store
    .inWindow(domain.id, w)
    .filter(keep)
    .filter((a) => promptId === undefined || a.prompt_id === promptId)
    .filter(
      (a) => country === undefined || (a as { country?: string | null }).country?.toUpperCase() === country,
    )
    .filter((a) => topic === undefined || (promptOf(a) as { topic?: string | null }).topic?.trim() === topic)
    .filter((a) => tag === undefined || tagsOf(a).includes(tag))
    .filter(
      (a) =>
        entity === undefined ||
        ((entity === 'brand' || competitorIds.has(entity)) && a.mentions.some((m) => m.entity_id === entity)),
    )
    .sort(newestFirst)
  const rest = after === null ? kept : kept.filter((a) => newestFirst(after!, a) < 0)
  const page = rest.slice(0, limit)
  const last = page.at(-1)
  const next =
    rest.length > limit && last !== undefined
      ? `${Buffer.from(`${last.ms}:${last.id}`).toString('base64url')}.${mac(`${last.ms}:${last.id}`, query)}`
      : null
  const plan = store.teams.get(domain.team_id)?.plan
  const withThemes = plan !== 'free' && plan !== 'starter'
  const items = page.map((a): AnswerItem => {
    const mentions = a.mentions.map((m): AnswerMention => {
      const brand = m.entity_id === 'brand'
      return {
        entity_id: brand ? `user-brand-${domain.id}` : m.entity_id,
        name: brand ? domain.brand_name : store.competitors.get(m.entity_id)!.name,
        is_brand: brand,
        position: m.position ?? null,
        sentiment: m.sentiment ?? null,
      }
    })
    mentions.sort((x, y) =>
      x.position === y.position
        ? cmp(x.entity_id, y.entity_id)
        : x.position === null
          ? 1
          : y.position === null
            ? -1
            : x.position - y.position,
    )
    const themes = withThemes
      ? a.themes
          .map((t) => ({ t, theme: store.themes.get(t.theme_id)! }))
          .filter(({ theme }) => !theme.archived)
          .map(({ t, theme }) => ({
            id: theme.id,
            name: theme.custom_name ?? theme.name,
            sentiment: theme.sentiment,
            occurrences: t.occurrences,
          }))
          .sort((x, y) => cmp(x.id, y.id))
      : []
    const c = (a as { country?: string | null }).country
    return {
      id: a.id,
      prompt_id: a.prompt_id,
      prompt_text: promptOf(a).text,
      channel: a.channel,
      model: a.model,
      country: c == null ? null : c.toUpperCase(),
      answered_at: new Date(a.ms).toISOString(),
      response: (a as { response?: string | null }).response ?? null,
      mentions,
      citations: a.citations.map((x) => ({
        url: x.url,
        domain: urlHost(x.url),
        title: x.title,
        page_type: x.page_type,
      })),
      themes,
      fanout_queries: a.fanout_queries,
    }
  })
  const given = (name: string, v: string | undefined) => (v === undefined ? {} : { [name]: v })
  return {
    data: { items, next_cursor: next },
    domain_id: domain.id,
    ...w.echo,
    limit,
    ...given('model', p.model === undefined ? undefined : model),
    ...given('prompt_id', promptId),
    ...given('entity', entity),
    ...given('country', country),
    ...given('topic', topic),
    ...given('tag', tag),
    ...given('cursor', p.cursor),
    generated_at: formatGeneratedAt(nowMs),
  }
}
