import express, { type Request, type RequestHandler, type Response, Router } from 'express';
import { t } from '@secret-push/i18n';
import type { Logger } from '@secret-push/logger';
import { PersonalTokenNotFound, UserDisabled, UserInputRejected } from '../domain/errors';
import { type PersonalToken, TOKEN_NAME_MAX_LENGTH } from '../domain/user';
import type { UserTokenService } from '../domain/user-tokens';
import { type WebSessions, signedInSession } from '../session/web-session';
import { formField, sameOriginPosts, sendPage, setPageHeaders } from './page-security';
import { pageErrors } from './pages.routes';
import { headerOf } from './web-header';
import { confirmPage } from './confirm.views';
import { setFlash, takeFlash } from './flash';
import { tokensPage } from './tokens.views';
import { errorPage } from './views';

/** What Revoke's and Regenerate's confirmation pages say. */
const ASK = {
  revoke: (token: PersonalToken) => ({
    question: t('tokens.ask.revoke.question', { name: token.name }),
    consequence: t('tokens.ask.revoke.consequence'),
    action: `/users/token/${token.id}/revoke`,
    confirm: t('tokens.ask.revoke.confirm', { name: token.name }),
    cancel: '/users/token',
  }),
  regenerate: (token: PersonalToken) => ({
    question: t('tokens.ask.regenerate.question', { name: token.name }),
    consequence: t('tokens.ask.regenerate.consequence'),
    action: `/users/token/${token.id}/regenerate`,
    confirm: t('tokens.ask.regenerate.confirm', { name: token.name }),
    cancel: '/users/token',
  }),
};

/** The domain's English problems with a new token (by field), in the page's language. */
function tokenProblems(fields: Record<string, string[]>): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [field, messages] of Object.entries(fields)) {
    if (field === 'name') {
      out.name = messages.map((m) =>
        m.includes('control characters')
          ? t('tokens.problem.nameControl')
          : t('tokens.problem.nameLength', { max: TOKEN_NAME_MAX_LENGTH }),
      );
    } else if (field === 'scopes') out.scopes = [t('tokens.problem.scopes')];
    else out.expires_days = [t('tokens.problem.days')];
  }
  return out;
}

export interface TokenPagesDeps {
  sessions: WebSessions;
  users: Pick<UserTokenService, 'listTokens' | 'createToken' | 'regenerateToken' | 'revokeToken'>;
  publicUrl: string;
  logger: Logger;
}

/**
 * `/users/token` (signed in): the person's personal API tokens through the same domain service
 * as the operator CLI and the API's authentication. A new or regenerated value is shown once, in
 * the answer to the POST that made it (the page is `no-store`); the list never shows values.
 */
export function tokenPagesRoutes(deps: TokenPagesDeps): Router {
  const { sessions, users } = deps;
  const router = Router();
  const readForm = express.urlencoded({ extended: false, limit: '8kb', parameterLimit: 10 });
  const guard: RequestHandler[] = [sessions.load, sessions.requireSignedIn];
  const guardPost: RequestHandler[] = [sameOriginPosts(deps.publicUrl), readForm, ...guard];

  async function page(
    req: Request,
    res: Response,
    status: number,
    extra: Pick<Parameters<typeof tokensPage>[0], 'issued' | 'errors' | 'values' | 'flash'> = {},
  ) {
    const session = signedInSession(res);
    const tokens = await users.listTokens(session.userId);
    setPageHeaders(res);
    const header = headerOf(res, true)!;
    sendPage(res, status, tokensPage({ header, csrf: session.csrf, tokens, ...extra }));
  }

  router.get('/users/token', ...guard, (req, res) => {
    const flash = takeFlash(req, res);
    return page(req, res, 200, flash ? { flash } : {});
  });

  router.post('/users/token', ...guardPost, async (req, res) => {
    const session = signedInSession(res);
    const given = (req.body as { scopes?: unknown } | undefined)?.scopes;
    const scopes = Array.isArray(given)
      ? given.filter((s) => typeof s === 'string')
      : typeof given === 'string'
        ? [given]
        : [];
    const name =
      formField(req.body, 'name')?.trim() ||
      t('tokens.defaultName', { at: new Date().toISOString().slice(0, 19).replace('T', ' ') });
    const days = formField(req.body, 'expires_days')?.trim();
    const values = { name: formField(req.body, 'name') ?? '', expires_days: days ?? '' };
    if (days && !/^\d{1,4}$/.test(days)) {
      return page(req, res, 422, {
        errors: { expires_days: [t('tokens.problem.days')] },
        values,
      });
    }
    const expiresAt = days ? new Date(Date.now() + Number(days) * 86_400_000) : null;
    try {
      const issued = await users.createToken(session.userId, { name, scopes, expiresAt });
      await page(req, res, 201, { issued: { name: issued.token.name, value: issued.value } });
    } catch (err) {
      if (err instanceof UserInputRejected) {
        return page(req, res, 422, { errors: tokenProblems(err.fields), values });
      }
      throw err;
    }
  });

  router.post('/users/token/:id/regenerate', ...guardPost, async (req, res) => {
    const issued = await users.regenerateToken(signedInSession(res).userId, String(req.params.id));
    await page(req, res, 200, { issued: { name: issued.token.name, value: issued.value } });
  });

  /** The person's token of this id (its name for the confirmation and the message). */
  async function ownToken(req: Request, res: Response) {
    const tokens = await users.listTokens(signedInSession(res).userId);
    const found = tokens.find((t) => t.id === String(req.params.id));
    if (!found) throw new PersonalTokenNotFound();
    return found;
  }

  /** Revoke and Regenerate ask first: a page that names the token; its form POSTs (nothing changes here). */
  for (const action of ['revoke', 'regenerate'] as const) {
    router.get(`/users/token/:id/${action}`, ...guard, async (req, res) => {
      const token = await ownToken(req, res);
      setPageHeaders(res);
      const csrf = signedInSession(res).csrf;
      sendPage(res, 200, confirmPage({ header: headerOf(res, true)!, csrf, ...ASK[action](token) }));
    });
  }

  router.post('/users/token/:id/revoke', ...guardPost, async (req, res) => {
    const token = await ownToken(req, res);
    await users.revokeToken(signedInSession(res).userId, token.id);
    setFlash(res, 'token-revoked', token.name, deps.publicUrl.startsWith('https:'));
    res.redirect(303, '/users/token');
  });

  router.use('/users/token', ((err, _req, res, next) => {
    if (err instanceof PersonalTokenNotFound) {
      setPageHeaders(res);
      return sendPage(res, 404, errorPage(t('tokens.notFound.title'), t('tokens.notFound.text')));
    }
    if (err instanceof UserDisabled) {
      setPageHeaders(res);
      return sendPage(res, 403, errorPage(t('tokens.disabled.title'), t('tokens.disabled.text')));
    }
    next(err);
  }) as express.ErrorRequestHandler);
  router.use('/users/token', pageErrors(deps.logger, 'the API tokens page'));
  return router;
}
