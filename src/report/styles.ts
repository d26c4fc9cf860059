/** The report page's style sheet, inlined into the page (its CSP allows inline styles only). */
/** The colour of positive sentiment, in the style sheet and the charts. */
export const POSITIVE = '#15803d'
/** The brand's colour in the charts and tables. */
export const BRAND_COLOR = '#4338ca'

export const CSS = `
*{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;background:#f4f5f8;color:#111827;font:14px/1.5 Inter,-apple-system,BlinkMacSystemFont,"Segoe UI",Roboto,"Helvetica Neue",Arial,"Noto Sans","Liberation Sans","Noto Sans CJK JP","IPAGothic",sans-serif;font-feature-settings:"cv11","ss01";-webkit-font-smoothing:antialiased}
.page{max-width:1200px;margin:0 auto;padding:32px 32px 48px}
.top{display:flex;justify-content:space-between;align-items:flex-end;gap:24px;padding-bottom:24px;border-bottom:1px solid #e3e6ec;margin-bottom:20px}
.brand{display:flex;align-items:center;gap:16px;min-width:0;flex:1 1 auto}
.avatar{flex:none;width:56px;height:56px;border-radius:14px;background:linear-gradient(135deg,#4338ca,#6366f1);color:#fff;font-size:26px;font-weight:700;display:flex;align-items:center;justify-content:center}
.eyebrow{margin:0;font-size:12px;font-weight:600;letter-spacing:.08em;text-transform:uppercase;color:#4338ca}
h1{margin:2px 0 0;font-size:30px;line-height:1.15;font-weight:700;letter-spacing:-.02em;overflow-wrap:anywhere}
.site{margin:2px 0 0;color:#6b7280}
.meta{flex:none;display:grid;grid-template-columns:repeat(2,auto);gap:8px 28px;margin:0;font-size:13px}
.meta div{min-width:0}
.meta dt{color:#6b7280;font-size:11px;font-weight:600;text-transform:uppercase;letter-spacing:.06em}
.meta dd{margin:0;font-weight:500;font-variant-numeric:tabular-nums;white-space:nowrap}
.notes{background:#fffbeb;border:1px solid #fde68a;color:#92400e;border-radius:10px;padding:10px 14px;margin-bottom:20px;font-size:13px}
.notes p{margin:0}
.kpis{display:grid;grid-template-columns:repeat(5,1fr);gap:14px;margin-bottom:20px}
.kpi{background:#fff;border:1px solid #e3e6ec;border-radius:12px;padding:14px 16px;min-width:0}
.kpi-label{font-size:12px;font-weight:600;color:#6b7280}
.kpi-value{font-size:28px;font-weight:700;letter-spacing:-.02em;margin-top:2px;font-variant-numeric:tabular-nums}
.kpi.accent .kpi-value{color:#4338ca}
.kpi.positive .kpi-value{color:${POSITIVE}}
.kpi-detail{font-size:12px;color:#6b7280;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
.card{background:#fff;border:1px solid #e3e6ec;border-radius:14px;padding:20px 22px;margin-bottom:20px;break-inside:avoid}
.card-head{margin-bottom:12px}
h2{margin:0;font-size:17px;font-weight:650;letter-spacing:-.01em}
.sub{margin:2px 0 0;color:#6b7280;font-size:13px}
.empty{display:flex;align-items:center;justify-content:center;min-height:96px;border:1px dashed #d1d5db;border-radius:10px;color:#6b7280;background:#fafbfc;font-weight:500}
.legend{list-style:none;margin:0 0 10px;padding:0;display:flex;flex-wrap:wrap;gap:6px 18px;font-size:13px}
.legend li{display:flex;align-items:center;gap:6px}
.legend li.is-brand{font-weight:650}
.swatch{display:inline-block;flex:none;width:10px;height:10px;border-radius:3px}
.charts{display:grid;grid-template-columns:1fr 1fr;gap:24px}
figure{margin:0;min-width:0}
figcaption{font-weight:600;font-size:13px;margin-bottom:4px}
figcaption span{font-weight:400;color:#6b7280;margin-left:6px}
.chart{display:block;overflow:visible}
.chart .grid{stroke:#eceef2;stroke-width:1}
.chart .axis{stroke:#c7cbd3;stroke-width:1}
.chart .tick{fill:#6b7280;font-size:11px;font-variant-numeric:tabular-nums}
.chart .line{fill:none;stroke-width:1.75;stroke-linejoin:round;stroke-linecap:round;opacity:.85}
.chart .line.brand{stroke-width:3;opacity:1}
.chart .dot{stroke:#fff;stroke-width:1}
.foot{margin:10px 0 0;color:#6b7280;font-size:12px}
.grid-table{width:100%;border-collapse:collapse;font-variant-numeric:tabular-nums;table-layout:auto}
.grid-table th{font-size:11px;text-transform:uppercase;letter-spacing:.06em;color:#6b7280;font-weight:600;text-align:left;padding:8px 10px;border-bottom:1px solid #e3e6ec;white-space:nowrap}
.grid-table td{padding:7px 10px;border-bottom:1px solid #f0f1f4;vertical-align:middle}
.grid-table tr:last-child td{border-bottom:none}
.grid-table .num{text-align:right;white-space:nowrap}
.grid-table tr.is-brand td{background:#f5f5ff}
.grid-table .name{display:flex;align-items:center;gap:8px;min-width:0}
.ename{font-weight:600}
.web{color:#9ca3af;font-size:12px}
.pill{display:inline-block;font-size:11px;font-weight:600;padding:1px 8px;border-radius:999px;white-space:nowrap}
.brand-pill{background:#e0e7ff;color:#3730a3}
.pill.pos{background:#dcfce7;color:#166534}
.pill.neg{background:#fee2e2;color:#991b1b}
.pill.tier-high{background:#312e81;color:#fff}
.pill.tier-confident{background:#c7d2fe;color:#312e81}
.pill.tier-worth_a_look{background:#f3f4f6;color:#374151}
.bar{display:inline-block;vertical-align:middle;width:72px;height:6px;border-radius:3px;background:#eef0f3;margin-right:10px;overflow:hidden}
.bar>span{display:block;height:100%;border-radius:3px}
.prompts .rank{width:28px;color:#9ca3af;text-align:right}
.prompts td.prompt{max-width:380px}
.prompts td.prompt span{display:block;overflow:hidden;text-overflow:ellipsis;white-space:nowrap;font-weight:500}
.prompts td.mentions b{display:inline-block;min-width:28px}
.prompts .trend{width:140px;text-align:right;padding-right:14px}
.spark{display:inline-block;vertical-align:middle}
.row2{display:grid;grid-template-columns:270px minmax(0,1fr);gap:20px;align-items:start;margin-bottom:20px}
.row2 .card{margin-bottom:0}
.donut-wrap{display:flex;flex-direction:column;align-items:center;gap:16px;padding-top:4px}
.donut-value{font-size:26px;font-weight:700;fill:#111827;letter-spacing:-.02em}
.donut-caption{font-size:12px;fill:#6b7280;text-transform:uppercase;letter-spacing:.08em}
.split{list-style:none;margin:0;padding:0;width:100%}
.split li{display:flex;align-items:center;gap:8px;padding:7px 0;border-bottom:1px solid #f0f1f4}
.split li:last-child{border-bottom:none}
.split b{margin-left:auto;font-variant-numeric:tabular-nums}
.split small{color:#6b7280;min-width:78px;text-align:right}
.split li.total{color:#6b7280}
.split li.total b{color:#111827}
.theme-list{list-style:none;margin:0;padding:0;columns:2;column-gap:28px}
.theme-list li{display:flex;align-items:center;gap:8px;padding:7px 0;border-bottom:1px solid #f0f1f4;break-inside:avoid}
.tname{flex:1;min-width:0;overflow:hidden;text-overflow:ellipsis;white-space:nowrap;font-weight:500}
.theme-list .bar{width:48px;margin-right:0}
.occ{min-width:34px;text-align:right;font-variant-numeric:tabular-nums}
.comp-pill{background:#ffedd5;color:#9a3412}
.other-pill{background:#f1f5f9;color:#475569}
.ranked .rank{width:28px;color:#9ca3af;text-align:right}
.pages td.page{max-width:420px}
.pages .ptitle{display:block;overflow:hidden;text-overflow:ellipsis;white-space:nowrap;font-weight:500}
.pages .web{display:block;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.ptype{color:#6b7280;font-size:12px}
.chan{color:#6b7280;font-size:12px;max-width:200px}
.breakdown-table td.strip,.breakdown-table th.strip{width:232px;padding-right:4px}
.breakdown-table .ci-text{color:#6b7280;font-size:12px}
.breakdown-table tr.none-group .ename{font-weight:500;font-style:italic;color:#6b7280}
.ci{display:block;overflow:visible}
.ci .ci-axis{stroke:#c7cbd3;stroke-width:1}
.ci .ci-tick{stroke:#c7cbd3;stroke-width:1}
.ci .ci-dot{stroke:#fff;stroke-width:1}
.wow .delta{color:#6b7280;cursor:help}
.wow .sig{cursor:help}
.sample-link{display:inline-block;margin-top:2px;font-size:12px;color:#4338ca;text-decoration:none}
.sample-link:hover{text-decoration:underline}
.sample{border:1px solid #e3e6ec;border-radius:10px;padding:8px 12px;margin-bottom:8px}
.sample summary{cursor:pointer;display:flex;flex-wrap:wrap;gap:4px 12px;align-items:baseline}
.sample-prompt{font-weight:600}
.sample-meta{color:#6b7280;font-size:12px}
.answer-text{white-space:pre-wrap;overflow-wrap:anywhere;margin-top:8px;padding:10px 12px;background:#fafbfc;border-radius:8px;font-size:13px;line-height:1.55;max-height:420px;overflow:auto}
.sample-body{scroll-margin-top:56px}
.sample:has(.sample-body:target){border-color:#4338ca}
.page-foot{margin-top:28px;color:#6b7280;font-size:12px;line-height:1.6;border-top:1px solid #e3e6ec;padding-top:14px}
.page-foot p{margin:0 0 4px}
@media (max-width:900px){.kpis{grid-template-columns:repeat(2,1fr)}.charts,.row2{grid-template-columns:1fr}.top{flex-direction:column;align-items:flex-start}.theme-list{columns:1}}
@media print{body{background:#fff}.page{padding:0}.card,.kpi{border-color:#d1d5db}}
`
