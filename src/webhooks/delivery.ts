/**
 * @module One delivery attempt (docs/WEBHOOKS.md, "Delivery"): POST the event's body byte for byte
 * to the address the URL guard approved (a host name is never resolved again: the socket's lookup
 * answers the checked address, the Host header and TLS SNI keep the name), with the event id and
 * signature headers. No redirect is followed (node:http never follows one; a 3xx is a failed
 * attempt). An attempt that has no complete answer within the timeout is aborted and its
 * connection destroyed.
 */
import { createHmac } from 'node:crypto'
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http'
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https'
import type { LookupFunction } from 'node:net'
import type { CheckedUrl } from './ssrf.js'

/**
 * The `Visibility-Signature` header: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`,
 * keyed with the secret's UTF-8 bytes.
 * @example
 * signatureHeader('whsec_x', '{"id":"..."}', 1764086400)
 */
export function signatureHeader(secret: string, body: string, unixSeconds: number): string {
  const mac = createHmac('sha256', Buffer.from(secret, 'utf8')).update(`${unixSeconds}.${body}`).digest('hex')
  return `t=${unixSeconds},v1=${mac}`
}

/** What an attempt got: the status of a complete answer, or why there was none. */
export interface AttemptAnswer {
  status: number | null
  error: string | null
}

/** Keep-alive agents shared by every attempt of one worker. */
export interface Agents {
  http: HttpAgent
  https: HttpsAgent
}

export function createAgents(): Agents {
  return {
    http: new HttpAgent({ keepAlive: true, maxFreeSockets: 64 }),
    https: new HttpsAgent({ keepAlive: true, maxFreeSockets: 64 }),
  }
}

/** Largest answer body read (the rest is discarded with the connection). */
const MAX_ANSWER_BYTES = 64 * 1024

/**
 * POSTs one event body. Resolves (never rejects) with the status or the error.
 * @example
 * const answer = await postEvent(checked, body, { eventId, signature }, 10_000, agents)
 */
export function postEvent(
  target: CheckedUrl,
  body: string,
  headers: { eventId: string; signature: string },
  timeoutMs: number,
  agents: Agents,
): Promise<AttemptAnswer> {
  const { url, address, family } = target
  const https = url.protocol === 'https:'
  const hostname = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname
  // The checked address, whatever the name resolves to now (DNS rebinding).
  const lookup: LookupFunction = (_host, options, callback) => {
    if ((options as { all?: boolean }).all)
      (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [
        { address, family },
      ])
    else callback(null, address, family)
  }
  const payload = Buffer.from(body, 'utf8')
  return new Promise<AttemptAnswer>((resolve) => {
    let settled = false
    const settle = (answer: AttemptAnswer) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      resolve(answer)
    }
    const req = (https ? httpsRequest : httpRequest)({
      protocol: url.protocol,
      hostname,
      port: url.port === '' ? (https ? 443 : 80) : Number(url.port),
      path: `${url.pathname}${url.search}`,
      method: 'POST',
      lookup,
      agent: https ? agents.https : agents.http,
      ...(https ? { servername: hostname } : {}),
      headers: {
        host: url.host,
        'content-type': 'application/json',
        'content-length': payload.length,
        'user-agent': 'visibility-analytics-webhooks',
        'visibility-event-id': headers.eventId,
        'visibility-signature': headers.signature,
      },
    })
    const timer = setTimeout(() => {
      settle({ status: null, error: `timeout: no complete answer within ${timeoutMs / 1000} s` })
      req.destroy()
    }, timeoutMs)
    req.on('response', (res: IncomingMessage) => {
      let read = 0
      res.on('data', (chunk: Buffer) => {
        read += chunk.length
        if (read > MAX_ANSWER_BYTES) {
          settle({ status: res.statusCode ?? null, error: null })
          req.destroy()
        }
      })
      res.on('end', () => settle({ status: res.statusCode ?? null, error: null }))
      res.on('error', (e) => settle({ status: null, error: describe(e) }))
    })
    req.on('error', (e) => settle({ status: null, error: describe(e) }))
    req.end(payload)
  })
}

function describe(e: Error): string {
  const code = (e as { code?: unknown }).code
  return typeof code === 'string' ? `${code}: ${e.message}`.slice(0, 300) : e.message.slice(0, 300)
}
