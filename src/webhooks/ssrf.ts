/**
 * @module The webhook URL guard (docs/WEBHOOKS.md, "Which URLs are refused"): a receiver URL is
 * http(s) only, and every address its host stands for (an IP literal in any of its spellings, or
 * every address a DNS name resolves to) must be a public unicast address. Loopback, private,
 * link-local, CGNAT and (IPv6) unique-local addresses are allowed only when the operator says so
 * (`VA_WEBHOOK_ALLOW_PRIVATE=1`); unspecified, broadcast, multicast, reserved, cloud metadata and
 * Teredo addresses never. IPv6 forms that embed an IPv4 address (mapped `::ffff:a.b.c.d`, NAT64
 * `64:ff9b::/96`, 6to4 `2002::/16`) are judged by the address they embed; the deprecated
 * IPv4-compatible form (`::a.b.c.d`) and local NAT64 (`64:ff9b:1::/48`) are refused.
 *
 * The check returns the address it approved: the delivery connects to that address (never
 * resolving the name a second time), which defeats DNS rebinding.
 *
 * IP range classification: ipaddr.js (the library behind Express's proxy-addr).
 */
import { lookup as dnsLookup } from 'node:dns/promises'
import { createRequire } from 'node:module'
import type * as IpAddr from 'ipaddr.js'

// ipaddr.js is CommonJS without named exports Node can see: loaded with require.
const ipaddr = createRequire(import.meta.url)('ipaddr.js') as typeof IpAddr

/** Addresses of a host name: every A and AAAA answer. */
export type Resolver = (hostname: string) => Promise<readonly { address: string; family: number }[]>

/** The operating system's resolver (getaddrinfo), every address. */
export const systemResolver: Resolver = (hostname) => dnsLookup(hostname, { all: true, verbatim: true })

export interface UrlGuardOptions {
  /** Loopback, private, link-local, CGNAT and unique-local addresses allowed (VA_WEBHOOK_ALLOW_PRIVATE=1). */
  allowPrivate: boolean
  /** Resolves host names (default: the system resolver). */
  resolve?: Resolver | undefined
}

/** An approved URL: where to connect. */
export interface CheckedUrl {
  url: URL
  /** The approved address to connect to (IPv6 without brackets). */
  address: string
  family: 4 | 6
}

/** A refused webhook URL; `message` says why, naming the address (never a stack). */
export class UnsafeUrlError extends Error {
  override readonly name = 'UnsafeUrlError'
}

/** Addresses refused whatever the operator allows: cloud metadata services. */
const METADATA = new Set(['169.254.169.254', 'fd00:ec2::254'])

/** IPv4 ranges that `allowPrivate` lets through. */
const PRIVATE_V4 = new Set(['private', 'loopback', 'linkLocal', 'carrierGradeNat'])
/** IPv6 ranges that `allowPrivate` lets through. */
const PRIVATE_V6 = new Set(['loopback', 'linkLocal', 'uniqueLocal'])

const LOCAL_NAT64 = ipaddr.parseCIDR('64:ff9b:1::/48')
const IPV4_COMPATIBLE = ipaddr.parseCIDR('::/96')

/**
 * Why an address may not receive webhooks, or null when it may.
 * @example
 * addressProblem('10.0.0.1', { allowPrivate: false }) // 'a private address (10.0.0.1)'
 */
