import { maskRequestPaths } from './pages/request-pages.adapter';

/** A url_token reads the secret, a receipt expires it: neither reaches the logs (`/api/v2/pushes/…/audit`). */
export const maskUrlToken = (path: string) =>
  maskRequestPaths(
    path.replace(
      /(\/pushes\/|\/[pfr]\/|\/receipt\/)(?!active(?:\.json)?(?:$|\/)|expired(?:\.json)?(?:$|\/))[^/]+/i,
      '$1…',
    ),
  );
