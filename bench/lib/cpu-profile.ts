/**
 * A textual flame summary of a V8 CPU profile (`node --cpu-prof`): the top frames by self time and
 * by total time (each frame counted once per sampled stack), and self time by module (an npm
 * package, a folder of src/, Node's internals), as shares of the busy time (idle excluded).
 *
 *   node dist/bench/lib/cpu-profile.js <file.cpuprofile> [top]
 */
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

interface ProfileNode {
  id: number
  callFrame: { functionName: string; url: string; lineNumber: number }
  children?: number[]
}
interface CpuProfile {
  nodes: ProfileNode[]
  samples: number[]
  timeDeltas: number[]
}

export interface FrameRow {
  frame: string
  ms: number
  /** Share of the busy (non-idle) time, in percent. */
  pct: number
}

export interface ProfileSummary {
  file: string
  /** Sampled time in ms, and the part of it that was not idle. */
  totalMs: number
  busyMs: number
  self: FrameRow[]
  total: FrameRow[]
  modules: FrameRow[]
}

const IDLE = '(idle)'

function shortUrl(url: string): string {
  const u = url.replace(/^file:\/\//, '')
  const nm = u.lastIndexOf('/node_modules/')
  if (nm >= 0) return u.slice(nm + '/node_modules/'.length)
  const src = u.search(/\/(src|bench|dist)\//)
  return src >= 0 ? u.slice(src + 1).replace(/^dist\//, '') : u
}

function frameOf(n: ProfileNode): string {
  const { functionName, url, lineNumber } = n.callFrame
  const name = functionName || '(anonymous)'
  return url ? `${name} ${shortUrl(url)}:${lineNumber + 1}` : name
}

/** The module a frame's code belongs to: an npm package, `src/<folder>`, `node:` or V8's own. */
function moduleOf(n: ProfileNode): string {
  const url = n.callFrame.url
  if (!url) return n.callFrame.functionName || '(native)'
  if (url.startsWith('node:')) return 'node: (internals)'
  const short = shortUrl(url)
  if (url.includes('/node_modules/')) {
    const parts = short.split('/')
    return parts[0]!.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]!
  }
  const parts = short.split('/')
  return parts.length > 2 ? `${parts[0]}/${parts[1]}` : short
}

const rows = (m: Map<string, number>, busy: number, top: number): FrameRow[] =>
  [...m]
    .filter(([k]) => k !== IDLE)
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([frame, us]) => ({ frame, ms: Math.round(us / 1000), pct: +((100 * us) / busy).toFixed(1) }))

/**
 * @example
 * const s = summarizeProfile('bench/out/serve-profile-0/CPU.x.cpuprofile', 25)
 */
export function summarizeProfile(file: string, top = 25): ProfileSummary {
  const p = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile
  const byId = new Map(p.nodes.map((n) => [n.id, n]))
  const parent = new Map<number, number>()
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id)
  const self = new Map<string, number>()
  const total = new Map<string, number>()
  const modules = new Map<string, number>()
  let all = 0
  let idle = 0
  for (let i = 0; i < p.samples.length; i++) {
    const us = p.timeDeltas[i] ?? 0
    let node = byId.get(p.samples[i]!)
    if (node === undefined) continue
    all += us
    const leaf = frameOf(node)
    if (leaf === IDLE) {
      idle += us
      continue
    }
    self.set(leaf, (self.get(leaf) ?? 0) + us)
    const mod = moduleOf(node)
    modules.set(mod, (modules.get(mod) ?? 0) + us)
    const seen = new Set<string>()
    while (node !== undefined) {
      const f = frameOf(node)
      if (!seen.has(f) && f !== '(root)') {
        seen.add(f)
        total.set(f, (total.get(f) ?? 0) + us)
      }
      const up = parent.get(node.id)
      node = up === undefined ? undefined : byId.get(up)
    }
  }
  const busy = Math.max(1, all - idle)
  return {
    file,
    totalMs: Math.round(all / 1000),
    busyMs: Math.round(busy / 1000),
    self: rows(self, busy, top),
    total: rows(total, busy, top),
    modules: rows(modules, busy, top),
  }
}

/** The summary as text (what bench/NOTES.md quotes). */
export function formatSummary(s: ProfileSummary): string {
  const table = (title: string, r: FrameRow[]) => [
    `${title}:`,
    ...r.map((x) => `  ${x.pct.toFixed(1).padStart(5)} %  ${String(x.ms).padStart(6)} ms  ${x.frame}`),
  ]
  return [
    `${s.file}: ${s.totalMs} ms sampled, ${s.busyMs} ms busy`,
    ...table('self time by module', s.modules),
    ...table('top frames by self time', s.self),
    ...table('top frames by total time', s.total),
  ].join('\n')
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log(formatSummary(summarizeProfile(process.argv[2]!, Number(process.argv[3] ?? 30))))
}
