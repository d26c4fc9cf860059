/**
 * The generated blocks of the docs, from the endpoint table and the CLI's registry: the curls
 * `npm start` prints, the MCP tool list and the CLI synopsis. `npm run docs` writes them between
 * `<!-- generated:NAME -->` and `<!-- /generated:NAME -->`; test/repo/docs.test.ts checks the files
 * hold exactly these.
 */
import { demoCurls } from '../src/cli/commands/demo.js'
import { COMMANDS } from '../src/cli/registry.js'
import { demoDomainId } from '../src/demo/index.js'
import { LOCAL_TOOLS, TOOLS } from '../src/mcp/index.js'

const sh = (lines: string[]) => `\`\`\`sh\n${lines.join('\n')}\n\`\`\``

/** The blocks by name. */
export function generatedBlocks(): Record<string, string> {
  const local = new Set(LOCAL_TOOLS.map((t) => t.name))
  const tools = TOOLS.map((tool) => {
    const args = Object.keys(tool.input.shape)
    const where = local.has(tool.name) ? '' : " (over HTTP only: it reports on the caller's key)"
    return `- \`${tool.name}\` (\`GET ${tool.endpoint.path}\`): ${args.length === 0 ? 'no arguments' : args.map((a) => `\`${a}\``).join(', ')}${where}`
  })
  return {
    'demo-curls': sh(demoCurls({ url: 'http://127.0.0.1:8787', key: '$KEY', domainId: demoDomainId(0) })),
    'mcp-tools': [`${TOOLS.length} tools, one per row of the endpoint table:`, '', ...tools].join('\n'),
    'cli-synopsis': sh([...COMMANDS.values()].flatMap((c) => c.synopsis())),
  }
}

/** The files holding generated blocks, relative to the repository. */
export const DOC_FILES = ['README.md', 'docs/MCP.md'] as const

const mark = (name: string) => [`<!-- generated:${name} -->`, `<!-- /generated:${name} -->`] as const

/** The blocks a document holds, by name (its text between the marks, trimmed). */
export function blocksOf(text: string): Record<string, string> {
  const found: Record<string, string> = {}
  for (const m of text.matchAll(/<!-- generated:([a-z-]+) -->\n([\s\S]*?)\n<!-- \/generated:\1 -->/g))
    found[m[1]!] = m[2]!.trim()
  return found
}

/** `text` with each of its marked blocks replaced by the generated one. */
export function regenerate(text: string, blocks: Record<string, string> = generatedBlocks()): string {
  let out = text
  for (const [name, block] of Object.entries(blocks)) {
    const [open, close] = mark(name)
    const start = out.indexOf(open)
    if (start === -1) continue
    const end = out.indexOf(close, start)
    if (end === -1) throw new Error(`${open} has no ${close}`)
    out = `${out.slice(0, start)}${open}\n\n${block}\n\n${out.slice(end)}`
  }
  return out
}
