#!/usr/bin/env node
// The npm registry reachable here serves @duckdb/node-bindings for linux-x64 only, so `npm install`
// writes a lock without the other platforms' optional packages and `npm ci` then refuses the lock.
// This adds those optional entries (os/cpu-guarded, never installed on a machine they do not fit).
// Run it after any `npm install` that rewrites package-lock.json: `npm run lock:complete`.
import { readFileSync, writeFileSync } from 'node:fs'

const lock = JSON.parse(readFileSync('package-lock.json', 'utf8'))
const bindings = lock.packages['node_modules/@duckdb/node-bindings']
let added = 0
for (const [name, version] of Object.entries(bindings?.optionalDependencies ?? {})) {
  const key = `node_modules/${name}`
  if (lock.packages[key]) continue
  const [, os, cpu, libc] = /node-bindings-(\w+)-(\w+)(?:-(musl))?$/.exec(name) ?? []
  if (!os || !cpu) continue
  lock.packages[key] = {
    version,
    cpu: [cpu],
    license: 'MIT',
    optional: true,
    os: [os],
    ...(os === 'linux' ? { libc: [libc ?? 'glibc'] } : {}),
  }
  added++
}
const keys = Object.keys(lock.packages).sort((a, b) => (a === '' ? -1 : b === '' ? 1 : a < b ? -1 : 1))
lock.packages = Object.fromEntries(keys.map((k) => [k, lock.packages[k]]))
writeFileSync('package-lock.json', `${JSON.stringify(lock, null, 2)}\n`)
console.log(`package-lock.json: ${added} optional platform entries added`)
