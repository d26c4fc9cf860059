/**
 * The deployment files (no container runtime or systemd here: parsed, not run): the commands they
 * run exist (npm scripts, `visibility` subcommands and flags, per the CLI's registry), the health
 * check calls a real route, the exposed port is the default; docs/DEPLOY.md lists every VA_*
 * variable the code reads.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { API_PATHS, loadConfig } from '../../src/http/index.js'
import { COMMANDS } from '../../src/cli/registry.js'

const root = fileURLToPath(new URL('../..', import.meta.url))
const read = (name: string) => readFileSync(join(root, name), 'utf8')
const pkg = JSON.parse(read('package.json')) as {
  scripts: Record<string, string>
  bin: Record<string, string>
}

/** Checks `visibility ARGS...`: a known command (and subcommand) whose help offers every flag used. */
function checkCli(args: string[], where: string): void {
  const [name, ...rest] = args
  const command = COMMANDS.get(name!)
  expect(command, `${where}: visibility ${name}`).toBeDefined()
  const sub = rest.find((a) => !a.startsWith('-'))
  const help =
    sub !== undefined && command!.subcommands?.has(sub) ? command!.subcommands.get(sub)!() : command!.help()
  for (const flag of rest.filter((a) => a.startsWith('--')))
    expect(`${help}\n${command!.help()}`, `${where}: visibility ${args.join(' ')}`).toContain(flag)
}

function* files(dir: string): Generator<string> {
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry)
    if (statSync(path).isDirectory()) yield* files(path)
    else if (path.endsWith('.ts')) yield path
  }
}

describe('Dockerfile', () => {
  const text = read('Dockerfile').replace(/\\\n/g, ' ')
  const lines = text.split('\n').filter((l) => !l.startsWith('#') && l.trim() !== '')

  it('two stages, npm ci and build, production dependencies only at runtime, a non-root user', () => {
    expect(lines.filter((l) => l.startsWith('FROM '))).toHaveLength(2)
    for (const run of lines.filter((l) => l.startsWith('RUN ')))
      for (const m of run.matchAll(/npm run ([\w:-]+)/g)) expect(pkg.scripts[m[1]!], run).toBeDefined()
    expect(text).toMatch(/RUN npm ci --omit=dev/)
    expect(lines.find((l) => l.startsWith('USER '))).toBe('USER node')
    expect(text).toMatch(/VOLUME \["\/data"\]/)
  })

  it('the entry point is the bin, the command a real subcommand; the health check calls /healthz on the default port', () => {
    const entry = JSON.parse(lines.find((l) => l.startsWith('ENTRYPOINT '))!.slice(11)) as string[]
    expect(entry).toEqual(['node', pkg.bin.visibility!.replace(/^\.\//, '')])
    checkCli(JSON.parse(lines.find((l) => l.startsWith('CMD '))!.slice(4)) as string[], 'CMD')
    const health = lines.find((l) => l.startsWith('HEALTHCHECK '))!
    expect(health).toContain(`'${API_PATHS.health}'`)
    const port = String(loadConfig({}).port)
    expect(lines.find((l) => l.startsWith('EXPOSE '))).toBe(`EXPOSE ${port}`)
    expect(health).toContain(`||${port})`)
    expect(text).toContain(`VA_PORT=${port}`)
  })
})

describe('compose files', () => {
  type Service = { command?: string[]; ports?: string[]; image?: string; build?: string }
  const composes = ['docker-compose.yml', 'deploy/compose.cluster.yml'].map(
    (name) => [name, parse(read(name)) as { services: Record<string, Service> }] as const,
  )

  it('every visibility service runs a real subcommand with flags it offers; published ports match', () => {
    let checked = 0
    for (const [name, compose] of composes) {
      for (const [service, def] of Object.entries(compose.services)) {
        if (!(def.image ?? '').startsWith('visibility-analytics') && def.build === undefined) continue
        if (def.command !== undefined) {
          checkCli(def.command, `${name} ${service}`)
          checked += 1
        }
      }
    }
    expect(checked).toBeGreaterThanOrEqual(4)
    const single = composes[0]![1].services.visibility!
    expect(single.ports).toEqual([`${loadConfig({}).port}:${loadConfig({}).port}`])
  })

  it('the cluster has PostgreSQL, HAProxy reading the generated configuration, and two shards', () => {
    const cluster = composes[1]![1].services
    expect(cluster.postgres?.image).toMatch(/^postgres:/)
    expect(cluster.haproxy?.command?.join(' ')).toContain('/router/haproxy.cfg')
    const shards = Object.values(cluster).filter(
      (s) => s.command?.[0] === 'serve' && s.command.includes('--shard'),
    )
    expect(shards).toHaveLength(2)
  })
})

describe('systemd unit and docs/DEPLOY.md', () => {
  it('the unit starts the bin with serve, as a dedicated user, sandboxed', () => {
    const unit = read('deploy/visibility.service')
    const exec = /^ExecStart=\S+ \S+\/(dist\/src\/cli\/main\.js) (.*)$/m.exec(unit)!
    expect(exec[1]).toBe(pkg.bin.visibility!.replace(/^\.\//, ''))
    checkCli(exec[2]!.split(' '), 'ExecStart')
    for (const option of [
      'NoNewPrivileges=true',
      'ProtectSystem=strict',
      'User=visibility',
      'PrivateTmp=true',
    ])
      expect(unit).toContain(option)
  })

  it('docs/DEPLOY.md lists every VA_ variable read in src/', () => {
    const used = new Set<string>()
    for (const file of files(join(root, 'src')))
      for (const m of readFileSync(file, 'utf8').matchAll(/\bVA_[A-Z0-9_]+\b/g)) used.add(m[0])
    expect(used.size).toBeGreaterThan(20)
    const deploy = read('docs/DEPLOY.md')
    for (const name of used) expect(deploy, name).toContain(`| \`${name}\``)
  })
})
