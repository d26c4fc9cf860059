/** Reference checks of one ingest call (docs/API.md, "Ingest: records"), run once the whole call has been read. */
import type { Catalog } from '../catalog.js'
import type { RecordCollector } from './collector.js'
import type { RefSite } from './handles.js'

/** The domain id a prompt/competitor/theme id belongs to, from this call or the store. */
function memberDomain(
  c: RecordCollector,
  catalog: Catalog,
  kind: 'prompt' | 'competitor' | 'theme',
  id: string,
): string | undefined {
  const inCall = { prompt: c.prompts, competitor: c.competitors, theme: c.themes }[kind].get(id)
  if (inCall) return inCall.rec.domain_id.toLowerCase()
  const ref = {
    prompt: catalog.prompts,
    competitor: catalog.competitors,
    theme: catalog.themes,
  }[kind].get(id)
  return ref === undefined ? undefined : catalog.domainsByKey[ref.domainKey]!.id
}

function domainExists(c: RecordCollector, catalog: Catalog, id: string): boolean {
  return c.domains.has(id) || catalog.domains.has(id)
}

/** An issue at a reference site, named with the site's field prefix (flat input: its table). */
export function siteIssue(c: RecordCollector, site: RefSite, message: string): void {
  const prefix = c.fieldPrefix
  c.fieldPrefix = site.prefix
  c.issue(site.loc, site.field, message)
  c.fieldPrefix = prefix
}

/**
 * Checks the call's references once it has been read whole (order within a call does not matter):
 * each domain's team, each prompt, competitor and theme's domain, and each analysis's domain,
 * prompt, competitor and theme exist in the store or in the call, and belong to the analysis's
 * domain (docs/API.md, "Ingest: records"). Problems become issues of the collector.
 */
export function checkReferences(c: RecordCollector, catalog: Catalog): void {
  for (const [id, { rec, loc, prefix }] of c.domains) {
    const team = rec.team_id.toLowerCase()
    const storedTeam = catalog.domains.get(id)?.team_id
    if (!c.teams.has(team) && !catalog.teams.has(team)) {
      siteIssue(
        c,
        { loc, field: 'team_id', prefix },
        `team ${team} exists neither in the store nor in this call`,
      )
    } else if (storedTeam !== undefined && storedTeam !== team) {
      // Moving a domain would hand its whole history to the other team's keys at once.
      siteIssue(
        c,
        { loc, field: 'team_id', prefix },
        `the domain is stored under team ${storedTeam}; its team cannot change`,
      )
    }
  }
  const members = [
    ['prompt', c.prompts, catalog.prompts],
    ['competitor', c.competitors, catalog.competitors],
    ['theme', c.themes, catalog.themes],
  ] as const
  for (const [kind, map, stored] of members) {
    for (const [id, { rec, loc, prefix }] of map) {
      const domain = rec.domain_id.toLowerCase()
      const site = { loc, field: 'domain_id', prefix }
      if (!domainExists(c, catalog, domain)) {
        siteIssue(c, site, `domain ${domain} exists neither in the store nor in this call`)
        continue
      }
      const ref = stored.get(id)
      const storedDomain = ref && catalog.domainsByKey[ref.domainKey]!.id
      if (storedDomain !== undefined && storedDomain !== domain) {
        c.issue(
          loc,
          'domain_id',
          `the ${kind} is stored under domain ${storedDomain}; its domain cannot change`,
        )
      }
    }
  }
  const domainIds = c.domainH.ids
  for (const { domainH, sites } of c.domainRefs.values()) {
    const domain = domainIds[domainH]!
    if (!domainExists(c, catalog, domain)) {
      for (const s of sites)
        c.issue(s.loc, s.field, `domain ${domain} exists neither in the store nor in this call`)
    }
  }
  for (const { kind, domain, id, sites } of memberReferences(c)) {
    const owner = memberDomain(c, catalog, kind, id)
    let message: string | undefined
    if (owner === undefined) message = `${kind} ${id} exists neither in the store nor in this call`
    else if (owner !== domain)
      message = `${kind} ${id} belongs to domain ${owner}, not to the analysis's domain ${domain}`
    if (message !== undefined) for (const s of sites) siteIssue(c, s, message)
  }
}

/**
 * The call's references from analyses to prompts, competitors and themes: the kind, the
 * analysis's domain, the referenced id, and up to a few sites.
 */
export function* memberReferences(
  c: RecordCollector,
): Generator<{ kind: 'prompt' | 'competitor' | 'theme'; domain: string; id: string; sites: RefSite[] }> {
  const tables = [
    ['prompt', c.promptRefs, c.promptH],
    ['competitor', c.entityRefs, c.entityH],
    ['theme', c.themeRefs, c.themeH],
  ] as const
  for (const [kind, refs, handles] of tables) {
    for (const { domainH, refH, sites } of refs.values())
      yield { kind, domain: c.domainH.ids[domainH]!, id: handles.ids[refH - handles.first]!, sites }
  }
}
