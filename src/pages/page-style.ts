/** The one stylesheet of the hosted pages, inlined and allowed by its hash in the CSP (no CDN, no `unsafe-inline`). */
export const PAGE_CSS = `
:root { --ink: #1c2530; --muted: #52606d; --line: #d9e2ec; --bg: #f3f6f9; --card: #fff; --brand: #0b5cad; --brand-dark: #084a8c;
  --ok: #116b3a; --ok-bg: #e3f6ea; --err: #a61b1b; --err-bg: #fdecec; --info-bg: #e8f1fb; --warn: #7a4d00; --warn-bg: #fff4d6; }
* { box-sizing: border-box; }
[hidden] { display: none !important; }
body { margin: 0; background: var(--bg); color: var(--ink); font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
header.brand { background: var(--card); border-bottom: 1px solid var(--line); }
header.brand div, main { max-width: 60rem; margin: 0 auto; padding: 1rem; }
header.brand p { margin: 0; color: var(--muted); font-size: .9rem; }
header.brand strong { display: block; font-size: 1.25rem; color: var(--ink); }
main { display: grid; gap: 1rem; padding-bottom: 3rem; }
h1 { font-size: 1.5rem; margin: .5rem 0 0; line-height: 1.25; }
h2 { font-size: 1.15rem; margin: 0 0 .75rem; }
h3 { font-size: 1rem; margin: 1.25rem 0 .5rem; }
.card { background: var(--card); border: 1px solid var(--line); border-radius: .75rem; padding: 1.25rem; }
.columns { display: grid; gap: 1rem; }
@media (min-width: 900px) { .columns { grid-template-columns: 1fr 1.2fr; align-items: start; } }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: .35rem 1rem; margin: 0; }
dl.facts dt { color: var(--muted); } dl.facts dd { margin: 0; font-weight: 500; overflow-wrap: anywhere; }
table { border-collapse: collapse; width: 100%; }
td, th { padding: .5rem .25rem; border-bottom: 1px solid var(--line); text-align: left; vertical-align: top; }
td.amount, th.amount { text-align: right; white-space: nowrap; font-variant-numeric: tabular-nums; }
td.state { text-align: right; }
button { max-width: 100%; white-space: normal; text-align: center; }
tr.total td { font-weight: 700; font-size: 1.1rem; border-bottom: 0; }
.due { margin: 0 0 1rem; padding: 1rem; border-radius: .5rem; background: var(--info-bg); }
.due span { display: block; color: var(--muted); font-size: .9rem; }
.due strong { font-size: 2rem; line-height: 1.2; font-variant-numeric: tabular-nums; }
.notice { margin: 0; padding: .75rem 1rem; border-radius: .5rem; background: var(--ok-bg); color: var(--ok); border-left: 4px solid var(--ok); font-weight: 500; }
.notice.error { background: var(--err-bg); color: var(--err); border-left-color: var(--err); }
.actions { display: flex; flex-wrap: wrap; gap: .5rem; margin: .5rem 0; }
form.inline { display: inline; margin: 0; }
label { display: block; margin: .75rem 0 .25rem; font-weight: 600; font-size: .95rem; }
input, select { width: 100%; padding: .65rem .75rem; font: inherit; color: inherit; background: #fff; border: 1px solid #9aa5b1; border-radius: .5rem; }
input[aria-invalid="true"] { border-color: var(--err); background: var(--err-bg); }
.row { display: grid; grid-template-columns: 1fr 1fr 1fr; gap: .75rem; }
.field-error { color: var(--err); font-size: .9rem; margin: .25rem 0 0; }
.hint { color: var(--muted); font-size: .9rem; margin: .5rem 0 0; }
.error-summary { padding: 1rem 1.25rem; border: 2px solid var(--err); border-radius: .75rem; background: var(--card); }
.error-summary h2 { color: var(--err); margin-bottom: .5rem; }
.error-summary ul { margin: 0; padding-left: 1.25rem; }
.error-summary a { color: var(--err); font-weight: 600; overflow-wrap: anywhere; }
.error-summary p { margin: .5rem 0 0; color: var(--muted); }
.seller { margin: .25rem 0 .5rem; color: var(--muted); }
td .item { display: block; font-weight: 600; } td .sub { display: block; color: var(--muted); font-size: .9rem; }
button { display: inline-flex; align-items: center; justify-content: center; min-height: 2.75rem; padding: .6rem 1.1rem; font: inherit; font-weight: 600;
  border-radius: .5rem; border: 1px solid var(--brand); background: var(--brand); color: #fff; cursor: pointer; }
button:hover { background: var(--brand-dark); }
button.secondary { background: #fff; color: var(--brand); }
button.secondary:hover { background: var(--info-bg); }
form > button[type="submit"]:last-child { margin-top: 1rem; }
form + h2, table + .notice, .notice + .actions { margin-top: 1.5rem; }
:focus-visible { outline: 3px solid #f0a500; outline-offset: 2px; }
.pay-code { display: grid; gap: 1rem; align-items: start; margin: .75rem 0; }
@media (min-width: 600px) { .pay-code { grid-template-columns: 12rem 1fr; } }
.pay-code img { width: 12rem; height: 12rem; border: 1px solid var(--line); border-radius: .5rem; background: #fff; padding: .5rem; }
code { display: block; padding: .6rem .75rem; border-radius: .5rem; background: var(--bg); border: 1px solid var(--line); font-size: .85rem; word-break: break-all; margin: .25rem 0 .5rem; }
p[id^="linha-"] code { font-size: 1rem; word-break: normal; overflow-wrap: anywhere; letter-spacing: .02em; }
.status { display: inline-block; padding: .1rem .5rem; border-radius: 1rem; background: var(--bg); font-size: .85rem; font-weight: 600; }
.status.PAID { background: var(--ok-bg); color: var(--ok); } .status.DECLINED, .status.EXPIRED { background: var(--err-bg); color: var(--err); }
ul.charges { list-style: none; margin: 0; padding: 0; display: grid; gap: 1rem; }
ul.charges > li { border: 1px solid var(--line); border-radius: .5rem; padding: .25rem .75rem .75rem; }
p.code-label { margin: .5rem 0 0; font-weight: 600; }
a.button { display: inline-flex; align-items: center; justify-content: center; min-height: 2.75rem; padding: .6rem 1.1rem; font-weight: 600;
  border-radius: .5rem; background: var(--brand); color: #fff; text-decoration: none; }
a.button:hover { background: var(--brand-dark); }
.visually-hidden { position: absolute; width: 1px; height: 1px; margin: -1px; padding: 0; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; border: 0; }
ul.methods { margin: 0 0 1rem; padding-left: 1.25rem; }
ul.offers { list-style: none; margin: .75rem 0 0; padding: 0; display: grid; gap: .75rem; }
ul.offers > li { display: flex; flex-wrap: wrap; gap: .75rem; justify-content: space-between; align-items: center; border-top: 1px solid var(--line); padding-top: .75rem; }
ul.offers .item { display: block; font-weight: 600; } ul.offers .sub { display: block; color: var(--muted); font-size: .9rem; }
ul.offers .buy { display: flex; gap: .75rem; align-items: center; }
ul.offers .price { font-weight: 700; font-size: 1.1rem; font-variant-numeric: tabular-nums; white-space: nowrap; }
nav.pages { display: flex; flex-wrap: wrap; gap: 1rem; justify-content: center; align-items: center; }
p.back { margin: 0; }
.card-element { min-height: 3rem; margin: .75rem 0; }
footer { text-align: center; color: var(--muted); font-size: .85rem; padding: 0 1rem 2rem; }
.test-mode-banner { margin: 0; padding: .5rem 1rem; background: var(--warn-bg); color: var(--warn); border-bottom: 2px solid #e0a800; text-align: center; font-weight: 600; font-size: .9rem; }
`;

/** The sandbox's banner, hints and simulate buttons: only on the pages of the sandbox provider. */
export const SANDBOX_CSS = `
.sandbox-banner { margin: 0; padding: .5rem 1rem; background: var(--warn-bg); color: var(--warn); border-bottom: 2px solid #e0a800; text-align: center; font-weight: 600; font-size: .9rem; }
.sandbox { margin: .75rem 0 0; padding: .5rem .75rem; border: 1px dashed #c98f00; border-radius: .5rem; background: var(--warn-bg); color: var(--warn); font-size: .85rem; }
button.sandbox-action { background: var(--warn-bg); color: var(--warn); border: 1px dashed #c98f00; font-weight: 500; }
`;

/** Copies the Pix code; the page works without it (the code can be selected by hand). */
export const PAGE_JS = `document.addEventListener('click',function(e){var b=e.target.closest('button[data-copy]');if(!b)return;var c=document.getElementById(b.getAttribute('data-copy'));if(!c||!navigator.clipboard)return;navigator.clipboard.writeText(c.querySelector('code').textContent).then(function(){b.textContent='Código copiado'},function(){});});`;
