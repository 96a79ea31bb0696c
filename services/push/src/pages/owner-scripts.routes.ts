import { Router } from 'express';
import { TIMES_JS } from './time.script';
import { TIMES_SCRIPT } from './time.views';

/** The owner pages' served scripts: /static/times.js (times in the viewer's zone). */
export function ownerScriptsRoutes(): Router {
  const router = Router();
  router.get(TIMES_SCRIPT, (_req, res) => {
    res.set('Cache-Control', 'public, max-age=3600').type('js').send(TIMES_JS);
  });
  return router;
}
