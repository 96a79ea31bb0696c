/**
 * What the recovery codes page and the sign-in service's "Cancel" and "Back to …" add to the
 * pages' stylesheet (served after it, at the same path): the codes' actions, and a print
 * stylesheet that prints the codes alone.
 */
export const CODES_STYLESHEET = `
[hidden] { display: none !important; }
.code-actions { display: flex; flex-wrap: wrap; gap: 0.5rem; margin: 1rem 0; }
.code-actions button, .code-actions .download {
  flex: 1 1 6rem;
  width: auto;
  margin: 0;
}
.code-actions .download {
  display: inline-block;
  padding: 0.625rem;
  border: 1px solid var(--accent);
  border-radius: 0.375rem;
  text-align: center;
  font-weight: 600;
  text-decoration: none;
}
.codes code { font-size: 1.0625rem; letter-spacing: 0.03em; }
form.cancel { margin-top: 0.25rem; }
form.cancel .hint { margin-top: 0.25rem; text-align: center; }
@media print {
  body { display: block; padding: 0; background: #fff; color: #000; }
  main { max-width: none; border: 0; padding: 0; background: #fff; }
  form, button, .code-actions, .after, .no-print { display: none !important; }
  .codes { columns: 2; }
  .codes code { color: #000; }
}
`;
