/**
 * @module The page's style sheet: the HTML report's (src/report/styles.ts) and the controls'.
 * Applied as a constructed style sheet, so the page's CSP needs no inline style element.
 */
import { CSS } from '../report/styles.js'

const CONTROLS_CSS = `
.section{display:contents}
.controls{display:flex;flex-wrap:wrap;align-items:flex-end;gap:12px 16px;background:#fff;border:1px solid #e3e6ec;border-radius:14px;padding:14px 18px;margin-bottom:20px}
.controls label,.key-form label{display:flex;flex-direction:column;gap:4px;font-size:11px;font-weight:600;text-transform:uppercase;letter-spacing:.06em;color:#6b7280}
.controls select,.controls input,.key-form input{font:inherit;font-size:14px;text-transform:none;letter-spacing:0;color:#111827;padding:6px 8px;border:1px solid #d1d5db;border-radius:8px;background:#fff;min-width:120px}
.controls .range[hidden]{display:none}
button{font:inherit;font-weight:600;padding:7px 14px;border-radius:8px;border:1px solid #4338ca;background:#4338ca;color:#fff;cursor:pointer}
#forget{margin-left:auto;background:#fff;color:#4338ca}
.key-form{max-width:560px;margin:48px auto}
.key-form input{width:100%;margin:4px 0 12px}
.status{min-height:20px;margin:0 0 12px;color:#6b7280;font-size:13px}
.api-error{margin:0;padding:12px 14px;border-radius:10px;background:#fef2f2;border:1px solid #fecaca;color:#991b1b;font-weight:500}
`

/** The page's style sheet. */
export const DASHBOARD_CSS = `${CSS}${CONTROLS_CSS}`
