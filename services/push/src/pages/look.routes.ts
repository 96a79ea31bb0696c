import { type RequestHandler, Router } from 'express';
import { brandAssets } from '@secret-push/html';
import type { Logger } from '@secret-push/logger';
import { aboutPage } from './about.views';
import { pageErrors } from './pages.routes';
import { sendPage, setPageHeaders } from './page-security';
import type { WebSessions } from '../session/web-session';
import { headerOf } from './web-header';

export interface LookDeps {
  publicUrl: string;
  logger: Logger;
  /** The web app's sign-in, when on: the about page's header shows who is signed in. */
  sessions?: WebSessions;
}

/**
 * The look's files, the same as the auth service serves (`/static/brand.css`, `/static/logo`,
 * `/favicon.svg`, `/static/theme.js`, from the branding in use at start), and `GET /about`, the
 * "How it works" page.
 */
export function lookRoutes(deps: LookDeps): Router {
  const router = Router();
  for (const asset of brandAssets()) {
    router.get(asset.path, (_req, res) => {
      res.set({ 'Cache-Control': 'public, max-age=3600', 'Content-Type': asset.contentType });
      res.send(typeof asset.body === 'string' ? asset.body : Buffer.from(asset.body));
    });
  }
  const signInEnabled = deps.sessions !== undefined;
  const load: RequestHandler[] = deps.sessions ? [deps.sessions.load] : [];
  router.get('/about', ...load, (_req, res) => {
    const header = headerOf(res, signInEnabled);
    setPageHeaders(res);
    sendPage(res, 200, aboutPage(header ?? { signInEnabled, user: null }, deps.publicUrl));
  });
  router.use(pageErrors(deps.logger, 'the about page'));
  return router;
}
