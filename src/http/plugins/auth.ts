/**
 * @module API-key authentication, checks 1-3 of the order of checks (docs/API.md): 401 key, 429
 * rate limit, 403 key team, in an onRequest hook, before any parameter is read. Every response to
 * a request with a valid key carries the X-RateLimit-* headers; a 5xx answer is refunded.
 */
import type { FastifyPluginAsync, FastifyReply, FastifyRequest, onRequestAsyncHookHandler } from 'fastify'
import fp from 'fastify-plugin'
import { checkKeyTeam, DETAIL } from '../../api/index.js'
import type { ApiKeyInfo } from '../../index.js'
import type { Caller, ServiceContext } from '../context.js'
import type { RateLimitDecision } from '../rate-limit.js'

declare module 'fastify' {
  interface FastifyInstance {
    /** onRequest hook of the routes that need an API key. */
    authenticate: onRequestAsyncHookHandler
  }
  interface FastifyRequest {
    /** The authenticated caller; null until `authenticate` accepted the key. */
    caller: Caller | null
  }
}

/** A token as `bearerToken` accepts it: 1-512 visible ASCII characters, no spaces. */
const TOKEN = '[\\x21-\\x7e]{1,512}'
const BEARER = new RegExp(`^Bearer +(${TOKEN}) *$`, 'i')

/**
 * The secret of an `Authorization: Bearer <key>` header, or null when absent or malformed.
 * @example
 * bearerToken('Bearer va_live_abc') // 'va_live_abc'
 */
export function bearerToken(header: string | undefined): string | null {
  if (header === undefined) return null
  const match = BEARER.exec(header)
  return match?.[1] ?? null
}

/**
 * Why an admin token could never be presented as `Authorization: Bearer <token>` (or is too
 * short to be safe), or null when it is fine.
 * @example
 * adminTokenProblem('has spaces in it, sadly') // 'VA_ADMIN_TOKEN must be ... without spaces ...'
 */
export function adminTokenProblem(token: string): string | null {
  if (token.length < 16) return 'VA_ADMIN_TOKEN must be at least 16 characters.'
  if (!new RegExp(`^${TOKEN}$`).test(token))
    return 'VA_ADMIN_TOKEN must be at most 512 visible ASCII characters without spaces (it is sent as a bearer token).'
  return null
}

/**
 * The X-RateLimit-* headers of a counted request.
 * @example
 * setRateHeaders(reply, await ctx.limiter.hit(key.id))
 */
export function setRateHeaders(reply: FastifyReply, rate: RateLimitDecision): void {
  reply.header('x-ratelimit-limit', String(rate.limit))
  reply.header('x-ratelimit-remaining', String(rate.remaining))
  reply.header('x-ratelimit-reset', String(rate.reset))
}

/**
 * Check 1: the key of the request's bearer token; null once the 401 is sent.
 * @example
 * const key = await requireKey(ctx, request, reply)
 * if (key === null) return reply
 */
export async function requireKey(
  ctx: ServiceContext,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<ApiKeyInfo | null> {
  const token = bearerToken(request.headers.authorization)
  const key = token === null ? null : await ctx.verifyKey(token)
  if (key === null) {
    void reply
      .code(401)
      .header('www-authenticate', 'Bearer realm="visibility-analytics"')
      .send({ detail: DETAIL.unauthorized })
  }
  return key
}

const auth: FastifyPluginAsync<{ ctx: ServiceContext }> = async (app, { ctx }) => {
  app.decorateRequest('caller', null)

  app.decorate('authenticate', async function authenticate(request: FastifyRequest, reply: FastifyReply) {
    const key = await requireKey(ctx, request, reply)
    if (key === null) return reply
    const rate = await ctx.limiter.hit(key.id)
    request.caller = { key, rate }
    setRateHeaders(reply, rate)
    if (!rate.allowed) {
      return reply
        .code(429)
        .header('retry-after', String(rate.retryAfter))
        .send({ detail: DETAIL.tooManyRequests })
    }
    const refusal = checkKeyTeam(await ctx.engine.getTeam(key.team_id))
    if (refusal !== null) return reply.code(refusal.status).send({ detail: refusal.detail })
    return undefined
  })

  // A request answered 5xx does not count against the key's limit.
  app.addHook('onSend', (request, reply, payload, done) => {
    const caller = request.caller
    if (caller === null || reply.statusCode < 500) return done(null, payload)
    Promise.resolve(ctx.limiter.refund(caller.key.id, caller.rate.windowStart)).then((rate) => {
      caller.rate = rate
      setRateHeaders(reply, rate)
      done(null, payload)
    }, done)
  })
}

/** Decorates the server with `authenticate` and `request.caller`. */
export const authPlugin = fp(auth, { name: 'va-auth' })