export function addressProblem(address: string, options: { allowPrivate: boolean }): string | null {
  if (!ipaddr.isValid(address)) return `not an IP address (${address})`
  const parsed = ipaddr.parse(address)
  const text = parsed.toString()
  if (METADATA.has(text)) return `a cloud metadata address (${text})`
  if (parsed.kind() === 'ipv4') {
    const range = (parsed as IpAddr.IPv4).range()
    if (range === 'unicast') return null
    if (PRIVATE_V4.has(range)) return options.allowPrivate ? null : `a ${rangeName(range)} address (${text})`
    return `a ${rangeName(range)} address (${text})`
  }
  const v6 = parsed as IpAddr.IPv6
  const range = v6.range()
  if (range !== 'unspecified' && range !== 'loopback' && v6.match(IPV4_COMPATIBLE))
    return `an IPv4-compatible IPv6 address (${text})`
  if (v6.match(LOCAL_NAT64)) return `a local NAT64 address (${text})`
  if (range === 'ipv4Mapped' || range === 'rfc6052' || range === '6to4') {
    const embedded = embeddedV4(v6, range)
    const problem = addressProblem(embedded, options)
    return problem === null ? null : `an IPv6 address embedding ${problem} (${text})`
  }
  if (range === 'unicast') return null
  if (PRIVATE_V6.has(range)) return options.allowPrivate ? null : `a ${rangeName(range)} address (${text})`
  return `a ${rangeName(range)} address (${text})`
}

/** The IPv4 address a mapped, NAT64 or 6to4 IPv6 address embeds. */
function embeddedV4(v6: IpAddr.IPv6, range: string): string {
  const p = v6.parts
  const [hi, lo] = range === '6to4' ? [p[1]!, p[2]!] : [p[6]!, p[7]!]
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`
}

const RANGE_NAMES: Readonly<Record<string, string>> = {
  loopback: 'loopback',
  private: 'private',
  linkLocal: 'link-local',
  carrierGradeNat: 'carrier-grade NAT',
  uniqueLocal: 'unique-local',
  unspecified: 'unspecified',
  broadcast: 'broadcast',
  multicast: 'multicast',
  teredo: 'Teredo',
}

function rangeName(range: string): string {
  return RANGE_NAMES[range] ?? `reserved (${range})`
}

/**
 * Why a URL cannot be a webhook URL on its face (scheme, host, length), or null. Its host is not
 * resolved: `checkUrl` does that.
 */
export function urlShapeProblem(raw: string): string | null {
  if (raw.length > 2048) return 'url must be at most 2048 characters.'
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    return 'url must be an absolute http:// or https:// URL.'
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return `url must use http or https, not ${url.protocol.slice(0, -1)}.`
  if (url.hostname === '') return 'url must name a host.'
  return null
}

/**
 * Checks a webhook URL and returns the address to connect to: an IP host (in any spelling the URL
 * parser accepts: decimal, octal, hex, short IPv4 forms all normalize to dotted quads) is judged
 * itself; a name is resolved and EVERY address it resolves to must pass. Throws UnsafeUrlError.
 * @example
 * const { address } = await checkUrl('https://hooks.example.com/x', { allowPrivate: false })
 */
export async function checkUrl(raw: string, options: UrlGuardOptions): Promise<CheckedUrl> {
  const shape = urlShapeProblem(raw)
  if (shape !== null) throw new UnsafeUrlError(shape)
  const url = new URL(raw)
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname
  if (ipaddr.isValid(host)) {
    const problem = addressProblem(host, options)
    if (problem !== null) throw new UnsafeUrlError(`url: the host is ${problem}.`)
    return { url, address: host, family: ipaddr.parse(host).kind() === 'ipv4' ? 4 : 6 }
  }
  let addresses: readonly { address: string; family: number }[]
  try {
    addresses = await (options.resolve ?? systemResolver)(host)
  } catch (e) {
    const code = (e as { code?: unknown }).code
    throw new UnsafeUrlError(
      `url: the host ${host} does not resolve (${typeof code === 'string' ? code : 'error'}).`,
    )
  }
  if (addresses.length === 0) throw new UnsafeUrlError(`url: the host ${host} does not resolve.`)
  for (const a of addresses) {
    const problem = addressProblem(a.address, options)
    if (problem !== null) throw new UnsafeUrlError(`url: the host ${host} resolves to ${problem}.`)
  }
  const first = addresses[0]!
  return { url, address: first.address, family: first.family === 6 ? 6 : 4 }
}
