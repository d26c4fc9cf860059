/** Checks of the report page's markup shared by the report tests. */
import { expect } from 'vitest'

/** Nothing in the page may reach the network or run code. */
export function expectSelfContained(html: string): void {
  // Real tags only: escaped text never holds a '<'. Quoted values are blanked before looking at
  // attribute names (escaped values never hold a raw '"').
  // In-page links (`href="#..."`, the sample answers) stay on the page: they are dropped first.
  const tags = (html.match(/<[a-zA-Z][^>]*>/g) ?? []).map((t) =>
    t.replace(/\shref="#[^"]*"/g, '').replace(/"[^"]*"/g, '""'),
  )
  expect(tags.length).toBeGreaterThan(20)
  for (const tag of tags) {
    expect(tag).not.toMatch(/^<(script|img|link|iframe|object|embed|video|audio|source|base|form)\b/i)
    expect(tag).not.toMatch(/\s(src|href|srcset|xlink:href|action|on[a-z]+)\s*=/i)
  }
  const css = html.slice(html.indexOf('<style>'), html.indexOf('</style>'))
  expect(css).not.toMatch(/url\(|@import|@font-face/i)
  expect(html).toContain(`default-src 'none'`)
}

/** Every element closed in order (void and self-closed elements aside). */
export function expectBalanced(html: string): void {
  const VOID = new Set(['meta', 'br', 'hr', 'img', 'link', 'input'])
  const stack: string[] = []
  for (const m of html.matchAll(/<(\/?)([a-zA-Z][a-zA-Z0-9-]*)\b[^>]*?(\/?)>/g)) {
    const [, closing, name, selfClosing] = m
    const tag = name!.toLowerCase()
    if (VOID.has(tag) || selfClosing) continue
    if (closing) expect(stack.pop(), `closing </${tag}>`).toBe(tag)
    else stack.push(tag)
  }
  expect(stack).toEqual([])
}
