/**
 * The webhook URL guard, form by form: every refused range in IPv4 and IPv6, the IPv4 spellings the
 * URL parser folds (decimal, octal, hex, short), IPv6 forms embedding IPv4, names resolving to any
 * refused address (ALL answers checked), what VA_WEBHOOK_ALLOW_PRIVATE lets through (and what it
 * never does), schemes, and the address handed to the connection (the one checked).
 */
import { describe, expect, it } from 'vitest'
import { addressProblem, checkUrl, UnsafeUrlError, type Resolver } from '../../src/webhooks/ssrf.js'

const off = { allowPrivate: false }
const on = { allowPrivate: true }

/** Private-class addresses: refused, unless allowPrivate. */
const PRIVATE = [
  '127.0.0.1',
  '127.255.255.254',
  '10.0.0.1',
  '10.255.255.255',
  '172.16.0.1',
  '172.31.255.255',
  '192.168.1.1',
  '169.254.1.1',
  '100.64.0.1',
  '100.127.255.255',
  '::1',
  'fe80::1',
  'fc00::1',
  'fd12:3456::1',
  '::ffff:127.0.0.1',
  '::ffff:10.1.2.3',
  '64:ff9b::a00:1',
  '2002:c0a8:101::1',
]
/** Refused whatever the operator allows. */
const NEVER = [
  '0.0.0.0',
  '255.255.255.255',
  '224.0.0.1',
  '239.255.255.250',
  '169.254.169.254',
  'fd00:ec2::254',
  '192.0.2.1',
  '240.0.0.1',
  '::',
  'ff02::1',
  '::7f00:1',
  '64:ff9b:1::a00:1',
  '2001::1',
  '::ffff:169.254.169.254',
  '::ffff:0.0.0.0',
]
const PUBLIC = ['8.8.8.8', '1.1.1.1', '172.32.0.1', '100.128.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8']

describe('addressProblem', () => {
  it.each(PRIVATE)('refuses %s unless private addresses are allowed', (a) => {
    expect(addressProblem(a, off)).toMatch(/address/)
    expect(addressProblem(a, on)).toBeNull()
  })
  it.each(NEVER)('refuses %s always', (a) => {
    expect(addressProblem(a, off)).not.toBeNull()
    expect(addressProblem(a, on)).not.toBeNull()
  })
  it.each(PUBLIC)('accepts the public %s', (a) => {
    expect(addressProblem(a, off)).toBeNull()
  })
  it('names the range and the metadata address', () => {
    expect(addressProblem('169.254.169.254', on)).toBe('a cloud metadata address (169.254.169.254)')
    expect(addressProblem('10.0.0.1', off)).toBe('a private address (10.0.0.1)')
    expect(addressProblem('100.64.0.1', off)).toBe('a carrier-grade NAT address (100.64.0.1)')
  })
})

/** A resolver answering from a table (no DNS traffic). */
const table =
  (answers: Record<string, string[]>): Resolver =>
  async (host) => {
    const list = answers[host]
    if (list === undefined) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' })
    return list.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }))
  }

describe('checkUrl', () => {
  const resolve = table({
    'public.example': ['93.184.216.34'],
    'mixed.example': ['93.184.216.34', '10.0.0.7'],
    'v6loop.example': ['2606:4700::1', '::1'],
    'meta.example': ['169.254.169.254'],
    'mapped.example': ['::ffff:127.0.0.1'],
    localhost: ['127.0.0.1', '::1'],
  })

  it.each([
    'http://127.0.0.1/hook',
    'http://2130706433/',
    'http://0177.0.0.1/',
    'http://0x7f.1/',
    'http://0x7f000001/',
    'http://127.1/',
    'http://017700000001/',
    'http://[::1]:8080/',
    'http://[::ffff:127.0.0.1]/',
    'http://[::ffff:7f00:1]/',
    'http://[::127.0.0.1]/',
    'http://0/',
    'http://169.254.169.254/latest/meta-data',
    'http://[fd00:ec2::254]/',
    'http://10.0.0.1/',
    'https://192.168.0.10/',
    'http://100.64.1.1/',
    'http://[fe80::1]/',
    'http://[fc00::1]/',
    'http://224.0.0.1/',
    'http://255.255.255.255/',
    'http://mixed.example/',
    'http://v6loop.example/',
    'http://meta.example/',
    'http://mapped.example/',
    'http://localhost/',
    'http://nowhere.example/',
    'ftp://93.184.216.34/',
    'file:///etc/passwd',
    'gopher://93.184.216.34/',
    'not a url',
  ])('refuses %s', async (url) => {
    await expect(checkUrl(url, { ...off, resolve })).rejects.toBeInstanceOf(UnsafeUrlError)
  })

  it('accepts a public literal and a name whose every address is public, and returns the address checked', async () => {
    await expect(checkUrl('https://93.184.216.34/x', off)).resolves.toMatchObject({
      address: '93.184.216.34',
      family: 4,
    })
    await expect(checkUrl('https://public.example/x?a=1', { ...off, resolve })).resolves.toMatchObject({
      address: '93.184.216.34',
      family: 4,
    })
    await expect(checkUrl('http://[2606:4700::1]/', off)).resolves.toMatchObject({
      address: '2606:4700::1',
      family: 6,
    })
  })

  it('checks every resolved address, not only the first', async () => {
    await expect(checkUrl('http://mixed.example/', { ...off, resolve })).rejects.toThrow(
      'url: the host mixed.example resolves to a private address (10.0.0.7).',
    )
  })

  it('lets loopback through with allowPrivate, never the metadata address', async () => {
    await expect(checkUrl('http://127.0.0.1:9/x', on)).resolves.toMatchObject({ address: '127.0.0.1' })
    await expect(checkUrl('http://localhost/', { ...on, resolve })).resolves.toMatchObject({
      address: '127.0.0.1',
    })
    await expect(checkUrl('http://meta.example/', { ...on, resolve })).rejects.toThrow(/metadata/)
    await expect(checkUrl('http://169.254.169.254/', on)).rejects.toThrow(/metadata/)
  })

  it('says why, naming the address', async () => {
    await expect(checkUrl('http://0x7f.1/', off)).rejects.toThrow(
      'url: the host is a loopback address (127.0.0.1).',
    )
    await expect(checkUrl('ftp://x.example/', off)).rejects.toThrow('url must use http or https, not ftp.')
  })
})
