/** Orders strings by UTF-16 code units, the same in every locale (the spec's "id ascending"). */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}
