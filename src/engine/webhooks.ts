/**
 * @module The webhooks of each engine `openEngine` opened (docs/WEBHOOKS.md): the service is made
 * with the engine and reached by `webhooksOf(engine)`; a test fake has none.
 */
import type { Catalog } from '../catalog.js'
import type { Database } from '../db/database.js'
import { WebhookService, type SignalDetector } from '../webhooks/service.js'

const WEBHOOKS = new WeakMap<object, WebhookService>()

/**
 * The webhooks of an engine opened by `openEngine` (null for any other Engine, e.g. a test fake).
 * @example
 * const hooks = webhooksOf(engine); await hooks?.start()
 */
export function webhooksOf(engine: object): WebhookService | null {
  return WEBHOOKS.get(engine) ?? null
}

/**
 * Makes `alias` (an engine wrapping `engine`, e.g. a cluster shard's) reach `engine`'s webhooks.
 * @example
 * shareWebhooks(engine, served)
 */
export function shareWebhooks(engine: object, alias: object): void {
  const hooks = WEBHOOKS.get(engine)
  if (hooks !== undefined) WEBHOOKS.set(alias, hooks)
}

/**
 * Makes the webhooks of `engine`: teams and domains from its current catalog, signals from `detect`.
 * @example
 * const hooks = attachWebhooks(this, db, () => this.catalog, detect)
 */
export function attachWebhooks(
  engine: object,
  db: Database,
  catalog: () => Catalog,
  detect: SignalDetector,
): WebhookService {
  const hooks = new WebhookService(
    () => db.instance,
    {
      domainTeam: (id) => catalog().domains.get(id)?.team_id ?? null,
      teamExists: (id) => catalog().teams.has(id),
    },
    detect,
  )
  WEBHOOKS.set(engine, hooks)
  return hooks
}

/**
 * The ids of the domains a commit's changed days belong to (what detection looks at).
 * @example
 * hooks.touched(touchedDomains(catalog, staged.changedDays))
 */
export function touchedDomains(catalog: Catalog, changed: readonly { domainKey: number }[]): string[] {
  return changed.map((c) => catalog.domainsByKey[c.domainKey]!.id)
}
