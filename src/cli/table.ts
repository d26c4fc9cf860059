/**
 * @module Plain-text tables for the CLI's listings: columns padded to their widest cell, two
 * spaces apart, no trailing spaces.
 */

/**
 * The header and rows as aligned text lines.
 * @example
 * textTable(['id', 'name'], [['1', 'Acme']]) // 'id  name\n1   Acme'
 */
export function textTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)))
  return [header, ...rows]
    .map((r) =>
      r
        .map((cell, i) => cell.padEnd(widths[i]!))
        .join('  ')
        .trimEnd(),
    )
    .join('\n')
}
