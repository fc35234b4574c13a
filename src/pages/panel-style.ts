/**
 * The panel's additions to the hosted pages' stylesheet (`payments/page-style.ts`): the header with
 * the navigation, wide tables that scroll inside their own box, forms in a column. Inlined and
 * allowed by hash; the panel runs no script at all.
 */
export const PANEL_CSS = `
.skip { position: absolute; left: -999px; top: 0; background: var(--card); padding: .5rem 1rem; z-index: 1; }
.skip:focus { left: .5rem; }
header.panel { background: var(--card); border-bottom: 1px solid var(--line); }
header.panel .bar { max-width: 72rem; margin: 0 auto; padding: .75rem 1rem; display: flex; flex-wrap: wrap; gap: .5rem 1.5rem; align-items: center; justify-content: space-between; }
header.panel .tenant strong { display: block; font-size: 1.15rem; overflow-wrap: anywhere; }
header.panel .tenant span { color: var(--muted); font-size: .9rem; }
header.panel .who { display: flex; flex-wrap: wrap; gap: .25rem .75rem; align-items: center; color: var(--muted); font-size: .9rem; }
header.panel .who span { overflow-wrap: anywhere; }
nav.sections { border-top: 1px solid var(--line); }
nav.sections ul { max-width: 72rem; margin: 0 auto; padding: 0 1rem; list-style: none; display: flex; flex-wrap: wrap; gap: 0 1.25rem; }
nav.sections a { display: inline-block; padding: .6rem 0; color: var(--ink); text-decoration: none; border-bottom: 3px solid transparent; }
nav.sections a:hover { color: var(--brand); }
nav.sections a[aria-current="page"] { border-bottom-color: var(--brand); color: var(--brand); font-weight: 600; }
body.panel main { max-width: 72rem; }
main > * { min-width: 0; }
body.anonymous main { max-width: 30rem; }
nav.breadcrumb ol { list-style: none; margin: .5rem 0 0; padding: 0; display: flex; flex-wrap: wrap; gap: .25rem; color: var(--muted); font-size: .9rem; }
nav.breadcrumb li + li::before { content: "›"; margin-right: .25rem; }
nav.breadcrumb a { color: var(--muted); }
.table-wrap { overflow-x: auto; position: relative; }
.table-wrap table { min-width: 36rem; }
.table-wrap td, .table-wrap th { padding: .5rem .5rem; }
button.link { min-height: 0; padding: 0; border: 0; background: none; color: var(--brand); text-decoration: underline; font-weight: 500; }
button.link:hover { background: none; color: var(--brand-dark); }
button.danger { background: var(--err); border-color: var(--err); }
button.danger:hover { background: #7f1414; }
a.button.secondary { background: #fff; color: var(--brand); border: 1px solid var(--brand); }
main p > code, main td > code { display: inline; margin: 0; padding: .1rem .35rem; word-break: normal; }
main td > code { white-space: nowrap; }
.secret { display: grid; gap: .25rem; }
.secret code { display: block; padding: .6rem .75rem; font-size: 1rem; word-break: break-all; user-select: all; }
.muted { color: var(--muted); }
main h1, main p, main li, main td { overflow-wrap: anywhere; }
form.stack { display: grid; gap: 0; }
form.stack > button { justify-self: start; margin-top: 1rem; }
.inline-fields { display: flex; flex-wrap: wrap; gap: .5rem; align-items: end; }
.inline-fields label { margin: 0; }
.inline-fields select { width: auto; }
form.list-filters { display: grid; gap: .75rem; }
.filter-grid { display: grid; gap: .25rem 1rem; grid-template-columns: repeat(auto-fit, minmax(min(100%, 14rem), 1fr)); align-items: start; }
.filter-grid label { margin-top: .5rem; }
fieldset.choices, fieldset.range { border: 0; padding: 0; margin: .5rem 0 0; min-width: 0; }
fieldset.choices legend, fieldset.range legend { padding: 0; font-weight: 600; }
fieldset.choices label, label.check { display: flex; gap: .5rem; align-items: baseline; margin: .3rem 0; font-weight: 400; }
fieldset.choices input, label.check input { width: auto; flex: none; }
fieldset.range { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(100%, 9.5rem), 1fr)); gap: 0 .5rem; }
fieldset.range legend { grid-column: 1 / -1; }
fieldset.range > div, .filter-grid > div { min-width: 0; }
fieldset.range input { min-width: 0; }
details.more > summary { cursor: pointer; font-weight: 600; color: var(--brand); }
.table-wrap:focus-visible { outline: 3px solid var(--brand); outline-offset: 2px; }
.table-wrap[role="region"] td { overflow-wrap: normal; }
nav.tabs ul { list-style: none; margin: 0; padding: 0; display: flex; flex-wrap: wrap; gap: .5rem 1.25rem; border-bottom: 1px solid var(--line); }
nav.tabs a { display: inline-block; padding: .4rem 0; border-bottom: 3px solid transparent; }
nav.tabs a[aria-current="page"] { border-bottom-color: var(--brand); font-weight: 600; text-decoration: none; }
main li > code, dl.facts dd > code { display: inline; margin: 0; padding: .1rem .35rem; word-break: normal; overflow-wrap: anywhere; }
fieldset.group { border: 0; padding: 0; margin: .5rem 0 0; min-width: 0; }
fieldset.group legend { padding: 0; font-weight: 600; }
fieldset.group + fieldset.group { margin-top: 1.25rem; padding-top: .75rem; border-top: 1px solid var(--line); }
ol.timeline { list-style: none; margin: 0; padding: 0 0 0 1rem; border-left: 2px solid var(--line); display: grid; gap: .75rem; }
ol.timeline .when { display: block; color: var(--muted); font-size: .9rem; }
ul.deliveries { margin: .25rem 0 0; padding-left: 1.25rem; }
ul.deliveries li { margin: .25rem 0; }
.status.delivery-succeeded { background: var(--ok-bg); color: var(--ok); } .status.delivery-failed { background: var(--err-bg); color: var(--err); } .status.delivery-paused, .status.delivery-pending { background: var(--warn-bg); color: var(--warn); }
pre { margin: .25rem 0 .75rem; padding: .6rem .75rem; border-radius: .5rem; background: var(--bg); border: 1px solid var(--line); font-size: .85rem; white-space: pre-wrap; overflow-wrap: anywhere; }
pre code { display: inline; margin: 0; padding: 0; border: 0; background: none; font-size: inherit; word-break: normal; }
th .sub { display: block; color: var(--muted); font-size: .9rem; font-weight: normal; }
main h2 > code, label code, td .sub code, th .sub code { display: inline; margin: 0; padding: .1rem .35rem; word-break: normal; overflow-wrap: anywhere; }
.tag { display: inline-block; padding: 0 .4rem; border-radius: .25rem; background: var(--warn-bg); color: var(--warn); font-size: .8rem; font-weight: 600; }
td .sub code, th .sub code, .table-wrap .status { white-space: nowrap; overflow-wrap: normal; }
.attempt + .attempt { margin-top: 1rem; border-top: 1px solid var(--line); }
.day-chart { display: grid; gap: 1rem; align-items: start; }
@media (min-width: 900px) { .day-chart { grid-template-columns: 3fr 2fr; } }
.day-chart svg { display: block; width: 100%; height: auto; }
.day-chart .bar { fill: var(--brand); }
.day-chart .axis { stroke: var(--muted); stroke-width: 1; }
.day-chart .scale { stroke: var(--line); stroke-dasharray: 4 3; }
.day-chart .tick { fill: var(--muted); font-size: 12px; }
.day-table caption { text-align: left; font-weight: 600; margin-bottom: .25rem; }
.day-table td { text-align: right; white-space: nowrap; font-variant-numeric: tabular-nums; }
.day-table tfoot th, .day-table tfoot td { font-weight: 700; border-bottom: 0; }
.figures { display: grid; gap: 1rem; grid-template-columns: repeat(auto-fit, minmax(min(100%, 14rem), 1fr)); margin: 0; }
.figures > div { border: 1px solid var(--line); border-radius: .5rem; padding: .75rem 1rem; }
.figures dt { color: var(--muted); } .figures dd { margin: .15rem 0 0; }
.figures .count { font-size: 1.5rem; font-weight: 700; font-variant-numeric: tabular-nums; }
.figures .amount { display: block; font-variant-numeric: tabular-nums; }
ul.plain { margin: 0; padding-left: 1.25rem; } ul.plain li { margin: .25rem 0; }
`;
