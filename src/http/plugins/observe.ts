/**
 * @module What the service does on its own account: every answered request counted in the
 * metrics (route template, method, status, latency, cache result), and the daily prune of
 * VA_RETAIN_DAYS (once when the server is ready, then every interval; never two at once).
 */
import type { FastifyPluginAsync } from 'fastify'
import fp from 'fastify-plugin'
import { ENDPOINTS, type Endpoint } from '../../api/index.js'
import type { ServiceContext } from '../context.js'

/** The routes whose answers the response cache keeps (the others' X-Cache says nothing). */
const CACHED_ROUTES: ReadonlySet<string> = new Set(
  (ENDPOINTS as readonly Endpoint[]).filter((e) => e.cache !== 'none').map((e) => e.path),
)

const metrics: FastifyPluginAsync<{ ctx: ServiceContext }> = async (app, { ctx }) => {
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? null
    const cache = route !== null && CACHED_ROUTES.has(route) ? reply.getHeader('x-cache') : undefined
    ctx.metrics.observeRequest({
      method: request.method,
      route,
      status: reply.statusCode,
      seconds: reply.elapsedTime / 1000,
      cache: typeof cache === 'string' ? cache : undefined,
    })
    done()
  })
}

/** Counts every answered request (for the whole server). */
export const metricsPlugin = fp(metrics, { name: 'va-metrics' })

export interface RetentionOptions {
  ctx: ServiceContext
  /** Analyses older than today - retainDays are deleted. */
  retainDays: number
  intervalMs: number
}

const retention: FastifyPluginAsync<RetentionOptions> = async (app, { ctx, retainDays, intervalMs }) => {
  let running: Promise<void> | null = null
  const prune = () => {
    running ??= (async () => {
      try {
        const result = await ctx.engine.prune({ olderThanDays: retainDays, now: new Date(ctx.clock()) })
        ctx.clearCaches()
        ctx.metrics.observeOperation('prune', true)
        ctx.metrics.observeDeleted('prune', result.deleted)
        app.log.info({ prune: result, retainDays }, 'retention: pruned')
      } catch (error) {
        ctx.metrics.observeOperation('prune', false)
        if (ctx.engine.isOpen) app.log.error({ err: error }, 'retention: prune failed')
      } finally {
        running = null
      }
    })()
    return running
  }
  let timer: NodeJS.Timeout | undefined
  app.addHook('onReady', async () => {
    void prune()
    timer = setInterval(() => void prune(), intervalMs)
    timer.unref()
  })
  app.addHook('preClose', async () => {
    clearInterval(timer)
    await running
  })
}

/** The daily prune of VA_RETAIN_DAYS. */
export const retentionPlugin = fp(retention, { name: 'va-retention' })
