import { t } from '@secret-push/i18n';
import { PASSWORD_MAX_BYTES, PASSWORD_MIN_CHARACTERS, passwordRuleViolation } from '../users/password';

/**
 * Why `password` may not be the password of the account `email` (normalised), in the page's
 * language, or undefined when it may: `passwordRuleViolation`'s rules (whose words are English, for
 * the CLI and logs), in its order. The sign-up and reset pages show it; so may the account console.
 */
export function passwordRuleText(password: string, email: string): string | undefined {
  if (passwordRuleViolation(password, email) === undefined) return undefined;
  const normalised = password.normalize('NFC');
  if (Buffer.byteLength(normalised, 'utf8') > PASSWORD_MAX_BYTES) {
    return t('errors.password.tooLong', { max: PASSWORD_MAX_BYTES });
  }
  if ([...normalised].length < PASSWORD_MIN_CHARACTERS) {
    return t('errors.password.tooShort', { min: PASSWORD_MIN_CHARACTERS });
  }
  return t('errors.password.isEmail');
}
