import { z } from 'zod';
import { envSection } from '@secret-push/config';

/**
 * The web application people use this sign-in service for (`app`): where the sign-in service's
 * pages lead back to (the account page's "Back to …", a cancelled sign-in of the account page).
 * Unset: the pages have no such link (a sign-in started by an application goes back to it anyway).
 */
export const appLinkSection = envSection(
  'Way back to the application',
  {
    AUTH_APP_URL: z
      .url({ protocol: /^https?$/ })
      .optional()
      .describe(
        "The web app's public URL (e.g. the push service's `PUSH_PUBLIC_URL`): the sign-in service's " +
          'account page links back to it, and a cancelled sign-in to the account page leads there. ' +
          'Unset: no such link.',
      ),
    AUTH_APP_NAME: z
      .string()
      .trim()
      .min(1)
      .max(64)
      .default('secret-push')
      .describe('The name of that web app on those links ("Back to secret-push"), 1–64 characters'),
  },
  (v) => ({
    app: { url: v.AUTH_APP_URL, name: v.AUTH_APP_NAME },
  }),
);
