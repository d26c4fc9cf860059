/**
 * @module What an ingest call tells the read side when it commits: the domains and days whose
 * aggregates changed (sql/ingest/affected_domains.sql). Ingest produces it, the aggregate store
 * (src/tables/aggregate-store.ts) consumes it; neither imports the other.
 */

/** Days since 1970-01-01, both included. */
export interface DayRange {
  from: number
  to: number
}

/** What one commit changed: the domain and the range of its days whose aggregates changed. */
export interface DomainChange extends DayRange {
  domainKey: number
}
