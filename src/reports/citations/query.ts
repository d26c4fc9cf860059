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
import { citedUrlRows, TEXTS, urlHosts } from '../../tables/cited-index.js'
import { type QueryContext } from '../../queries/context.js'
import { popcount32 } from '../../queries/prompt-masks.js'
import { comboMask } from '../../queries/model-filter.js'
import {
  citationScope,
  urlFrequencies,
  maskOrNull,
  topByValue,
  hostOwners,
  channelsAndModels,
  urlDetails,
  iso,
} from '../../queries/citation-lists.js'
import type { CitationItem, CitationsParams, CitationsPayload } from './contract.js'

/**
 * GET /citations: one item per distinct cited URL of the window's filtered analyses, by frequency
 * descending then URL; the first `limit`, and `total` before the cap.
 */
export async function computeCitations(
  ctx: QueryContext,
  params: CitationsParams,
): Promise<CitationsPayload> {
  const { p, domain, window, filter, envelope, get } = await citationScope(ctx, params)
  if (filter === null) return { data: { items: [], total: 0 }, ...envelope }
  const [urls, hosts, urlHost, titles, pageTypes, rows] = await Promise.all([
    get(TEXTS.urls),
    get(TEXTS.hosts),
    get(urlHosts),
    get(TEXTS.titles),
    get(TEXTS.pageTypes),
    get(citedUrlRows),
  ])
  const mask = maskOrNull(comboMask(rows.combos, filter))
  const { url, freq } = urlFrequencies(rows, window, mask, urls.text.length)
  const { top: topAt, total } = topByValue(freq, urls.rank, p.limit, url)
  const top = topAt.map((j) => url[j]!)
  const d = urlDetails(rows, window, mask, top, domain.prompts.length)
  const owners = hostOwners(domain)
  const items = top.map((u, s): CitationItem => {
    const host = urlHost[u]! < 0 ? '' : hosts.text[urlHost[u]!]!
    let prompts = 0
    for (let w = 0; w < d.pw; w++) prompts += popcount32(d.prompts[s * d.pw + w]!)
    const { channels, models } = channelsAndModels(d.combos, s * d.cw, rows.combos, ctx.catalog)
    return {
      url: urls.text[u]!,
      domain: host,
      title: d.title[s]! < 0 ? null : titles.text[d.title[s]!]!,
      page_type: d.pageType[s]! < 0 ? null : pageTypes.text[d.pageType[s]!]!,
      frequency: freq[topAt[s]!]!,
      responses: d.responses[s]!,
      prompt_count: prompts,
      brand_mentions: d.brand[s]!,
      channels,
      models,
      ...owners(host),
      first_seen: iso(d.firstSeen[s]!),
      last_seen: iso(d.lastSeen[s]!),
    }
  })
  return { data: { items, total }, ...envelope }
}
