#!/usr/bin/env node
// Builds the dashboard served at `/` (src/http/plugins/dashboard.ts) into dist/dashboard: the page
// (src/dashboard/index.html, copied) and its script (src/dashboard/main.ts and the HTML report's
// section builders it imports, bundled by esbuild into one ES module). Part of `npm run build`.
import { copyFile, mkdir } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const source = join(root, 'src', 'dashboard')
const out = join(root, 'dist', 'dashboard')

await mkdir(out, { recursive: true })
await build({
  entryPoints: [join(source, 'main.ts')],
  outfile: join(out, 'app.js'),
  tsconfig: join(source, 'tsconfig.json'),
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: ['es2022'],
  minify: true,
  legalComments: 'none',
  logLevel: 'warning',
})
await copyFile(join(source, 'index.html'), join(out, 'index.html'))
