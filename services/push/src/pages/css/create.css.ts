/** The create and request forms' own rules (presets, generator, drop zone), after the base stylesheet. */
export const CREATE_CSS = `
.presets { flex: 1 1 16rem; border: 0; padding: 0; margin: 0 0 0.75rem; min-width: 0; }
.presets legend { padding: 0; margin-bottom: 0.4rem; }
.presets > p { margin: 0 0 0.5rem; }
.preset-list { display: flex; flex-wrap: wrap; gap: 0.5rem; margin: 0 0 0.5rem; }
.preset { position: relative; }
.preset input { position: absolute; opacity: 0; width: 1px; height: 1px; }
.preset label { display: inline-block; margin: 0; font-weight: 500; min-height: 2.5rem; padding: 0.4rem 0.85rem;
  border: 1px solid var(--border); border-radius: 1.5rem; cursor: pointer; background: var(--bg); color: var(--fg); }
.preset input:checked + label { background: var(--accent); border-color: var(--accent); color: var(--accent-fg); font-weight: 600; }
.preset input:focus-visible + label { outline: 3px solid var(--accent); outline-offset: 2px; }
.preset-custom { margin-top: 0.25rem; }
.preset-custom input { max-width: 10rem; }
.row.expiry { gap: 0 1rem; }
details.more, details.generator { border: 1px solid var(--border); border-radius: 0.5rem; padding: 0.25rem 1rem; }
details.more[open] summary, details.generator[open] summary { margin-bottom: 0.75rem; }
summary { font-weight: 600; padding: 0.35rem 0; }
.gen-output { display: flex; flex-wrap: wrap; align-items: center; gap: 0 0.5rem; }
.gen-output label { flex: 1 1 100%; }
.gen-output input { flex: 1 1 12rem; width: auto; font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; }
.gen-output button { margin-bottom: 0.75rem; }
.gen-sets { display: flex; flex-wrap: wrap; gap: 0 1rem; }
.gen-actions { display: flex; flex-wrap: wrap; gap: 0.5rem; }
#gen-length, #gen-words { max-width: 8rem; }
#gen-mode { max-width: 18rem; }
#gen-status:empty { display: none; }
.drop-zone { border: 2px dashed var(--border); border-radius: 0.5rem; padding: 0.75rem 1rem; margin: 0 0 1rem; }
.drop-zone.dragging { border-color: var(--accent); background: var(--box); }
.drop-note { margin: -0.25rem 0 0.5rem; }
.file-list { list-style: none; padding: 0; margin: 0 0 0.5rem; }
.file-list li { display: flex; flex-wrap: wrap; align-items: center; gap: 0 0.5rem; padding: 0.25rem 0;
  border-bottom: 1px solid var(--border); }
.file-list .file-name { font-weight: 600; overflow-wrap: anywhere; }
.file-list li button { margin-left: auto; }
button.small { min-height: 2.75rem; padding: 0.3rem 0.8rem; font-size: 0.95rem; }
`;
