/**
 * Helpers of the webhook tests: real receivers on 127.0.0.1 (node:http on port 0) that record
 * every request and answer as told, and an engine with the tenants of the HTTP tests.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach } from 'vitest'
import { openEngine, webhooksOf, type Engine, type WebhookService } from '../../src/index.js'
import { tenantRecords } from '../http/helpers.js'

export { D, T } from '../http/helpers.js'

export interface ReceivedRequest {
  at: number
  method: string
  url: string
  headers: IncomingMessage['headers']
  body: string
}

export interface Receiver {
  url: string
  port: number
  requests: ReceivedRequest[]
  close(): Promise<void>
}

/**
 * A receiver; `answer` decides each response (return a status, or 'hang' to never answer).
 * @example
 * const r = await receiver(() => 200)
 */
export async function receiver(
  answer: (req: ReceivedRequest, n: number) => number | 'hang' = () => 200,
): Promise<Receiver> {
  const requests: ReceivedRequest[] = []
  const open = new Set<ServerResponse>()
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const r = {
        at: Date.now(),
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      }
      requests.push(r)
      const status = answer(r, requests.length)
      if (status === 'hang') {
        open.add(res)
        return
      }
      res.writeHead(status, { 'content-type': 'text/plain' }).end('ok')
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/hook`,
    port,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of open) res.destroy()
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

/** An in-memory engine with the test tenants and its webhooks (private addresses allowed: 127.0.0.1). */
export async function engineWithHooks(): Promise<{ engine: Engine; hooks: WebhookService }> {
  const engine = await openEngine()
  await engine.ingest(tenantRecords())
  const hooks = webhooksOf(engine)!
  hooks.configure({ allowPrivate: true })
  return { engine, hooks }
}

/**
 * One engine with webhooks per test and the receivers the test listens with, all closed after each
 * test (registers its own afterEach).
 * @example
 * const t = hooksPerTest()
 * it('delivers', async () => { const hooks = await t.setup(); const r = await t.listen(); ... })
 */
export function hooksPerTest(): {
  setup(): Promise<WebhookService>
  listen(answer?: Parameters<typeof receiver>[0]): Promise<Receiver>
  engine(): Engine
} {
  let engine: Engine | undefined
  let receivers: Receiver[] = []
  afterEach(async () => {
    await engine?.close()
    engine = undefined
    await Promise.all(receivers.map((r) => r.close()))
    receivers = []
  })
  return {
    async setup() {
      const made = await engineWithHooks()
      engine = made.engine
      return made.hooks
    },
    async listen(answer) {
      const r = await receiver(answer)
      receivers.push(r)
      return r
    },
    engine() {
      if (engine === undefined) throw new Error('setup() first')
      return engine
    },
  }
}

/** Polls `check` every 10 ms until it is true, at most `ms`; false when it never was. */
export async function until(check: () => boolean | Promise<boolean>, ms = 5000): Promise<boolean> {
  const end = Date.now() + ms
  while (Date.now() < end) {
    if (await check()) return true
    await new Promise((r) => setTimeout(r, 10))
  }
  return check()
}

/** A fake signal (the detector's items): a stable id and some fields. */
export function signal(
  id: string,
  extra: Record<string, unknown> = {},
): { id: string } & Record<string, unknown> {
  return { id, metric: 'visibility', visibility_delta: 7.5, tier: 'confident', ...extra }
}
