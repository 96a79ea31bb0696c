/**
 * The owner's pages (issue 29, ui-owner): flash messages, confirmation pages, secondary buttons as
 * links, the lists as cards on narrow screens, the created page's link field and the receipt.
 */
export const OWNER_CSS = `
.notice { border: 2px solid var(--accent); border-left-width: 0.5rem; border-radius: 0.4rem;
  padding: 0.6rem 0.9rem; margin: 0 0 1rem; }
.button.secondary, a.button.secondary { background: transparent; color: var(--fg); border-color: var(--border); }
button.small, .button.small { min-height: 2.75rem; padding: 0.45rem 0.8rem; font-size: 0.95rem; }
h1.question, .card-title { overflow-wrap: anywhere; }
form.confirm { display: flex; flex-wrap: wrap; gap: 0.75rem; align-items: center; }
.tabs ul { list-style: none; display: flex; flex-wrap: wrap; gap: 0.25rem 1rem; padding: 0; margin: 0 0 1rem; }
.tabs a[aria-current="page"] { font-weight: 700; color: var(--fg); text-decoration: none;
  border-bottom: 3px solid var(--accent); }
.when .muted { font-size: 0.9em; }
table.cards td.card-actions { white-space: normal; }
table.cards .card-actions > * { margin: 0 0.5rem 0.25rem 0; vertical-align: middle; }
.link-field { display: flex; flex-wrap: wrap; gap: 0.5rem; align-items: stretch; margin: 0 0 0.5rem; }
.link-field input[type="text"] { flex: 1 1 16rem; margin: 0; font-family: ui-monospace, "SFMono-Regular", Menlo,
  Consolas, "DejaVu Sans Mono", monospace; }
.receipt { border: 1px solid var(--border); border-radius: 0.5rem; padding: 0.75rem 1rem; margin: 0 0 1.25rem; }
.receipt h2 { margin-top: 0; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: 0.35rem 1rem; margin: 0 0 1rem; }
dl.facts dt { font-weight: 600; }
dl.facts dd { margin: 0; }
@media (max-width: 40rem) {
  table.cards, table.cards tbody, table.cards tr, table.cards td { display: block; width: 100%; }
  table.cards thead tr { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
  table.cards tr { border: 1px solid var(--border); border-radius: 0.5rem; padding: 0.5rem 0.75rem;
    margin: 0 0 0.75rem; }
  table.cards td { border: 0; padding: 0.15rem 0; overflow-wrap: anywhere; }
  table.cards td::before { content: attr(data-label) ": "; font-weight: 600; }
  table.cards td.card-title { font-weight: 600; font-size: 1.05rem; }
  table.cards td.card-title::before, table.cards td.card-actions::before { content: none; }
  table.cards td.card-actions { padding-top: 0.4rem; }
  dl.facts { grid-template-columns: 1fr; }
  dl.facts dd { margin-bottom: 0.4rem; }
}
`;
