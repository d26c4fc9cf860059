/**
 * The bookkeeping types of an ingest call's collector: where a record came from, per-call integer
 * handles for ids, and the references from analyses awaiting their check.
 */

/** Where a record came from: a 1-based file line or a 0-based array index. */
export type RecordLocation = { line: number } | { index: number }

/** Issues kept per call (and sites kept per reference); the total is still counted. */
export const MAX_ISSUES = 100

export interface Located<T> {
  rec: T
  loc: RecordLocation
  prefix: string
}
export interface RefSite {
  loc: RecordLocation
  field: string
  prefix: string
}
export interface RefEntry {
  domainH: number
  refH: number
  sites: RefSite[]
}

/** Per-call integer handles for ids, so staged rows carry small integers instead of UUID strings. */
export class Handles {
  readonly ids: string[]
  readonly #byId = new Map<string, number>()
  constructor(
    readonly first: number,
    ids: string[] = [],
  ) {
    this.ids = ids
    ids.forEach((id, i) => this.#byId.set(id, first + i))
  }
  get(id: string): number {
    let h = this.#byId.get(id)
    if (h === undefined) {
      h = this.first + this.ids.length
      this.ids.push(id)
      this.#byId.set(id, h)
    }
    return h
  }
}

/** References from analyses, grouped by (analysis domain, referenced id), with up to a few sites each. */
export class RefTable {
  readonly #sites: Map<string, RefEntry>
  constructor(entries: RefEntry[] = []) {
    this.#sites = new Map(entries.map((e) => [`${e.domainH}:${e.refH}`, e]))
  }
  add(domainH: number, refH: number, site: RefSite): void {
    const key = `${domainH}:${refH}`
    const entry = this.#sites.get(key)
    if (entry === undefined) this.#sites.set(key, { domainH, refH, sites: [site] })
    else if (entry.sites.length < MAX_ISSUES) entry.sites.push(site)
  }
  values(): IterableIterator<RefEntry> {
    return this.#sites.values()
  }
}
