/**
 * Citations and cited domains: docs/API.md, "Citations, fan-out and sentiment over time".
 *
 * Both read the domain's per-(day, channel, model, prompt, URL) citation rows, grouped by URL and
 * sorted by day within each URL (src/tables/cited-index.ts). Every URL's frequency in the window
 * comes from its running sum of entries (two binary searches per URL) when every analysis passes
 * the model filter, else from its rows in the window; the report then keeps the first `limit` URLs
 * (or hosts) by frequency and UTF-16 order, and only for those reads the rows again for the rest
 * (citing analyses, prompts, channels, models, title, page type, first and last seen). Hosts take
 * their citing analyses from the per-(day, channel, model, host) rows, since one analysis may cite
 * several URLs of a host.
 */
import { citedHostRows, citedUrlRows, TEXTS, urlHosts } from '../../tables/cited-index.js'
import { type QueryContext } from '../../queries/context.js'
import { comboMask } from '../../queries/model-filter.js'
import { rowRange } from '../../foundation/window.js'
import {
  citationScope,
  urlFrequencies,
  maskOrNull,
  topByValue,
  hostOwners,
} from '../../queries/citation-lists.js'
import type { CitedDomainItem, CitedDomainsParams, CitedDomainsPayload } from './contract.js'

/**
 * GET /cited-domains: one item per cited host of the window's filtered analyses, by frequency
 * descending then host; the first `limit`, and `total` before the cap.
 */
export async function computeCitedDomains(
  ctx: QueryContext,
  params: CitedDomainsParams,
): Promise<CitedDomainsPayload> {
  const { p, domain, window, filter, envelope, get } = await citationScope(ctx, params)
  if (filter === null) return { data: { items: [], total: 0 }, ...envelope }
  const [hosts, urlHost, rows, hostRows] = await Promise.all([
    get(TEXTS.hosts),
    get(urlHosts),
    get(citedUrlRows),
    get(citedHostRows),
  ])
  const urlMask = maskOrNull(comboMask(rows.combos, filter))
  const cited = urlFrequencies(rows, window, urlMask, urlHost.length)
  const nHosts = hosts.text.length
  const freq = new Float64Array(nHosts)
  const urls = new Float64Array(nHosts)
  let all = 0
  for (let j = 0; j < cited.url.length; j++) {
    const f = cited.freq[j]!
    const h = urlHost[cited.url[j]!]!
    freq[h]! += f
    urls[h]! += 1
    all += f
  }
  const { top, total } = topByValue(freq, hosts.rank, p.limit)
  const slotOf = new Int32Array(nHosts).fill(-1)
  top.forEach((h, s) => (slotOf[h] = s))
  const responses = new Float64Array(top.length)
  const hostMask = comboMask(hostRows.combos, filter)
  const [hFrom, hTo] = rowRange(hostRows.day, window)
  for (let i = hFrom; i < hTo; i++) {
    const s = slotOf[hostRows.host[i]!]!
    if (s >= 0 && hostMask[hostRows.combo[i]!] === 1) responses[s]! += hostRows.analyses[i]!
  }
  const owners = hostOwners(domain)
  const items = top.map((h, s): CitedDomainItem => ({
    domain: hosts.text[h]!,
    frequency: freq[h]!,
    responses: responses[s]!,
    urls: urls[h]!,
    share: (freq[h]! * 100) / all,
    ...owners(hosts.text[h]!),
  }))
  return { data: { items, total }, ...envelope }
}
