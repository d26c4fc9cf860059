/**
 * The answers listing (docs/API.md, "GET /api/v1/answers"): the window's analyses that pass the
 * filters, newest first (answered_at descending, then id descending), one page after the cursor's
 * position (keyset pagination: an analysis ingested between two pages never shifts the next one),
 * each with its answer text, mentions, citations, themes and fan-out queries.
 */
import { compareText } from '../../foundation/compare.js'
import { CHANNELS } from '../../foundation/vocabulary.js'
import { parseRequest, type QueryContext } from '../../queries/context.js'
import { resolveModelFilter } from '../../queries/model-filter.js'
import type { DomainRow } from '../../catalog.js'
import { answersParamsSchema } from './contract.js'
import type { AnswerItem, AnswerMention, AnswersParams, AnswersPayload } from './contract.js'
import { decodeCursor, encodeCursor, queryHash, type CursorPosition } from './cursor.js'
import {
  ANSWER_TEXTS,
  answerIndex,
  firstWhere,
  idBefore,
  idText,
  idWordsOf,
  pageReader,
  type AnswerIndex,
  type PageReader,
  type TextsByIndex,
} from './index-rows.js'
import { answerDetails, mentions, NO_POSITION, rawUrl, type AnswerDetails } from './details.js'

const DAY_MS = 86_400_000
/** Analyses whose texts one read fetches (the slots of sql/queries/answers_page.sql). */
const PAGE_SLOTS = 20
/** Plans without sentiment: their answers' themes are `[]`. */
const NO_THEMES: ReadonlySet<string> = new Set(['free', 'starter'])

/** A country code as the index keeps it. */
const countryCode = (c: string): number => (c.charCodeAt(0) - 65) * 26 + (c.charCodeAt(1) - 65)
const countryText = (code: number): string | null =>
  code < 0 ? null : String.fromCharCode(65 + Math.floor(code / 26), 65 + (code % 26))

export async function computeAnswers(ctx: QueryContext, params: AnswersParams): Promise<AnswersPayload> {
  const { p, scope } = parseRequest(ctx, answersParamsSchema, params)
  const { domain, window } = scope
  const given = (name: string, value: string | undefined) => (value === undefined ? {} : { [name]: value })
  const echo = {
    domain_id: domain.id,
    ...scope.echo,
    limit: p.limit,
    ...given('model', p.model),
    ...given('prompt_id', p.promptId),
    ...given('entity', p.entity),
    ...given('country', p.country),
    ...given('topic', p.topic),
    ...given('tag', p.tag),
    ...given('cursor', p.cursor),
  }
  const payload = (items: AnswerItem[], next: string | null): AnswersPayload => ({
    data: { items, next_cursor: next },
    ...echo,
    generated_at: scope.generatedAt,
  })
  const key = ctx.cursorKey
  if (key === undefined) throw new Error('computeAnswers needs the engine cursor key')
  // Every parameter but the cursor, normalized: a cursor is valid for this query only.
  const query = queryHash([
    domain.id,
    scope.echo.days,
    'start_date' in scope.echo ? scope.echo.start_date : null,
    'end_date' in scope.echo ? scope.echo.end_date : null,
    p.model ?? 'all',
    p.promptId ?? null,
    p.entity ?? null,
    p.country ?? null,
    p.topic ?? null,
    p.tag ?? null,
    p.limit,
  ])
  const position = p.cursor === undefined ? null : decodeCursor(key, p.cursor, query)

  const filter = resolveModelFilter(ctx.catalog, p.model ?? 'all')
  const promptRef = p.promptId === undefined ? undefined : ctx.catalog.prompts.get(p.promptId)
  const entityIdx = p.entity === undefined ? -1 : entityIndex(ctx, domain, p.entity)
  if (
    filter === null ||
    (p.promptId !== undefined && promptRef?.domainKey !== domain.key) ||
    entityIdx === null
  ) {
    return payload([], null)
  }
  const [index, reader, details] = await Promise.all([
    ctx.aggregates.derived(answerIndex, domain.key),
    ctx.aggregates.derived(pageReader, domain.key),
    ctx.aggregates.derived(answerDetails, domain.key),
  ])

  // The prompts that pass prompt_id, topic and tag (1: kept).
  const keptPrompts = new Uint8Array(domain.prompts.length)
  for (const prompt of domain.prompts) {
    const i = prompt.idx
    keptPrompts[i] = Number(
      (promptRef === undefined || promptRef.idx === i) &&
        (p.topic === undefined || prompt.topic === p.topic) &&
        (p.tag === undefined || prompt.tags.includes(p.tag)),
    )
  }
  const country = p.country === undefined ? -2 : countryCode(p.country)

  // The window's rows (answered_at descending: a range), after the cursor's position.
  const n = index.ms.length
  const { ms } = index
  const windowStart = firstWhere(0, n, (r) => ms[r]! < (window.endDay + 1) * DAY_MS)
  const windowEnd = firstWhere(windowStart, n, (r) => ms[r]! < window.startDay * DAY_MS)
  const words = position === null ? null : idWordsOf(position.id)
  const start =
    position === null || words === null
      ? windowStart
      : firstWhere(
          windowStart,
          windowEnd,
          (r) => ms[r]! < position.ms || (ms[r] === position.ms && idBefore(index, r, words)),
        )
  const rows: number[] = []
  for (let r = start; r < windowEnd && rows.length <= p.limit; r++) {
    if (keptPrompts[index.promptIdx[r]!] !== 1) continue
    if (filter.channel !== 0 && index.channel[r] !== filter.channel) continue
    if (filter.modelKey !== -1 && index.modelKey[r] !== filter.modelKey) continue
    if (country !== -2 && index.country[r] !== country) continue
    if (entityIdx !== -1 && !mentions(details, r, entityIdx)) continue
    rows.push(r)
  }
  const more = rows.length > p.limit
  if (more) rows.length = p.limit
  const themes = !NO_THEMES.has(ctx.catalog.teams.get(domain.team_id)?.plan ?? 'free')
  const items = await pageItems(ctx, domain, index, details, reader, rows, themes)
  const last = rows[rows.length - 1]
  const next: CursorPosition | null =
    more && last !== undefined ? { ms: ms[last]!, id: idText(index, last) } : null
  return payload(items, next === null ? null : encodeCursor(key, next, query))
}

