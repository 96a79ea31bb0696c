import { z } from 'zod';
import { type EnvSection, envInt, envSection } from '@secret-push/config';

/** Where and as whom a service sends email; null in a config object means email is off. */
export interface SmtpConfig {
  /** `smtp://user:pass@host:587` (STARTTLS when offered; `?secure=false`… as nodemailer reads it) or `smtps://…:465`. */
  url: string;
  /** The From header: `secret-push <no-reply@example.org>`. */
  from: string;
  replyTo: string | null;
  /** One delivery attempt's deadline (connection, greeting, the whole exchange). */
  timeoutMs: number;
}

const address = z
  .string()
  .trim()
  .min(3)
  .max(320)
  .refine((s) => /^[^<>@\s]+@[^<>@\s]+$/.test(s) || /^[^<>]*<[^<>@\s]+@[^<>@\s]+>$/.test(s), {
    message: 'an address, or "Name <address>"',
  });

type SmtpVars<P extends string> = {
  [K in `${P}_SMTP_URL`]: z.ZodOptional<z.ZodString>;
} & { [K in `${P}_MAIL_FROM`]: z.ZodOptional<typeof address> } & {
  [K in `${P}_MAIL_REPLY_TO`]: z.ZodOptional<typeof address>;
} & { [K in `${P}_SMTP_TIMEOUT_MS`]: z.ZodDefault<ReturnType<typeof envInt>> };

/**
 * The one SMTP configuration style of both services: `<P>_SMTP_URL` (also `<P>_SMTP_URL_FILE`),
 * `<P>_MAIL_FROM`, `<P>_MAIL_REPLY_TO`, `<P>_SMTP_TIMEOUT_MS`. Without a URL, `mail` is null: email
 * features are off and the service says so.
 */
export function smtpSection<P extends string>(
  prefix: P,
  what: string,
): EnvSection<SmtpVars<P>, { mail: SmtpConfig | null }> {
  const U = `${prefix}_SMTP_URL`;
  const F = `${prefix}_MAIL_FROM`;
  const R = `${prefix}_MAIL_REPLY_TO`;
  const T = `${prefix}_SMTP_TIMEOUT_MS`;
  const vars = {
    [U]: z
      .string()
      .url()
      .refine((s) => /^smtps?:\/\//.test(s), { message: 'smtp://… or smtps://…' })
      .optional()
      .describe(
        `The SMTP server ${what} sends through: \`smtp://user:password@host:587\` (STARTTLS) or ` +
          '`smtps://user:password@host:465`. Unset: email is off (and reported so).',
      ),
    [F]: address
      .optional()
      .describe(
        'The From address of every email, e.g. `secret-push <no-reply@example.org>`; required with the SMTP URL. See docs/operations.md for SPF, DKIM and DMARC.',
      ),
    [R]: address.optional().describe('An optional Reply-To address.'),
    [T]: envInt(1000, 300_000)
      .default(30_000)
      .describe(
        "One delivery attempt's deadline in milliseconds (connection, greeting and the whole exchange).",
      ),
  } as unknown as SmtpVars<P>;
  type V = Record<string, unknown>;
  return envSection(
    `Email (${what})`,
    vars,
    (v) => {
      const r = v as V;
      const url = r[U] as string | undefined;
      return {
        mail: url
          ? {
              url,
              from: r[F] as string,
              replyTo: (r[R] as string | undefined) ?? null,
              timeoutMs: r[T] as number,
            }
          : null,
      };
    },
    {
      // eslint-disable-next-line @typescript-eslint/no-redundant-type-constituents -- the computed names of SmtpVars
      secretFiles: [U] as unknown as (keyof SmtpVars<P> & string)[],
      check: (v) => {
        const r = v as V;
        return r[U] && !r[F] ? [`${F}: required when ${U} is set`] : [];
      },
    },
  );
}
