/**
 * Rewrites the generated blocks of README.md and docs/MCP.md (scripts/docs-blocks.ts).
 *
 *   npm run docs
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { DOC_FILES, regenerate } from './docs-blocks.js'

for (const name of DOC_FILES) {
  const file = new URL(`../${name}`, import.meta.url)
  const text = readFileSync(file, 'utf8')
  const next = regenerate(text)
  if (next !== text) writeFileSync(file, next)
  console.log(`${name}: ${next === text ? 'unchanged' : 'rewritten'}`)
}
