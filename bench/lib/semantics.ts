/**
 * Small pieces of semantics.md shared by the hand-written peers: the window, the model filter and
 * host matching. Peers re-implement the reports independently of src/ on purpose.
 */
import { type Channel } from '../../src/types.js'
import { CHANNELS } from '../../src/foundation/vocabulary.js'

export const DAY_MS = 86_400_000

/** UTC day number (days since 1970-01-01) of an instant. */
export function dayOf(instant: string | Date): number {
  const ms = typeof instant === 'string' ? Date.parse(instant) : instant.getTime()
  return Math.floor(ms / DAY_MS)
}
export function isoDate(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10)
}

/** The window of `days` ending on the UTC date of `now`: [start, end] as day numbers, both included. */
export function windowOf(now: string | Date, days: number): { start: number; end: number } {
  const end = dayOf(now)
  return { start: end - days + 1, end }
}

export function generatedAt(now: string | Date): string {
  return (typeof now === 'string' ? new Date(now) : now).toISOString()
}

export type ModelFilter =
  { kind: 'all' } | { kind: 'channel'; channel: Channel } | { kind: 'model'; model: string }

export function modelFilter(model: string | undefined): ModelFilter {
  if (model === undefined || model === 'all') return { kind: 'all' }
  if ((CHANNELS as readonly string[]).includes(model)) return { kind: 'channel', channel: model as Channel }
  return { kind: 'model', model }
}

/** Lower case, a leading `www.` removed. */
export function normalizeHost(host: string): string {
  const h = host.toLowerCase()
  return h.startsWith('www.') ? h.slice(4) : h
}

/** The host of a domain's website (a bare host or a URL), normalized; null when there is none. */
export function websiteHost(website: string | null): string | null {
  if (website === null || website === '') return null
  const m = /^(?:[a-z][a-z0-9+.-]*:\/\/)?(?:[^@/?#]*@)?([^:/?#]+)/i.exec(website)
  return m?.[1] ? normalizeHost(m[1]) : null
}

/** The normalized host of an absolute http(s) URL. */
export function urlHost(url: string): string {
  const m = /^[a-z][a-z0-9+.-]*:\/\/(?:[^@/?#]*@)?([^:/?#]+)/i.exec(url)
  return m?.[1] ? normalizeHost(m[1]) : ''
}

/** A cited URL's identity: the WHATWG serialization without the fragment (as written when unparseable). */
export function citedUrl(url: string): string {
  try {
    const u = new URL(url)
    u.hash = ''
    return u.href
  } catch {
    return url
  }
}

/** The host of a cited URL's identity: WHATWG hostname, lower case, no trailing dot, no leading `www.`. */
export function citedHost(cited: string): string {
  try {
    return normalizeHost(new URL(cited).hostname.replace(/\.$/, ''))
  } catch {
    return ''
  }
}

/** Whether a normalized host is the site or a subdomain of it. */
export function hostMatches(host: string, site: string): boolean {
  return (
    host === site ||
    (host.length > site.length && host.endsWith(site) && host[host.length - site.length - 1] === '.')
  )
}

/** round(1000 * part / total) / 10 with halves rounded up; 0 when total is 0. */
export function percent1(part: number, total: number): number {
  if (total === 0) return 0
  return Math.floor((1000 * part) / total + 0.5) / 10
}

/** The four report functions, as every peer and the engine expose them. */
export interface ReportFunctions {
  computePromptSeries(p: PromptParams): Promise<unknown> | unknown
  computeCompetitorSeries(p: ModelParams): Promise<unknown> | unknown
  sentimentOverview(p: ModelParams): Promise<unknown> | unknown
  sentimentThemes(p: ModelParams): Promise<unknown> | unknown
}
export interface PromptParams {
  domainId: string
  days: number
  limit: number
  now: string
}
export interface ModelParams {
  domainId: string
  days: number
  model: string
  now: string
}
export type FunctionName = keyof ReportFunctions
export const FUNCTION_NAMES: readonly FunctionName[] = [
  'computePromptSeries',
  'computeCompetitorSeries',
  'sentimentOverview',
  'sentimentThemes',
]