/** The entity_idx of `entity` in the domain (0: the brand), or null for a UUID that is not a competitor of it. */
function entityIndex(ctx: QueryContext, domain: DomainRow, entity: string): number | null {
  if (entity === 'brand') return 0
  const ref = ctx.catalog.competitors.get(entity)
  return ref === undefined || ref.domainKey !== domain.key ? null : ref.idx
}

/** The items of the page's rows: their details from the kept ones, their texts read from DuckDB (PAGE_SLOTS analyses a read). */
async function pageItems(
  ctx: QueryContext,
  domain: DomainRow,
  index: AnswerIndex,
  details: AnswerDetails,
  reader: PageReader,
  rows: readonly number[],
  withThemes: boolean,
): Promise<AnswerItem[]> {
  if (rows.length === 0) return []
  const brandId = `user-brand-${domain.id}`
  const [urls, hosts, titles, pageTypes, queries] = (await Promise.all(
    [
      ANSWER_TEXTS.urls,
      ANSWER_TEXTS.hosts,
      ANSWER_TEXTS.titles,
      ANSWER_TEXTS.pageTypes,
      ANSWER_TEXTS.queries,
    ].map((d) => ctx.aggregates.derived(d, domain.key)),
  )) as [TextsByIndex, TextsByIndex, TextsByIndex, TextsByIndex, TextsByIndex]
  const textOf = (list: TextsByIndex, idx: number): string | null => (idx < 0 ? null : (list.at[idx] ?? null))
  const { mentions: m, citations: c, themes: t, fanout: f } = details
  const items: AnswerItem[] = rows.map((r) => {
    const prompt = domain.prompts[index.promptIdx[r]!]!
    const itemMentions: AnswerMention[] = []
    for (let i = m.start[r]!; i < m.start[r + 1]!; i++) {
      const e = m.col.entity[i]!
      const competitor = e === 0 ? null : domain.competitors[e - 1]!
      const position = m.col.position[i]!
      const sentiment = m.col.sentiment[i]!
      itemMentions.push({
        entity_id: competitor === null ? brandId : competitor.id,
        name: competitor === null ? domain.brand_name : competitor.name,
        is_brand: competitor === null,
        position: position === NO_POSITION ? null : position,
        sentiment: Number.isNaN(sentiment) ? null : sentiment,
      })
    }
    const citations: AnswerItem['citations'] = []
    for (let i = c.start[r]!; i < c.start[r + 1]!; i++) {
      citations.push({
        url: rawUrl(details, i) ?? urls.at[c.col.url[i]!] ?? '',
        domain: hosts.at[c.col.host[i]!] ?? '',
        title: textOf(titles, c.col.title[i]!),
        page_type: textOf(pageTypes, c.col.pageType[i]!),
      })
    }
    const themes: AnswerItem['themes'] = []
    for (let i = t.start[r]!; withThemes && i < t.start[r + 1]!; i++) {
      const theme = domain.themes[t.col.theme[i]!]
      if (theme !== undefined && !theme.archived) {
        themes.push({
          id: theme.id,
          name: theme.custom_name ?? theme.name,
          sentiment: theme.sentiment,
          occurrences: t.col.occurrences[i]!,
        })
      }
    }
    const fanout: string[] = []
    for (let i = f.start[r]!; i < f.start[r + 1]!; i++) fanout.push(textOf(queries, f.col.query[i]!) ?? '')
    return {
      id: idText(index, r),
      prompt_id: prompt.id,
      prompt_text: prompt.text,
      channel: CHANNELS[index.channel[r]! - 1]!,
      model: ctx.catalog.modelsByKey[index.modelKey[r]!]!,
      country: countryText(index.country[r]!),
      answered_at: new Date(index.ms[r]!).toISOString(),
      response: null,
      mentions: itemMentions.sort(byPosition),
      citations,
      themes: themes.sort((x, y) => compareText(x.id, y.id)),
      fanout_queries: fanout,
    }
  })
  const reads: Promise<void>[] = []
  for (let from = 0; from < rows.length; from += PAGE_SLOTS) {
    const values: Record<string, number> = { domain_key: domain.key }
    for (let s = 0; s < PAGE_SLOTS; s++) {
      const r = rows[from + s]
      values[`k${s}`] = r === undefined ? -1 : index.analysisKey[r]!
    }
    reads.push(
      reader.loadStrings('queries/answers_page', values, ['slot', 'response']).then(([slot, response]) => {
        for (let i = 0; i < slot!.length; i++) items[from + Number(slot![i])]!.response = response![i]!
      }),
    )
  }
  await Promise.all(reads)
  return items
}

/** Position ascending, nulls last, then entity_id. */
function byPosition(a: AnswerMention, b: AnswerMention): number {
  if (a.position !== b.position) {
    if (a.position === null) return 1
    if (b.position === null) return -1
    return a.position - b.position
  }
  return compareText(a.entity_id, b.entity_id)
}
