import { type Html, branding, html, rich } from '@secret-push/html';
import { t } from '@secret-push/i18n';
import { layout } from './layout';
import { type WebHeader, webHeader } from './web-header';

/**
 * "How it works": what the server stores, how, and when it is wiped, stated as the code does it
 * (docs/push-service.md "How it keeps its promises", docs/api.md "Views and expiry"). Keep it true
 * when those change (in every language: locales/<lang>/about.json).
 */
export function aboutPage(header: WebHeader | undefined, publicUrl: string): Html {
  const name = branding().name;
  return layout(
    t('about.title'),
    html`${webHeader(header)}
      <div class="prose">
        <h1>${t('about.heading', { name })}</h1>
        <p>${t('about.intro', { name })}</p>

        <h2 id="link">${t('about.link.heading')}</h2>
        <p>${rich('about.link.text', { url: html`<code>${publicUrl}/p/…</code>` })}</p>

        <h2 id="stored">${t('about.stored.heading')}</h2>
        <ul>
          <li>${rich('about.stored.secret')}</li>
          <li>${rich('about.stored.token')}</li>
          <li>${rich('about.stored.passphrase')}</li>
          <li>${rich('about.stored.settings')}</li>
          <li>${rich('about.stored.audit')}</li>
        </ul>
        <p>${t('about.stored.operator')}</p>

        <h2 id="wiped">${t('about.wiped.heading')}</h2>
        <ul>
          <li>${t('about.wiped.when')}</li>
          <li>${t('about.wiped.atExpiry')}</li>
          <li>${t('about.wiped.files')}</li>
          <li>${t('about.wiped.record')}</li>
        </ul>

        <h2 id="api">${t('about.api.heading')}</h2>
        <p>
          ${rich('about.api.text', {
            docs: (c) => html`<a href="/api/v2/docs">${c}</a>`,
            openapi: html`<a href="/api/v2/openapi.json"><code>/api/v2/openapi.json</code></a>`,
          })}
        </p>
        <h2 id="cli">${t('about.cli.heading')}</h2>
        <p>${rich('about.cli.text', { command: html`<code>secret-push</code>` })}</p>
        <pre class="secret">echo s3cret | secret-push push --views 2 --server ${publicUrl}</pre>
        <p>${t('about.cli.ask')}</p>
      </div>`,
  );
}
