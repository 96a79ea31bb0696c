import { html } from '@secret-push/html';
import { layout } from './layout';

/** A page that only says something: refusals, expiries, outages. */
export function messagePage(title: string, message: string, detail?: string): string {
  return layout(
    title,
    html`<p>${message}</p>
      ${detail ? html`<p class="lead">${detail}</p>` : ''}`,
  );
}
