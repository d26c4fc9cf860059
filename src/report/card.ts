/** @module The frame every section of the report page is drawn in. */
import { esc } from './format.js'

/** The body of a section without data. */
export const EMPTY = '<div class="empty">No data in this window</div>'

/** A section card: its title, a subtitle and the body (an HTML fragment). */
export function section(title: string, subtitle: string, body: string, cls = ''): string {
  return `<section class="card ${cls}"><header class="card-head"><h2>${esc(title)}</h2>${
    subtitle ? `<p class="sub">${esc(subtitle)}</p>` : ''
  }</header>${body}</section>`
}
